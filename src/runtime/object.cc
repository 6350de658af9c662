#include "runtime/object.h"

#include <cstdlib>
#include <deque>
#include <new>

namespace cl2vk::runtime {
namespace {

// How many destroyed objects' memory is kept (a few hundred bytes each): a handle used this many
// objects after its release is still refused; past that the use is undefined, as OpenCL says.
constexpr size_t kRetiredObjects = 4096;

struct Retired {
  std::mutex mutex;
  std::deque<std::pair<void*, size_t>> blocks;
};

Retired& retired() {
  static auto* retired = new Retired();  // outlives exit-time users
  return *retired;
}

}  // namespace

void* allocateObject(size_t size) { return ::operator new(size); }

void retireObject(void* memory, size_t size) {
  // Whatever the handle's offset in the object, its first word is a word of this block.
  const cl_icd_dispatch* table = dispatchTable();
  auto** words = static_cast<const cl_icd_dispatch**>(memory);
  for (size_t i = 0; i < size / sizeof(void*); ++i) words[i] = table;
  std::pair<void*, size_t> oldest{nullptr, 0};
  {
    std::lock_guard lock(retired().mutex);
    retired().blocks.emplace_back(memory, size);
    if (retired().blocks.size() <= kRetiredObjects) return;
    oldest = retired().blocks.front();
    retired().blocks.pop_front();
  }
  ::operator delete(oldest.first, oldest.second);
}

}  // namespace cl2vk::runtime
