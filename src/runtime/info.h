// Answering clGet*Info: every query writes a value of known size into the caller's buffer with the
// same rules (CL_INVALID_VALUE when the buffer is too small, the size through param_value_size_ret).
#pragma once

#include <CL/cl.h>

#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace cl2vk::runtime {

// Where a clGet*Info call wants its answer.
struct InfoOut {
  size_t size = 0;
  void* value = nullptr;
  size_t* sizeReturned = nullptr;

  cl_int bytes(const void* data, size_t length) const {
    if (value != nullptr) {
      if (size < length) return CL_INVALID_VALUE;
      if (length > 0) std::memcpy(value, data, length);
    }
    if (sizeReturned != nullptr) *sizeReturned = length;
    return CL_SUCCESS;
  }

  template <typename T>
  cl_int scalar(const T& v) const {
    static_assert(std::is_trivially_copyable_v<T>);
    return bytes(&v, sizeof v);
  }

  // A NUL-terminated string.
  cl_int string(std::string_view text) const {
    std::string terminated(text);
    return bytes(terminated.c_str(), terminated.size() + 1);
  }

  template <typename T>
  cl_int array(std::span<const T> values) const {
    return bytes(values.data(), values.size_bytes());
  }
  template <typename T>
  cl_int array(const std::vector<T>& values) const {
    return array(std::span<const T>(values));
  }
};

// A cl_name_version entry ("cl_khr_fp64", 1.0.0).
inline cl_name_version nameVersion(std::string_view name, cl_version version) {
  cl_name_version entry{};
  entry.version = version;
  std::strncpy(entry.name, std::string(name).c_str(), CL_NAME_VERSION_MAX_NAME_SIZE - 1);
  return entry;
}

}  // namespace cl2vk::runtime
