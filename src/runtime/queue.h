// cl_command_queue: commands start in the order they were enqueued, each once the events it waits
// for are complete. Each queue submits its launches to a Vulkan queue of its own where the device
// has enough (vulkan::Device::nextQueue), so that the launches of several command queues run at
// once. In an out-of-order queue a launch that waits for no command of its queue still running
// has no barrier before it, and its submission goes to whichever of the device's queues has the
// least of this queue's work, so that it runs beside the launches before it; a launch that waits
// for running launches goes behind them on their Vulkan queue (and waits until those left on
// other Vulkan queues have finished). Every other command starts after those before it have
// finished, which the specification allows.
//
// Kernel launches are submitted to the device without waiting for them, so that the host records
// the next launches while the device runs the earlier ones, as a native driver does:
// - A launch enqueued while the queue has nothing on the device starts at once, on the enqueuing
//   thread (when the events it waits for are complete), so that the device starts while the
//   program enqueues the rest of its work.
// - Launches enqueued while the device is busy gather and go in one submission, with one fence (a
//   submission costs microseconds of host time; libraries such as clFFT and CLBlast enqueue
//   several kernels per call): when something asks for them (clFlush, clFinish, a blocking
//   command, a wait for an event, a query of an event's status, an event callback), when any
//   command that is not a launch is enqueued, at 64 launches, when the device has finished the
//   earlier submissions, or kBatchDelay after the first was enqueued (so that a program that never
//   flushes still progresses, as the specification does not require of it).
// - Each submission's commands complete, in order, once its fence signals: a thread that waits
//   (clFinish, a blocking command, clWaitForEvents) watches the fence itself, which saves two
//   thread hand-overs per enqueue-and-wait; otherwise the queue's worker thread does, so that
//   event callbacks and status queries see the commands finish without anyone waiting.
// Every other command (transfers, fills, maps, markers) runs alone once the device has finished
// everything before it, on the worker thread or on a thread that waits for it.
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
#include "vulkan/dispatch.h"

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
  // Launches submitted together, which the device may still be running, and what completing
  // their events takes.
  struct InFlight {
    std::vector<Command> commands;
    // Per command: its outcome when it was settled without running (a failed preparation or
    // dependency, nothing to run); none for the launches recorded in the submission.
    std::vector<std::optional<CommandOutcome>> settled;
    std::vector<launch::PreparedLaunch> launches;  // the recorded ones, in order
    std::vector<size_t> firstDispatch;             // per recorded launch, and one past the end
    std::vector<bool> afterEarlier;                // per recorded launch: it starts after those before it
    vulkan::Queue* queue = nullptr;                // where it was submitted
    std::optional<vulkan::SubmittedDispatches> submission;
    std::string failure;                                // why the submission failed
    std::optional<std::string> invalid;                 // what the validation layer said of it
    std::chrono::steady_clock::time_point submittedAt;  // the profiling clock (hostNanoseconds)
    bool claimed = false;                               // a thread is completing its events
  };
  // Shared with the worker thread, which outlives the queue object until its commands are done.
  struct Executor {
    std::mutex mutex;
    std::condition_variable changed;
    std::deque<Command> commands;                    // not started yet
    std::deque<std::shared_ptr<InFlight>> inFlight;  // submitted, oldest first
    bool closed = false;
    bool starting = false;  // a thread is submitting launches or running a command
    size_t waiters = 0;     // threads in waitFor
    size_t sleepers = 0;    // of those, the ones asleep on `changed`
    // When the worker, asleep on `changed`, wakes by itself: max() when it sleeps until woken,
    // min() while it is awake (it looks at everything again before it sleeps). A change that
    // gives the worker something to do before then must wake it; no other change needs to
    // (announce), which saves a wake-up of the worker, and its taking the lock from the thread
    // that goes on, twice per launch a program enqueues and waits for.
    std::chrono::steady_clock::time_point workerWakesAt = std::chrono::steady_clock::time_point::min();
    std::chrono::steady_clock::time_point busyUntil;  // kBusyPeriod after the last submission
    uint64_t enqueued = 0, finished = 0;
    uint64_t flushed = 0;                 // the commands up to this ticket start without waiting for a batch
    const CommandQueue* owner = nullptr;  // identity only: whose events are in order with ours
    vulkan::Device* device = nullptr;
    // The device's queues that the launches go to: one for an in-order queue, all of them for an
    // out-of-order one (the first is where an in-order one would go).
    std::vector<vulkan::Queue*> queues;
    bool outOfOrder = false;                         // CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE
    vulkan::Device* validated = nullptr;             // the Vulkan device, when its validation layer is on
    bool timed = false;                              // the queue profiles: its launches write timestamps
    uint64_t lastEnded = 0;                          // the profiled END of the last launch completed (host ns)
    std::chrono::steady_clock::time_point nextLook;  // when the worker may look at a fence again
  };
  // How a thread may start commands: a waiting thread and the worker may run commands that are
  // not launches; a thread that only keeps things moving (enqueue, clFlush) does not. None starts
  // a command before its dependencies (user events, other queues' commands) have settled.
  enum class Starter { kWaiter, kWorker, kMover };
  // Whether a worker is busy, for the process's exit (queue.cc).
  class WorkerActivity;
  static void run(std::shared_ptr<Executor> executor, WorkerActivity& activity);
  // Has the commands of `waitList` that are not this queue's wake the queue when they settle.
  void wakeWhenReady(const std::vector<std::shared_ptr<Event>>& waitList);
  // Whether `starter` may start the first queued command now.
  static bool canStart(Executor& executor, Starter starter);
  // Under the executor's lock: when the worker is to look at the oldest submission's fence
  // (kCompletionDelay after it, then every kLookInterval), if nobody else watches it.
  static std::optional<std::chrono::steady_clock::time_point> fenceLookAt(const Executor& executor);
  // Under the executor's lock: when the worker next has something to do that nobody asks it to:
  // `now`, a later time (a batch's delay, a fence to look at) or never (time_point::max()).
  static std::chrono::steady_clock::time_point workerDueAt(Executor& executor,
                                                           std::chrono::steady_clock::time_point now);
  // After a change under `lock` (held on entry and on return): wakes the threads asleep on the
  // queue if the change may concern them — every thread that waits in waitFor, and the worker
  // when it now has something to do more than a look interval before it would wake.
  static void announce(Executor& executor, std::unique_lock<std::mutex>& lock);
  // Takes the first queued command (and the launches that may share its submission) and submits
  // or runs it, with `lock` released meanwhile.
  static void startNext(Executor& executor, std::unique_lock<std::mutex>& lock);
  // Under the executor's lock: the Vulkan queue a launch must be submitted to, behind the
  // launches of this queue it waits for that are still running; null when it may go to any;
  // none when those are on several Vulkan queues (it waits until all but one have finished).
  static std::optional<vulkan::Queue*> queueFor(const Executor& executor, const Command& launch);
  // Under the executor's lock: the Vulkan queue for a launch that may go to any, the one with
  // the fewest of this queue's submissions in flight.
  static vulkan::Queue* leastBusyQueue(const Executor& executor);
  // Waits for the oldest submission (until `deadline`, sleeping at once with `sleep`) and
  // completes its commands, unless another thread does first.
  static void completeOldest(Executor& executor, std::unique_lock<std::mutex>& lock, bool sleep,
                             std::optional<std::chrono::steady_clock::time_point> deadline);
  static void runOne(Executor& executor, Command& command);
  static std::shared_ptr<InFlight> submitLaunches(Executor& executor, std::vector<Command> batch, vulkan::Queue& queue);
  static void complete(Executor& executor, InFlight& batch, const Status& waited);

  std::shared_ptr<Context> context_;
  Device& device_;
  cl_command_queue_properties properties_;
  std::vector<cl_queue_properties> propertyList_;
  std::shared_ptr<Executor> executor_;
};

}  // namespace cl2vk::runtime
