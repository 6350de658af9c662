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
  SplitMix64 random(0x5eed0000ULL + 3 * index + static_cast<uint64_t>(set));
  std::vector<uint32_t> values(words);
  if (set == InputSet::kDoubles) {
    // 53 random bits -> [0, 1), then [-1, 1), as pairs of words.
    for (size_t i = 0; i + 1 < values.size(); i += 2) {
      double unit = static_cast<double>(random.next() >> 11) * 0x1p-53;
      uint64_t bits = std::bit_cast<uint64_t>(2.0 * unit - 1.0);
      values[i] = static_cast<uint32_t>(bits);
      values[i + 1] = static_cast<uint32_t>(bits >> 32);
    }
    return values;
  }
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
