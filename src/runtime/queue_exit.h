// Queue workers and the process's exit: whether a worker has something to do, so that the exit
// waits for the busy ones before the Vulkan drivers' and layers' own destructors run
// (docs/runtime.md, "Exit"; queue_exit.cc says why).
#pragma once

#include "runtime/queue.h"

namespace cl2vk::runtime {

// Marks its worker busy from the queue's creation (before the thread runs, so that an exit right
// after the program's last call waits for it) until it waits with nothing pending, and idle at
// its end.
class CommandQueue::WorkerActivity {
 public:
  WorkerActivity();
  WorkerActivity(const WorkerActivity&) = delete;
  WorkerActivity& operator=(const WorkerActivity&) = delete;
  ~WorkerActivity();
  // Called without the executor's lock: a worker that would become busy while the process exits
  // stays here, holding what it holds, until the process ends.
  void setBusy(bool busy);

 private:
  bool busy_ = false;
};

}  // namespace cl2vk::runtime
