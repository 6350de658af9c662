// cl_event: the status of one command (or a user event), its profiling times and callbacks.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "runtime/context.h"
#include "runtime/object.h"

namespace cl2vk::runtime {

class CommandQueue;

using EventCallback = void(CL_CALLBACK*)(cl_event event, cl_int status, void* user_data);

// Nanoseconds of the host's steady clock: the time base of every profiling value.
uint64_t hostNanoseconds();

class Event : public Object<Event, _cl_event> {
 public:
  // A command's event; `queue` is null for a user event.
  Event(std::shared_ptr<Context> context, std::shared_ptr<CommandQueue> queue, cl_command_type type);

  Context& context() { return *context_; }
  const std::shared_ptr<CommandQueue>& queue() const { return queue_; }
  cl_command_type commandType() const { return type_; }
  bool isUserEvent() const { return type_ == CL_COMMAND_USER; }

  cl_int status() const;
  // The status as clGetEventInfo reports it: CL_SUBMITTED, not CL_RUNNING, while a command of the
  // wait list has not completed (launches submitted together all run once submitted, in order on
  // the device, but the later ones have not started while the earlier ones run).
  cl_int reportedStatus() const;
  // The events the command waits for, kept until it completes (for reportedStatus).
  void setWaitList(std::vector<std::shared_ptr<Event>> waitList);
  // Moves the event to `status` (CL_SUBMITTED, CL_RUNNING, CL_COMPLETE or a negative error),
  // records the profiling time of that step and runs the callbacks it releases. A completed or
  // failed event does not change again.
  void setStatus(cl_int status);
  // Completion with the device's own measure of the command: END is START plus `deviceNanoseconds`;
  // `startedAt` (host nanoseconds) moves START later, to where the device started it in a
  // submission of several commands.
  void complete(cl_int status, std::optional<double> deviceNanoseconds,
                std::optional<uint64_t> startedAt = std::nullopt);
  // Blocks until the event is complete or failed; returns the final status. A command's event
  // runs its queue's commands up to it on this thread when the queue's worker is idle.
  cl_int wait();
  // The command's place in its queue (CommandQueue::waitFor); 0 for a user event.
  void setTicket(uint64_t ticket) { ticket_ = ticket; }
  uint64_t ticket() const { return ticket_; }

  void addCallback(cl_int triggerStatus, EventCallback callback, void* userData);
  // Runs `listener` once the event is complete or failed (at once if it is): how a queue whose
  // command waits for this event learns that it may start it.
  void whenSettled(std::function<void()> listener);

  cl_int getInfo(cl_event_info param, const InfoOut& out);
  cl_int getProfilingInfo(cl_profiling_info param, const InfoOut& out);

 private:
  struct Callback {
    cl_int trigger;
    EventCallback function;
    void* userData;
  };
  // Takes the callbacks that `status` releases, under the lock.
  std::vector<Callback> takeReleasedCallbacks(cl_int status);

  std::shared_ptr<Context> context_;
  std::shared_ptr<CommandQueue> queue_;
  cl_command_type type_;
  uint64_t ticket_ = 0;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  cl_int status_;
  bool profiled_ = false;
  uint64_t queued_ = 0, submitted_ = 0, started_ = 0, ended_ = 0;
  std::vector<Callback> callbacks_;
  std::vector<std::function<void()>> settledListeners_;
  std::vector<std::shared_ptr<Event>> waitList_;
};

}  // namespace cl2vk::runtime
