// Byte-order helpers for SPIR-V words, which a module may carry in either order.
#pragma once

#include <cstdint>

namespace cl2vk {

constexpr uint32_t byteSwap(uint32_t w) {
  return (w >> 24) | ((w >> 8) & 0xff00u) | ((w << 8) & 0xff0000u) | (w << 24);
}

}  // namespace cl2vk
