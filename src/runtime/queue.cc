#include "runtime/queue.h"

#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>

#include "runtime/queue_exit.h"
#include "vulkan/dispatch.h"

namespace cl2vk::runtime {

namespace {

// How long a launch nobody asked for waits for the launches after it before it starts anyway.
constexpr std::chrono::microseconds kBatchDelay{200};
// The most launches one submission takes.
constexpr size_t kMaxBatch = 64;
// How long after a submission the worker starts watching its fence, when no other thread does.
constexpr std::chrono::microseconds kCompletionDelay{kBatchDelay};
// How often the worker looks at that fence again until it signals.
constexpr std::chrono::microseconds kLookInterval{500};
// How long after a submission the queue counts as busy: its worker wakes every kLookInterval
// meanwhile, so that the submissions made then need not wake it.
constexpr std::chrono::milliseconds kBusyPeriod{10};
// The most submissions of one queue in flight at once.
constexpr size_t kMaxInFlight = 4;

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
  executor_->outOfOrder = (properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0;
  executor_->queues.push_back(&vulkanDevice.nextQueue());
  while (executor_->outOfOrder && executor_->queues.size() < vulkanDevice.queueCount())
    executor_->queues.push_back(&vulkanDevice.nextQueue());
  executor_->timed = (properties & CL_QUEUE_PROFILING_ENABLE) != 0;
  // Under validation every command is checked after it.
  if (vulkanDevice.validationEnabled()) executor_->validated = &vulkanDevice;
  // Detached: the worker may be the thread that drops the queue's last reference (through a
  // command's event), so the queue cannot join it. It ends once closed and drained.
  std::thread([executor = executor_, activity = std::make_unique<WorkerActivity>()] {
    run(executor, *activity);
  }).detach();
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

// Whether every event of `waitList` is complete or failed, or a command of the queue `owner`:
// such a command was enqueued earlier and has been submitted or completed, and the device runs
// a queue's submissions in order.
bool dependenciesReady(const std::vector<std::shared_ptr<Event>>& waitList, const void* owner) {
  return std::all_of(waitList.begin(), waitList.end(), [&](const std::shared_ptr<Event>& event) {
    return event->queue().get() == owner || event->status() <= CL_COMPLETE;
  });
}

// Whether one of the events of `waitList` failed; with `blocking`, after waiting for those that
// are not the queue `owner`'s (whose commands, earlier than the one that waits, are in order).
bool dependencyFailed(const std::vector<std::shared_ptr<Event>>& waitList, const void* owner, bool blocking) {
  bool failed = false;
  for (const std::shared_ptr<Event>& dependency : waitList) {
    bool ours = dependency->queue().get() == owner;
    failed |= (blocking && !ours ? dependency->wait() : dependency->status()) < 0;
  }
  return failed;
}

// Whether `event` stands for a command of the queue `owner` that may still be running on the
// device: a launch waiting for it must start after it, on the same Vulkan queue.
bool runningCommandOf(const Event& event, const void* owner) {
  return event.queue().get() == owner && event.status() > CL_COMPLETE;
}

bool waitsForRunningCommand(const std::vector<std::shared_ptr<Event>>& waitList, const void* owner) {
  return std::any_of(waitList.begin(), waitList.end(),
                     [&](const std::shared_ptr<Event>& event) { return runningCommandOf(*event, owner); });
}

}  // namespace

CommandQueue::~CommandQueue() {
  {
    std::lock_guard lock(executor_->mutex);
    executor_->closed = true;
  }
  executor_->changed.notify_all();
}

void CommandQueue::wakeWhenReady(const std::vector<std::shared_ptr<Event>>& waitList) {
  std::weak_ptr<Executor> weak = executor_;
  for (const std::shared_ptr<Event>& dependency : waitList) {
    if (dependency->queue().get() == this) continue;  // earlier in this queue: in order already
    dependency->whenSettled([weak] {
      std::shared_ptr<Executor> executor = weak.lock();
      if (!executor) return;
      { std::lock_guard lock(executor->mutex); }  // not between a starter's look and its wait
      executor->changed.notify_all();
    });
  }
}

std::shared_ptr<Event> CommandQueue::enqueue(cl_command_type type, std::vector<std::shared_ptr<Event>> waitList,
                                             CommandWork work) {
  auto event = std::shared_ptr<Event>(new Event(context_, shared(), type));
  wakeWhenReady(waitList);
  event->setWaitList(waitList);
  {
    std::lock_guard lock(executor_->mutex);
    event->setTicket(++executor_->enqueued);
    // It starts as soon as the device has finished what is before it, and so do the launches
    // before it.
    executor_->flushed = executor_->enqueued;
    executor_->commands.push_back(Command{event, std::move(waitList), std::move(work), {}, {}});
  }
  executor_->changed.notify_all();
  return event;
}

std::shared_ptr<Event> CommandQueue::enqueueKernel(std::vector<std::shared_ptr<Event>> waitList, KernelWork work) {
  auto event = std::shared_ptr<Event>(new Event(context_, shared(), CL_COMMAND_NDRANGE_KERNEL));
  wakeWhenReady(waitList);
  event->setWaitList(waitList);
  std::unique_lock lock(executor_->mutex);
  event->setTicket(++executor_->enqueued);
  // The worker learns of a first pending command (to time its batch) and of a full batch.
  bool wake = executor_->commands.empty();
  if (executor_->commands.size() + 1 >= kMaxBatch) {
    executor_->flushed = executor_->enqueued;
    wake = true;
  }
  executor_->commands.push_back(
      Command{event, std::move(waitList), {}, std::move(work), std::chrono::steady_clock::now()});
  if (canStart(*executor_, Starter::kMover)) {
    startNext(*executor_, lock);
  } else if (wake) {
    lock.unlock();
    executor_->changed.notify_all();
  }
  return event;
}

void CommandQueue::flush() {
  std::unique_lock lock(executor_->mutex);
  executor_->flushed = executor_->enqueued;
  if (canStart(*executor_, Starter::kMover)) {
    startNext(*executor_, lock);
  } else {
    lock.unlock();
    executor_->changed.notify_all();
  }
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
  Executor& executor = *executor_;
  std::unique_lock lock(executor.mutex);
  executor.flushed = std::max(executor.flushed, ticket);
  ++executor.waiters;
  while (executor.finished < ticket) {
    // Only what it waits for: a later command may wait for another queue that waits for this one.
    if (canStart(executor, Starter::kWaiter) && executor.commands.front().event->ticket() <= ticket) {
      startNext(executor, lock);
    } else if (!executor.inFlight.empty() && !executor.inFlight.front()->claimed) {
      completeOldest(executor, lock, false, std::nullopt);
    } else {
      ++executor.sleepers;
      executor.changed.wait(lock);
      --executor.sleepers;
    }
  }
  // The worker completes what is left on the device when nobody waits.
  if (--executor.waiters == 0 && !executor.inFlight.empty()) announce(executor, lock);
}

bool CommandQueue::canStart(Executor& executor, Starter starter) {
  if (executor.starting || executor.commands.empty()) return false;
  const Command& front = executor.commands.front();
  // No thread blocks on a user event or another queue's command: it would stop watching this
  // queue's submissions, whose completion may be what sets that event (wakeWhenReady wakes the
  // queue when it is set).
  if (!dependenciesReady(front.waitList, executor.owner)) return false;
  if (!front.kernel) return starter != Starter::kMover && executor.inFlight.empty();
  if (executor.inFlight.size() >= kMaxInFlight) return false;
  if (!queueFor(executor, front)) return false;
  return executor.closed || front.event->ticket() <= executor.flushed || executor.inFlight.empty() ||
         std::chrono::steady_clock::now() >= front.enqueuedAt + kBatchDelay;
}

std::optional<std::chrono::steady_clock::time_point> CommandQueue::fenceLookAt(const Executor& executor) {
  // Not at once: a thread that waits for the submission usually comes first, and watches the
  // fence better (a second thread asleep on the same fence delays it on NVIDIA's driver). The
  // worker only looks at the fence, every kLookInterval, and never sleeps on it: asleep in the
  // driver it would hold the context (completeOldest) past the program's own release of it, and
  // could destroy the device while the process exits.
  if (executor.inFlight.empty() || executor.inFlight.front()->claimed || executor.waiters > 0) return std::nullopt;
  return std::max(executor.inFlight.front()->submittedAt + kCompletionDelay, executor.nextLook);
}

std::chrono::steady_clock::time_point CommandQueue::workerDueAt(Executor& executor,
                                                                std::chrono::steady_clock::time_point now) {
  if (canStart(executor, Starter::kWorker)) return now;
  if (executor.closed && executor.commands.empty() && executor.inFlight.empty()) return now;  // to end
  auto due = std::chrono::steady_clock::time_point::max();
  bool queuedLaunch = !executor.commands.empty() && executor.commands.front().kernel &&
                      dependenciesReady(executor.commands.front().waitList, executor.owner);
  // (Once due, a launch waits only for a thread that is starting commands or for a submission
  // to finish, and both announce it.)
  if (queuedLaunch && !executor.starting && executor.inFlight.size() < kMaxInFlight)
    due = executor.commands.front().enqueuedAt + kBatchDelay;
  if (std::optional<std::chrono::steady_clock::time_point> look = fenceLookAt(executor)) due = std::min(due, *look);
  return due;
}

void CommandQueue::announce(Executor& executor, std::unique_lock<std::mutex>& lock) {
  auto now = std::chrono::steady_clock::now();
  auto due = workerDueAt(executor, now);
  // The worker may be up to a look interval late for a fence or a batch's delay: a busy queue's
  // worker wakes that often anyway (run).
  bool workerLate = due != std::chrono::steady_clock::time_point::max() &&
                    (due <= now || due + kLookInterval < executor.workerWakesAt);
  if (executor.sleepers == 0 && !workerLate) return;
  lock.unlock();
  executor.changed.notify_all();
  lock.lock();
}

void CommandQueue::run(std::shared_ptr<Executor> executor, WorkerActivity& activity) {
  activity.setBusy(true);  // (stays here if the process exits before the thread ran)
  std::unique_lock lock(executor->mutex);
  for (;;) {
    if (canStart(*executor, Starter::kWorker)) {
      startNext(*executor, lock);
      continue;
    }
    auto now = std::chrono::steady_clock::now();
    if (executor->closed && executor->commands.empty() && executor->inFlight.empty()) return;
    if (std::optional<std::chrono::steady_clock::time_point> look = fenceLookAt(*executor); look && now >= *look) {
      executor->nextLook = now + kLookInterval;
      completeOldest(*executor, lock, true, now);
      continue;
    }
    auto wakeAt = workerDueAt(*executor, now);
    // While the queue is busy the worker looks again every kLookInterval even with nothing due, so
    // that a submission made meanwhile need not wake it (announce).
    if (wakeAt == std::chrono::steady_clock::time_point::max() && now < executor->busyUntil)
      wakeAt = now + kLookInterval;
    // Busy while it will act without being asked: not while its next command waits for a user
    // event, which a program may leave unset as it exits.
    bool startable =
        !executor->commands.empty() && dependenciesReady(executor->commands.front().waitList, executor->owner);
    bool busy = startable || !executor->inFlight.empty() || executor->starting;
    if (!busy) activity.setBusy(false);
    executor->workerWakesAt = wakeAt;
    if (wakeAt != std::chrono::steady_clock::time_point::max()) {
      executor->changed.wait_until(lock, wakeAt);
    } else {
      executor->changed.wait(lock);
    }
    executor->workerWakesAt = std::chrono::steady_clock::time_point::min();
    if (!busy) {
      lock.unlock();
      activity.setBusy(true);
      lock.lock();
    }
  }
}

void CommandQueue::startNext(Executor& executor, std::unique_lock<std::mutex>& lock) {
  std::vector<Command> batch;
  batch.push_back(std::move(executor.commands.front()));
  executor.commands.pop_front();
  vulkan::Queue* queue = nullptr;
  if (batch.front().kernel) {
    queue = queueFor(executor, batch.front()).value_or(nullptr);
    // The launches after it join its submission: those asked for with it, or all of them when it
    // was not asked for; never one that must wait for another queue's command or a user event,
    // or for running launches of this queue on another Vulkan queue.
    uint64_t last = batch.front().event->ticket() <= executor.flushed ? executor.flushed : UINT64_MAX;
    while (!executor.commands.empty() && batch.size() < kMaxBatch) {
      const Command& next = executor.commands.front();
      if (!next.kernel || next.event->ticket() > last || !dependenciesReady(next.waitList, executor.owner)) break;
      std::optional<vulkan::Queue*> nextQueue = queueFor(executor, next);
      if (!nextQueue || (*nextQueue && queue && *nextQueue != queue)) break;
      if (*nextQueue) queue = *nextQueue;
      batch.push_back(std::move(executor.commands.front()));
      executor.commands.pop_front();
    }
    if (!queue) queue = leastBusyQueue(executor);
  }
  executor.starting = true;
  lock.unlock();

  std::shared_ptr<InFlight> submitted;
  size_t ran = 0;
  if (batch.front().kernel) {
    submitted = submitLaunches(executor, std::move(batch), *queue);
  } else {
    runOne(executor, batch.front());
    ran = 1;
  }
  // Dropped outside the lock: a command may hold the last reference to its queue.
  batch.clear();

  lock.lock();
  executor.starting = false;
  executor.finished += ran;
  if (submitted) {
    executor.busyUntil = submitted->submittedAt + kBusyPeriod;
    executor.inFlight.push_back(std::move(submitted));
  }
  announce(executor, lock);
}

void CommandQueue::completeOldest(Executor& executor, std::unique_lock<std::mutex>& lock, bool sleep,
                                  std::optional<std::chrono::steady_clock::time_point> deadline) {
  std::shared_ptr<InFlight> oldest = executor.inFlight.front();
  // Copies, so that this thread's wait outlives another thread's completing the batch: the
  // submission, and the context that owns its device.
  std::optional<vulkan::SubmittedDispatches> submission = oldest->submission;
  std::shared_ptr<Context> context = oldest->commands.front().event->queue()->sharedContext();
  lock.unlock();
  Status waited = okStatus();
  bool finished = true;
  if (submission) {
    Expected<bool> done = submission->wait(deadline, sleep);
    if (done) {
      finished = *done;  // false: the deadline came first
    } else {
      waited = done.error();
    }
  }
  bool mine = false;
  if (finished) {
    lock.lock();
    // Another thread may have seen the fence first.
    mine = !oldest->claimed && !executor.inFlight.empty() && executor.inFlight.front() == oldest;
    oldest->claimed = true;
    lock.unlock();
  }
  size_t count = 0;
  if (mine) {
    complete(executor, *oldest, waited);
    count = oldest->commands.size();
    // The device's objects go before the commands: a command may hold the last reference to its
    // queue, and through its event to the context that owns the device.
    oldest->launches.clear();
    oldest->submission.reset();
    oldest->commands.clear();
  }
  // Dropped outside the lock, for the same reason.
  submission.reset();
  oldest.reset();
  context.reset();
  lock.lock();
  if (mine) {
    executor.inFlight.pop_front();
    executor.finished += count;
    announce(executor, lock);
  }
}

void CommandQueue::runOne(Executor& executor, Command& command) {
  Event& event = *command.event;
  if (dependencyFailed(command.waitList, executor.owner, true)) {
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

std::optional<vulkan::Queue*> CommandQueue::queueFor(const Executor& executor, const Command& launch) {
  if (executor.queues.size() == 1) return executor.queues.front();
  vulkan::Queue* queue = nullptr;
  for (const std::shared_ptr<Event>& dependency : launch.waitList) {
    if (!runningCommandOf(*dependency, executor.owner)) continue;
    // Not in flight: it is a launch of the same batch, ordered by the barrier before this one.
    for (const std::shared_ptr<InFlight>& in : executor.inFlight) {
      bool holds = std::any_of(in->commands.begin(), in->commands.end(),
                               [&](const Command& command) { return command.event == dependency; });
      if (!holds) continue;
      if (queue && queue != in->queue) return std::nullopt;
      queue = in->queue;
    }
  }
  return queue;
}

vulkan::Queue* CommandQueue::leastBusyQueue(const Executor& executor) {
  vulkan::Queue* least = nullptr;
  size_t fewest = SIZE_MAX;
  for (vulkan::Queue* queue : executor.queues) {
    size_t count = std::count_if(executor.inFlight.begin(), executor.inFlight.end(),
                                 [&](const std::shared_ptr<InFlight>& in) { return in->queue == queue; });
    if (count < fewest) least = queue, fewest = count;
  }
  return least;
}

std::shared_ptr<CommandQueue::InFlight> CommandQueue::submitLaunches(Executor& executor, std::vector<Command> batch,
                                                                     vulkan::Queue& queue) {
  auto submitted = std::make_shared<InFlight>();
  InFlight& in = *submitted;
  in.queue = &queue;
  // Prepared in order; a launch whose preparation fails fails alone, and so do the launches of the
  // batch that wait for its event (which completes with the batch).
  std::vector<const Event*> failed;
  for (size_t i = 0; i < batch.size(); ++i) {
    Command& command = batch[i];
    Event& event = *command.event;
    bool waitsForFailed =
        std::any_of(command.waitList.begin(), command.waitList.end(), [&](const std::shared_ptr<Event>& dependency) {
          return std::find(failed.begin(), failed.end(), dependency.get()) != failed.end();
        });
    if (waitsForFailed || dependencyFailed(command.waitList, executor.owner, i == 0)) {
      in.settled.push_back(CommandOutcome{CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, std::nullopt, ""});
      failed.push_back(&event);
      continue;
    }
    event.setStatus(CL_SUBMITTED);
    event.setStatus(CL_RUNNING);
    PreparedKernel prepared = command.kernel();
    if (prepared.failure.status != CL_SUCCESS) {
      in.settled.push_back(std::move(prepared.failure));
      failed.push_back(&event);
    } else if (!prepared.launch) {
      in.settled.push_back(CommandOutcome{});
    } else {
      in.settled.push_back(std::nullopt);
      in.launches.push_back(std::move(*prepared.launch));
    }
  }
  in.commands = std::move(batch);
  if (in.launches.empty()) return submitted;

  std::vector<vulkan::Dispatch> dispatches;
  size_t k = 0;  // the recorded launch
  for (size_t i = 0; i < in.commands.size(); ++i) {
    if (in.settled[i]) continue;
    const launch::PreparedLaunch& prepared = in.launches[k++];
    bool afterEarlier = !executor.outOfOrder || waitsForRunningCommand(in.commands[i].waitList, executor.owner);
    in.firstDispatch.push_back(dispatches.size());
    in.afterEarlier.push_back(afterEarlier);
    for (const vulkan::Dispatch& dispatch : prepared.dispatches()) dispatches.push_back(dispatch);
    if (dispatches.size() > in.firstDispatch.back())
      dispatches[in.firstDispatch.back()].afterEarlierWrites = afterEarlier;
  }
  in.firstDispatch.push_back(dispatches.size());
  in.submittedAt = std::chrono::steady_clock::now();
  Expected<vulkan::SubmittedDispatches> submission =
      vulkan::submitDispatches(*executor.device, queue, dispatches, executor.timed);
  if (submission) {
    in.submission = std::move(*submission);
  } else {
    in.failure = submission.error().message();
  }
  in.invalid = validationFailure(executor.validated);
  return submitted;
}

void CommandQueue::complete(Executor& executor, InFlight& batch, const Status& waited) {
  std::string failure = batch.failure;
  if (failure.empty() && !waited) failure = waited.error().message();
  Expected<std::vector<vulkan::GpuTime>> times = std::vector<vulkan::GpuTime>{};
  if (failure.empty() && batch.submission) times = batch.submission->times();
  if (failure.empty() && !times) failure = times.error().message();
  std::optional<std::string> invalid = batch.invalid;
  if (std::optional<std::string> later = validationFailure(executor.validated)) invalid = later;

  size_t k = 0;  // the recorded launch
  for (size_t i = 0; i < batch.commands.size(); ++i) {
    Command& command = batch.commands[i];
    Event& event = *command.event;
    if (batch.settled[i]) {
      if (batch.settled[i]->status == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST) {
        event.setStatus(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
      } else {
        conclude(event, std::move(*batch.settled[i]));
      }
      continue;
    }
    launch::PreparedLaunch& launch = batch.launches[k];
    size_t first = batch.firstDispatch[k], end = batch.firstDispatch[k + 1];
    ++k;
    std::string what = "kernel '" + launch.kernelName() + "'";
    if (invalid || !failure.empty()) {
      conclude(event, CommandOutcome{CL_OUT_OF_RESOURCES, std::nullopt, invalid ? *invalid : what + ": " + failure});
      continue;
    }
    // A command of this queue it waits for failed after this one was submitted.
    if (dependencyFailed(command.waitList, executor.owner, false)) {
      event.setStatus(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
      continue;
    }
    Status finished = launch.finish();
    if (!finished) {
      conclude(event, CommandOutcome{CL_OUT_OF_RESOURCES, std::nullopt, what + ": " + finished.error().message()});
      continue;
    }
    CommandOutcome outcome;
    std::optional<uint64_t> startedAt;
    if (executor.timed && end > first && (*times)[first].nanoseconds) {
      double total = 0;
      for (size_t d = first; d < end; ++d) total += (*times)[d].nanoseconds.value_or(0);
      outcome.deviceNanoseconds = total;
      // The device started it after its submission, and after the queue's previous launch ended
      // (a submission made while the device was busy waits for it) unless it runs beside that.
      uint64_t submittedAt =
          std::chrono::duration_cast<std::chrono::nanoseconds>(batch.submittedAt.time_since_epoch()).count();
      startedAt = submittedAt + static_cast<uint64_t>((*times)[first].startNanoseconds.value_or(0));
      if (batch.afterEarlier[k - 1]) startedAt = std::max(*startedAt, executor.lastEnded);
      executor.lastEnded = std::max(executor.lastEnded, *startedAt + static_cast<uint64_t>(total));
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
