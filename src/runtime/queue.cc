#include "runtime/queue.h"

#include <cstdio>
#include <thread>

namespace cl2vk::runtime {

CommandQueue::CommandQueue(std::shared_ptr<Context> context, Device& device, cl_command_queue_properties properties,
                           std::vector<cl_queue_properties> propertyList)
    : context_(std::move(context)),
      device_(device),
      properties_(properties),
      propertyList_(std::move(propertyList)),
      executor_(std::make_shared<Executor>()) {
  // Under validation every command is checked after it.
  vulkan::Device& vulkanDevice = context_->vulkanDevice(device_);
  if (vulkanDevice.validationEnabled()) validated_ = &vulkanDevice;
  // Detached: the worker may be the thread that drops the queue's last reference (through a
  // command's event), so the queue cannot join it. It ends once closed and drained.
  std::thread(run, executor_).detach();
}

namespace {

// Under CL2VK_VALIDATION=1, a command the validation layer complains about fails, with the
// layer's messages for the context (and on stderr): a validation error is a bug, never noise.
// `checked` is the queue's Vulkan device when validation is on, else null.
CommandWork withValidation(vulkan::Device* checked, CommandWork work) {
  if (checked == nullptr) return work;
  return [checked, work = std::move(work)] {
    CommandOutcome outcome = work();
    std::vector<std::string> messages = checked->validationMessages();
    if (messages.empty()) return outcome;
    checked->clearValidationMessages();
    std::string text = "the Vulkan validation layer reported:";
    for (const std::string& message : messages) text += "\n  " + message;
    std::fprintf(stderr, "cl2vk: %s\n", text.c_str());
    return CommandOutcome{CL_OUT_OF_RESOURCES, std::nullopt, text};
  };
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
  work = withValidation(validated_, std::move(work));
  {
    std::lock_guard lock(executor_->mutex);
    event->setTicket(++executor_->enqueued);
    executor_->commands.push_back(Command{event, std::move(waitList), std::move(work)});
  }
  executor_->changed.notify_all();
  return event;
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
    executor->changed.wait(lock, [&] {
      return (!executor->running && !executor->commands.empty()) || (executor->closed && executor->commands.empty());
    });
    if (executor->commands.empty()) return;
    runNext(*executor, lock);
  }
}

void CommandQueue::runNext(Executor& executor, std::unique_lock<std::mutex>& lock) {
  std::optional<Command> command = std::move(executor.commands.front());
  executor.commands.pop_front();
  executor.running = true;
  lock.unlock();

  Event& event = *command->event;
  bool dependencyFailed = false;
  for (const std::shared_ptr<Event>& dependency : command->waitList) dependencyFailed |= dependency->wait() < 0;
  if (dependencyFailed) {
    event.setStatus(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  } else {
    event.setStatus(CL_SUBMITTED);
    event.setStatus(CL_RUNNING);
    CommandOutcome outcome = command->work();
    if (outcome.status != CL_SUCCESS && event.context().lost()) {
      outcome.message +=
          "; the context's Vulkan device is lost: its commands fail from now on (release the context "
          "and create a new one)";
    }
    if (outcome.status != CL_SUCCESS && !outcome.message.empty()) event.context().report(outcome.message);
    event.complete(outcome.status == CL_SUCCESS ? CL_COMPLETE : outcome.status, outcome.deviceNanoseconds);
  }
  // Dropped outside the lock: the command may hold the last reference to its queue.
  command.reset();

  lock.lock();
  executor.running = false;
  ++executor.finished;
  executor.changed.notify_all();
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
