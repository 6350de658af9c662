#include "runtime/queue_exit.h"

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <thread>

namespace cl2vk::runtime {
namespace {

// How long the process's exit waits for queue workers still busy (tagging along its own work).
constexpr std::chrono::seconds kExitGrace{10};

// The queue workers that have something to do: commands to start, submissions to complete, or
// references to drop. A worker may drop the last reference to a context, which destroys its
// Vulkan device; doing that while the process exits, after the Vulkan drivers' and layers'
// destructors have run, crashed the process (the validation layer, in `vkDestroyBuffer`, after
// the program had finished and released everything). So exit waits for the busy ones first: the
// hook is registered when the first queue is made, after the Vulkan instance loaded the drivers
// and layers, and exit handlers run in the reverse order of their registration. Once the hook
// has waited, the process is exiting: a worker that would become busy after that (woken by a
// timeout, or started late) never does anything again (ThreadSanitizer once caught a worker
// that woke after the hook destroying a device under the loader's destroyed lock).
class BusyWorkers {
 public:
  static BusyWorkers& get() {
    static BusyWorkers* workers = new BusyWorkers;  // never destroyed: used while the process exits
    return *workers;
  }
  // Marks `mine` busy or idle. False, and nothing changed, when it would become busy while the
  // process exits.
  bool setBusy(bool& mine, bool busy) {
    std::call_once(hooked_, [] { std::atexit([] { get().waitUntilIdle(); }); });
    std::lock_guard lock(mutex_);
    if (busy && exiting_) return false;
    if (mine == busy) return true;
    mine = busy;
    busy_ += busy ? 1 : -1;
    if (busy_ == 0) idle_.notify_all();
    return true;
  }

 private:
  void waitUntilIdle() {
    std::unique_lock lock(mutex_);
    idle_.wait_for(lock, kExitGrace, [this] { return busy_ == 0; });
    exiting_ = true;
  }

  std::once_flag hooked_;
  std::mutex mutex_;
  std::condition_variable idle_;
  long busy_ = 0;
  bool exiting_ = false;
};

}  // namespace

CommandQueue::WorkerActivity::WorkerActivity() { BusyWorkers::get().setBusy(busy_, true); }

CommandQueue::WorkerActivity::~WorkerActivity() { BusyWorkers::get().setBusy(busy_, false); }

void CommandQueue::WorkerActivity::setBusy(bool busy) {
  if (BusyWorkers::get().setBusy(busy_, busy)) return;
  for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
}

}  // namespace cl2vk::runtime
