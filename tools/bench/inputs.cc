#include <bit>

#include "runner.h"

namespace cl2vk::bench {
namespace {

// SplitMix64: fast, and good enough that no structure in the inputs flatters a kernel.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

 private:
  uint64_t state_;
};

}  // namespace

std::vector<uint32_t> generateInput(InputSet set, size_t index, uint64_t words) {
  SplitMix64 random(0x5eed0000ULL + 2 * index + (set == InputSet::kFloats ? 1 : 0));
  std::vector<uint32_t> values(words);
  for (uint32_t& value : values) {
    uint64_t bits = random.next();
    if (set == InputSet::kInts) {
      value = static_cast<uint32_t>(static_cast<int32_t>(bits % 2001) - 1000);
    } else {
      // 24 random bits -> [0, 1), then [-1, 1).
      float unit = static_cast<float>(bits >> 40) * 0x1p-24f;
      value = std::bit_cast<uint32_t>(2.0f * unit - 1.0f);
    }
  }
  return values;
}

}  // namespace cl2vk::bench
