#include "vulkan/host_copy.h"

#include <unistd.h>
#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace cl2vk::vulkan {
namespace {

// Below this a copy stays on the calling thread: handing work to another thread costs
// microseconds, which a copy of less than a megabyte does not repay.
constexpr size_t kSmallestSplit = size_t{1} << 20;
// The most threads one copy uses: more do not go faster on the machines measured, and leave fewer
// cores to the application.
constexpr unsigned kMostThreads = 4;

// Threads that run the shares of copies; created at the first large copy and never destroyed (a
// copy may be under way while the process exits).
class CopyPool {
 public:
  static CopyPool& instance() {
    static CopyPool* pool = new CopyPool();
    return *pool;
  }
  // How many threads a copy may use: 1 in a child process that forked after the pool was made,
  // which has none of its threads.
  unsigned threads() const { return getpid() == owner_ ? threads_ : 1; }

  // Runs share(0) ... share(count - 1) on the pool's threads and this one; returns when all are
  // done.
  void run(size_t count, const std::function<void(size_t)>& share) {
    std::mutex doneMutex;
    std::condition_variable doneChanged;
    size_t left = count - 1;
    {
      std::lock_guard lock(mutex_);
      for (size_t i = 1; i < count; ++i) {
        tasks_.push_back([&, i] {
          share(i);
          std::lock_guard doneLock(doneMutex);
          if (--left == 0) doneChanged.notify_one();
        });
      }
    }
    changed_.notify_all();
    share(0);
    std::unique_lock doneLock(doneMutex);
    doneChanged.wait(doneLock, [&] { return left == 0; });
  }

 private:
  CopyPool() {
    unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    threads_ = std::clamp(cores / 2, 1u, kMostThreads);
    for (unsigned i = 1; i < threads_; ++i) std::thread([this] { serve(); }).detach();
  }
  void serve() {
    for (;;) {
      std::function<void()> task;
      {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] { return !tasks_.empty(); });
        task = std::move(tasks_.front());
        tasks_.pop_front();
      }
      task();
    }
  }

  pid_t owner_ = getpid();
  unsigned threads_ = 1;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::function<void()>> tasks_;
};

}  // namespace

void copyHostMemory(void* to, const void* from, size_t size) {
  if (size < 2 * kSmallestSplit) {
    std::memcpy(to, from, size);
    return;
  }
  CopyPool& pool = CopyPool::instance();
  size_t count = std::min<size_t>(pool.threads(), size / kSmallestSplit);
  if (count <= 1) {
    std::memcpy(to, from, size);
    return;
  }
  // Shares of whole cache lines, the last taking the rest.
  size_t share = size / count / 64 * 64;
  pool.run(count, [&](size_t i) {
    size_t begin = i * share, length = i + 1 == count ? size - begin : share;
    std::memcpy(static_cast<char*>(to) + begin, static_cast<const char*>(from) + begin, length);
  });
}

}  // namespace cl2vk::vulkan
