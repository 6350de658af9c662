#include "runtime/queue.h"

#include <algorithm>
#include <cstdio>
#include <thread>

#include "vulkan/dispatch.h"

namespace cl2vk::runtime {

namespace {

// How long a launch nobody asked for waits for the launches after it before it starts anyway.
constexpr std::chrono::microseconds kBatchDelay{200};
// The most launches one submission takes.
constexpr size_t kMaxBatch = 64;

}  // namespace

CommandQueue::CommandQueue(std::shared_ptr<Context> context, Device& device, cl_command_queue_properties properties,
                           std::vector<cl_queue_properties> propertyList)
    : context_(std::move(context)),
      device_(device),
      properties_(properties),
      propertyList_(std::move(propertyList)),
      executor_(std::make_shared<Executor>()) {
  vulkan::Device& vulkanDevice = context_->vulkanDevice(device_);
  executor_->owner = this;
  executor_->device = &vulkanDevice;
  // Under validation every command is checked after it.
  if (vulkanDevice.validationEnabled()) executor_->validated = &vulkanDevice;
  // Detached: the worker may be the thread that drops the queue's last reference (through a
  // command's event), so the queue cannot join it. It ends once closed and drained.
  std::thread(run, executor_).detach();
}

namespace {

// Under CL2VK_VALIDATION=1, a command the validation layer complains about fails, with the
// layer's messages for the context (and on stderr): a validation error is a bug, never noise.
// `checked` is the queue's Vulkan device when validation is on, else null.
std::optional<std::string> validationFailure(vulkan::Device* checked) {
  if (checked == nullptr) return std::nullopt;
  std::vector<std::string> messages = checked->validationMessages();
  if (messages.empty()) return std::nullopt;
  checked->clearValidationMessages();
  std::string text = "the Vulkan validation layer reported:";
  for (const std::string& message : messages) text += "\n  " + message;
  std::fprintf(stderr, "cl2vk: %s\n", text.c_str());
  return text;
}

// Completes `event` with `outcome`, reporting a failure to its context.
void conclude(Event& event, CommandOutcome outcome, std::optional<uint64_t> startedAt = std::nullopt) {
  if (outcome.status != CL_SUCCESS && event.context().lost()) {
    outcome.message +=
        "; the context's Vulkan device is lost: its commands fail from now on (release the context "
        "and create a new one)";
  }
  if (outcome.status != CL_SUCCESS && !outcome.message.empty()) event.context().report(outcome.message);
  event.complete(outcome.status == CL_SUCCESS ? CL_COMPLETE : outcome.status, outcome.deviceNanoseconds, startedAt);
}

}  // namespace

CommandQueue::~CommandQueue() {
  {
    std::lock_guard lock(executor_->mutex);
    executor_->closed = true;
  }
  executor_->changed.notify_all();
}

std::shared_ptr<Event> CommandQueue::enqueue(cl_command_type type, std::vector<std::shared_ptr<Event>> waitList,
                                             CommandWork work) {
  auto event = std::shared_ptr<Event>(new Event(context_, shared(), type));
  {
    std::lock_guard lock(executor_->mutex);
    event->setTicket(++executor_->enqueued);
    // It starts at once, and so do the launches before it.
    executor_->flushed = executor_->enqueued;
    executor_->commands.push_back(Command{event, std::move(waitList), std::move(work), {}, {}});
  }
  executor_->changed.notify_all();
  return event;
}

std::shared_ptr<Event> CommandQueue::enqueueKernel(std::vector<std::shared_ptr<Event>> waitList, KernelWork work) {
  auto event = std::shared_ptr<Event>(new Event(context_, shared(), CL_COMMAND_NDRANGE_KERNEL));
  bool wake;
  {
    std::lock_guard lock(executor_->mutex);
    event->setTicket(++executor_->enqueued);
    // The worker learns of a first pending command (to time its batch) and of a full batch.
    wake = executor_->commands.empty();
    if (executor_->enqueued - executor_->finished >= kMaxBatch) {
      executor_->flushed = executor_->enqueued;
      wake = true;
    }
    executor_->commands.push_back(
        Command{event, std::move(waitList), {}, std::move(work), std::chrono::steady_clock::now()});
  }
  if (wake) executor_->changed.notify_all();
  return event;
}

void CommandQueue::flush() {
  {
    std::lock_guard lock(executor_->mutex);
    if (executor_->flushed == executor_->enqueued) return;
    executor_->flushed = executor_->enqueued;
  }
  executor_->changed.notify_all();
}

void CommandQueue::finish() {
  uint64_t last;
  {
    std::lock_guard lock(executor_->mutex);
    last = executor_->enqueued;
  }
  waitFor(last);
}

void CommandQueue::waitFor(uint64_t ticket) {
  std::unique_lock lock(executor_->mutex);
  executor_->flushed = std::max(executor_->flushed, ticket);
  while (executor_->finished < ticket) {
    if (!executor_->running && !executor_->commands.empty()) {
      runNext(*executor_, lock);
    } else {
      executor_->changed.wait(lock);
    }
  }
}

void CommandQueue::run(std::shared_ptr<Executor> executor) {
  std::unique_lock lock(executor->mutex);
  for (;;) {
    if (executor->commands.empty()) {
      if (executor->closed) return;
      executor->changed.wait(lock);
      continue;
    }
    if (executor->running) {
      executor->changed.wait(lock);
      continue;
    }
    const Command& front = executor->commands.front();
    auto due = front.enqueuedAt + kBatchDelay;
    if (executor->closed || !front.kernel || front.event->ticket() <= executor->flushed ||
        std::chrono::steady_clock::now() >= due) {
      runNext(*executor, lock);
    } else {
      executor->changed.wait_until(lock, due);
    }
  }
}

void CommandQueue::runNext(Executor& executor, std::unique_lock<std::mutex>& lock) {
  std::vector<Command> batch;
  batch.push_back(std::move(executor.commands.front()));
  executor.commands.pop_front();
  if (batch.front().kernel) {
    // The launches after it join its submission: those asked for with it, or all of them when the
    // batch delay ran out; never one that must wait for another queue's command or a user event.
    uint64_t last = batch.front().event->ticket() <= executor.flushed ? executor.flushed : UINT64_MAX;
    while (!executor.commands.empty() && batch.size() < kMaxBatch) {
      const Command& next = executor.commands.front();
      if (!next.kernel || next.event->ticket() > last) break;
      bool ready = std::all_of(next.waitList.begin(), next.waitList.end(), [&](const std::shared_ptr<Event>& event) {
        return event->queue().get() == executor.owner || event->status() <= CL_COMPLETE;
      });
      if (!ready) break;
      batch.push_back(std::move(executor.commands.front()));
      executor.commands.pop_front();
    }
  }
  executor.running = true;
  lock.unlock();

  if (batch.front().kernel) {
    runLaunches(executor, batch);
  } else {
    runOne(executor, batch.front());
  }
  size_t count = batch.size();
  // Dropped outside the lock: a command may hold the last reference to its queue.
  batch.clear();

  lock.lock();
  executor.running = false;
  executor.finished += count;
  executor.changed.notify_all();
}

namespace {

// Waits for the events `command` waits for (or, with `blocking` false, only looks at them: they
// are complete or earlier commands of this queue's batch); false when one of them failed.
bool dependenciesSucceeded(const std::vector<std::shared_ptr<Event>>& waitList, bool blocking) {
  bool failed = false;
  for (const std::shared_ptr<Event>& dependency : waitList)
    failed |= (blocking ? dependency->wait() : dependency->status()) < 0;
  return !failed;
}

}  // namespace

void CommandQueue::runOne(Executor& executor, Command& command) {
  Event& event = *command.event;
  if (!dependenciesSucceeded(command.waitList, true)) {
    event.setStatus(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    return;
  }
  event.setStatus(CL_SUBMITTED);
  event.setStatus(CL_RUNNING);
  CommandOutcome outcome = command.work();
  if (std::optional<std::string> failure = validationFailure(executor.validated))
    outcome = CommandOutcome{CL_OUT_OF_RESOURCES, std::nullopt, *failure};
  conclude(event, std::move(outcome));
}

void CommandQueue::runLaunches(Executor& executor, std::vector<Command>& batch) {
  // Prepared in order; a launch whose preparation fails fails alone, and so do the launches of the
  // batch that wait for its event.
  std::vector<Command*> recorded;
  std::vector<launch::PreparedLaunch> launches;
  for (size_t i = 0; i < batch.size(); ++i) {
    Command& command = batch[i];
    Event& event = *command.event;
    if (!dependenciesSucceeded(command.waitList, i == 0)) {
      event.setStatus(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
      continue;
    }
    event.setStatus(CL_SUBMITTED);
    event.setStatus(CL_RUNNING);
    PreparedKernel prepared = command.kernel();
    if (prepared.failure.status != CL_SUCCESS) {
      conclude(event, std::move(prepared.failure));
    } else if (!prepared.launch) {
      conclude(event, CommandOutcome{});
    } else {
      recorded.push_back(&command);
      launches.push_back(std::move(*prepared.launch));
    }
  }
  if (recorded.empty()) return;

  std::vector<vulkan::Dispatch> dispatches;
  std::vector<size_t> firstDispatch;
  for (const launch::PreparedLaunch& prepared : launches) {
    firstDispatch.push_back(dispatches.size());
    for (const vulkan::Dispatch& dispatch : prepared.dispatches()) dispatches.push_back(dispatch);
  }
  firstDispatch.push_back(dispatches.size());
  uint64_t submittedAt = hostNanoseconds();
  Expected<std::vector<vulkan::GpuTime>> times = vulkan::dispatchAll(*executor.device, dispatches);
  std::optional<std::string> invalid = validationFailure(executor.validated);
  for (size_t k = 0; k < recorded.size(); ++k) {
    Event& event = *recorded[k]->event;
    std::string what = "kernel '" + launches[k].kernelName() + "'";
    if (!times) {
      conclude(event, CommandOutcome{CL_OUT_OF_RESOURCES, std::nullopt, what + ": " + times.error().message()});
      continue;
    }
    if (invalid) {
      conclude(event, CommandOutcome{CL_OUT_OF_RESOURCES, std::nullopt, *invalid});
      continue;
    }
    Status finished = launches[k].finish();
    if (!finished) {
      conclude(event, CommandOutcome{CL_OUT_OF_RESOURCES, std::nullopt, what + ": " + finished.error().message()});
      continue;
    }
    CommandOutcome outcome;
    double total = 0;
    bool timed = true;
    for (size_t d = firstDispatch[k]; d < firstDispatch[k + 1]; ++d) {
      timed &= (*times)[d].nanoseconds.has_value();
      total += (*times)[d].nanoseconds.value_or(0);
    }
    std::optional<uint64_t> startedAt;
    if (timed) {
      outcome.deviceNanoseconds = total;
      startedAt = submittedAt + static_cast<uint64_t>((*times)[firstDispatch[k]].startNanoseconds.value_or(0));
    }
    conclude(event, std::move(outcome), startedAt);
  }
}

cl_int CommandQueue::getInfo(cl_command_queue_info param, const InfoOut& out) {
  switch (param) {
    case CL_QUEUE_CONTEXT: return out.scalar<cl_context>(context_->handle());
    case CL_QUEUE_DEVICE: return out.scalar<cl_device_id>(&device_);
    case CL_QUEUE_REFERENCE_COUNT: return out.scalar<cl_uint>(referenceCount());
    case CL_QUEUE_PROPERTIES: return out.scalar<cl_command_queue_properties>(properties_);
    case CL_QUEUE_PROPERTIES_ARRAY: return out.array(propertyList_);
    case CL_QUEUE_SIZE: return CL_INVALID_COMMAND_QUEUE;  // only device queues have a size
    case CL_QUEUE_DEVICE_DEFAULT: return out.scalar<cl_command_queue>(nullptr);
    default: return CL_INVALID_VALUE;
  }
}

}  // namespace cl2vk::runtime
