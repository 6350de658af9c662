// cl_command_queue: commands run in the order they were enqueued, one at a time, each once the
// events it waits for are complete. A worker thread of the queue's own runs them: it records and
// submits each command to the Vulkan device's queue, waits for it and completes the command's
// event; so the application's thread never blocks on the device unless it asks to, and a command
// waiting for a user event does not stop the application from setting it. A thread that does ask
// to wait (clFinish, a blocking command, clWaitForEvents) runs the queued commands it waits for
// itself when the worker is not already running one, which saves two thread hand-overs per
// enqueue-and-wait. An out-of-order queue runs in order, which the specification allows.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

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
    CommandWork work;
  };
  // Shared with the worker thread, which outlives the queue object until its commands are done.
  struct Executor {
    std::mutex mutex;
    std::condition_variable changed;
    std::deque<Command> commands;
    bool closed = false;
    bool running = false;  // some thread is running a command
    uint64_t enqueued = 0, finished = 0;
  };
  static void run(std::shared_ptr<Executor> executor);
  // Takes the first queued command and runs it, with `lock` released meanwhile.
  static void runNext(Executor& executor, std::unique_lock<std::mutex>& lock);

  std::shared_ptr<Context> context_;
  Device& device_;
  cl_command_queue_properties properties_;
  std::vector<cl_queue_properties> propertyList_;
  std::shared_ptr<Executor> executor_;
  vulkan::Device* validated_ = nullptr;  // the Vulkan device, when its validation layer is on
};

}  // namespace cl2vk::runtime
