#include "runtime/event.h"

#include <algorithm>
#include <chrono>

#include "runtime/queue.h"

namespace cl2vk::runtime {

uint64_t hostNanoseconds() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

Event::Event(std::shared_ptr<Context> context, std::shared_ptr<CommandQueue> queue, cl_command_type type)
    : context_(std::move(context)),
      queue_(std::move(queue)),
      type_(type),
      status_(type == CL_COMMAND_USER ? CL_SUBMITTED : CL_QUEUED) {
  profiled_ = queue_ && (queue_->properties() & CL_QUEUE_PROFILING_ENABLE);
  queued_ = hostNanoseconds();
}

cl_int Event::status() const {
  std::lock_guard lock(mutex_);
  return status_;
}

cl_int Event::reportedStatus() const {
  std::vector<std::shared_ptr<Event>> waitList;
  cl_int status;
  {
    std::lock_guard lock(mutex_);
    status = status_;
    if (status != CL_RUNNING) return status;
    waitList = waitList_;
  }
  bool waiting = std::any_of(waitList.begin(), waitList.end(), [](const std::shared_ptr<Event>& dependency) {
    return dependency->status() > CL_COMPLETE;
  });
  return waiting ? CL_SUBMITTED : status;
}

void Event::setWaitList(std::vector<std::shared_ptr<Event>> waitList) {
  std::lock_guard lock(mutex_);
  if (status_ > CL_COMPLETE) waitList_ = std::move(waitList);
}

std::vector<Event::Callback> Event::takeReleasedCallbacks(cl_int status) {
  std::vector<Callback> released;
  std::vector<Callback> kept;
  for (const Callback& callback : callbacks_) {
    // A failed command releases every callback, with its error status.
    (status < 0 || status <= callback.trigger ? released : kept).push_back(callback);
  }
  callbacks_ = std::move(kept);
  return released;
}

void Event::setStatus(cl_int status) { complete(status, std::nullopt); }

void Event::complete(cl_int status, std::optional<double> deviceNanoseconds, std::optional<uint64_t> startedAt) {
  std::vector<Callback> released;
  std::vector<std::function<void()>> listeners;
  std::vector<std::shared_ptr<Event>> waitList;  // dropped outside the lock
  {
    std::lock_guard lock(mutex_);
    if (status_ <= CL_COMPLETE) return;  // complete or failed already
    uint64_t now = hostNanoseconds();
    if (status <= CL_SUBMITTED && status_ > CL_SUBMITTED) submitted_ = now;
    if (status <= CL_RUNNING && status_ > CL_RUNNING) started_ = now;
    if (startedAt) started_ = std::clamp(*startedAt, started_, now);
    if (status <= CL_COMPLETE) {
      // The device's measure where there is one, never past the host's clock, so that the next
      // command's START is not before this one's END.
      ended_ = deviceNanoseconds ? std::min(now, started_ + static_cast<uint64_t>(*deviceNanoseconds)) : now;
    }
    status_ = status;
    released = takeReleasedCallbacks(status);
    if (status <= CL_COMPLETE) {
      listeners.swap(settledListeners_);
      waitList.swap(waitList_);
    }
  }
  changed_.notify_all();
  for (const std::function<void()>& listener : listeners) listener();
  for (const Callback& callback : released) callback.function(this, status, callback.userData);
}

void Event::whenSettled(std::function<void()> listener) {
  {
    std::lock_guard lock(mutex_);
    if (status_ > CL_COMPLETE) {
      settledListeners_.push_back(std::move(listener));
      return;
    }
  }
  listener();
}

cl_int Event::wait() {
  if (queue_ && ticket_ != 0) queue_->waitFor(ticket_);
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return status_ <= CL_COMPLETE; });
  return status_;
}

void Event::addCallback(cl_int triggerStatus, EventCallback callback, void* userData) {
  cl_int current;
  {
    std::lock_guard lock(mutex_);
    current = status_;
    if (!(current < 0 || current <= triggerStatus)) callbacks_.push_back(Callback{triggerStatus, callback, userData});
  }
  if (!(current < 0 || current <= triggerStatus)) {
    // Someone waits for the command now: it must start, batched launches included.
    if (queue_) queue_->flush();
    return;
  }
  // The status was reached already: the callback runs now, as the specification allows.
  callback(this, current < 0 ? current : triggerStatus, userData);
}

cl_int Event::getInfo(cl_event_info param, const InfoOut& out) {
  switch (param) {
    case CL_EVENT_COMMAND_QUEUE: return out.scalar<cl_command_queue>(queue_ ? queue_->handle() : nullptr);
    case CL_EVENT_CONTEXT: return out.scalar<cl_context>(context_->handle());
    case CL_EVENT_COMMAND_TYPE: return out.scalar<cl_command_type>(type_);
    case CL_EVENT_COMMAND_EXECUTION_STATUS: {
      cl_int current = reportedStatus();
      // A program polling for completion gets its batched launches started.
      if (current > CL_COMPLETE && queue_) queue_->flush();
      return out.scalar<cl_int>(current);
    }
    case CL_EVENT_REFERENCE_COUNT: return out.scalar<cl_uint>(referenceCount());
    default: return CL_INVALID_VALUE;
  }
}

cl_int Event::getProfilingInfo(cl_profiling_info param, const InfoOut& out) {
  std::lock_guard lock(mutex_);
  if (!profiled_ || status_ != CL_COMPLETE) return CL_PROFILING_INFO_NOT_AVAILABLE;
  switch (param) {
    case CL_PROFILING_COMMAND_QUEUED: return out.scalar<cl_ulong>(queued_);
    case CL_PROFILING_COMMAND_SUBMIT: return out.scalar<cl_ulong>(submitted_);
    case CL_PROFILING_COMMAND_START: return out.scalar<cl_ulong>(started_);
    case CL_PROFILING_COMMAND_END:
    case CL_PROFILING_COMMAND_COMPLETE: return out.scalar<cl_ulong>(ended_);
    default: return CL_INVALID_VALUE;
  }
}

}  // namespace cl2vk::runtime
