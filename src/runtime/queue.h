// cl_command_queue: commands run in the order they were enqueued, each once the events it waits
// for are complete. A worker thread of the queue's own runs them: it records and submits each
// command to the Vulkan device's queue, waits for it and completes the command's event; so the
// application's thread never blocks on the device unless it asks to, and a command waiting for a
// user event does not stop the application from setting it. A thread that does ask to wait
// (clFinish, a blocking command, clWaitForEvents) runs the queued commands it waits for itself
// when the worker is not already running one, which saves two thread hand-overs per
// enqueue-and-wait. An out-of-order queue runs in order, which the specification allows.
//
// Kernel launches are batched: consecutive launches go to the device in one submission, with one
// wait (a round trip costs tens of microseconds on a GPU, more than many kernels take; libraries
// such as clFFT and CLBlast enqueue several kernels per call). A launch therefore does not start
// when it is enqueued but when something asks for it: clFlush, clFinish, a blocking command, a
// wait for an event, a query of an event's status, an event callback, any command that is not a
// launch, 64 launches queued, or kBatchDelay after it was enqueued (so that a program that never
// flushes still progresses, as the specification does not require of it).
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "launch/kernel_launch.h"
#include "runtime/context.h"
#include "runtime/event.h"
#include "runtime/object.h"

namespace cl2vk::runtime {

// What a command does once its turn comes, on the worker: CL_SUCCESS or an error status for its
// event, and the device time it measured, if any. `message` explains a failure to the context.
struct CommandOutcome {
  cl_int status = CL_SUCCESS;
  std::optional<double> deviceNanoseconds;
  std::string message;
};
using CommandWork = std::function<CommandOutcome()>;

// What a kernel launch does once its turn comes, on the worker, before the batch it is part of
// is submitted: a failure, or the launch to record (none when there is nothing to run).
struct PreparedKernel {
  CommandOutcome failure;
  std::optional<launch::PreparedLaunch> launch;
};
using KernelWork = std::function<PreparedKernel()>;

class CommandQueue : public Object<CommandQueue, _cl_command_queue> {
 public:
  CommandQueue(std::shared_ptr<Context> context, Device& device, cl_command_queue_properties properties,
               std::vector<cl_queue_properties> propertyList);
  ~CommandQueue() override;

  Context& context() { return *context_; }
  const std::shared_ptr<Context>& sharedContext() const { return context_; }
  Device& device() { return device_; }
  cl_command_queue_properties properties() const { return properties_; }

  // Queues `work` after every command enqueued before it and after `waitList`; returns its event.
  std::shared_ptr<Event> enqueue(cl_command_type type, std::vector<std::shared_ptr<Event>> waitList, CommandWork work);
  // Queues a kernel launch, which may run in one submission with the launches next to it.
  std::shared_ptr<Event> enqueueKernel(std::vector<std::shared_ptr<Event>> waitList, KernelWork work);

  // Starts every command enqueued so far without waiting for them (clFlush).
  void flush();

  // Blocks until every command enqueued so far has finished.
  void finish();
  // Blocks until the command with `ticket` (Event::ticket) has finished, running queued commands
  // up to it on this thread when no other thread is running one.
  void waitFor(uint64_t ticket);

  cl_int getInfo(cl_command_queue_info param, const InfoOut& out);

 private:
  struct Command {
    std::shared_ptr<Event> event;
    std::vector<std::shared_ptr<Event>> waitList;
    CommandWork work;   // a command that runs alone, or
    KernelWork kernel;  // a launch, which may share a submission
    std::chrono::steady_clock::time_point enqueuedAt;
  };
  // Shared with the worker thread, which outlives the queue object until its commands are done.
  struct Executor {
    std::mutex mutex;
    std::condition_variable changed;
    std::deque<Command> commands;
    bool closed = false;
    bool running = false;  // some thread is running a command
    uint64_t enqueued = 0, finished = 0;
    uint64_t flushed = 0;                 // the commands up to this ticket start without waiting for a batch
    const CommandQueue* owner = nullptr;  // identity only: whose events are in order with ours
    vulkan::Device* device = nullptr;
    vulkan::Device* validated = nullptr;  // the Vulkan device, when its validation layer is on
  };
  static void run(std::shared_ptr<Executor> executor);
  // Takes the first queued command (and the launches that may share its submission) and runs
  // it, with `lock` released meanwhile.
  static void runNext(Executor& executor, std::unique_lock<std::mutex>& lock);
  static void runOne(Executor& executor, Command& command);
  static void runLaunches(Executor& executor, std::vector<Command>& batch);

  std::shared_ptr<Context> context_;
  Device& device_;
  cl_command_queue_properties properties_;
  std::vector<cl_queue_properties> propertyList_;
  std::shared_ptr<Executor> executor_;
};

}  // namespace cl2vk::runtime
