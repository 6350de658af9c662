// Errors as values. Every fallible operation in cl2vk returns Expected<T> (or Status, for no value):
// either the value, or an Error whose message names what failed and why. Nothing throws.
#pragma once

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace cl2vk {

class Error {
 public:
  explicit Error(std::string message) : message_(std::move(message)) {}

  const std::string& message() const { return message_; }

  // Returns a copy with `context` in front ("while loading x.spv: " + message).
  Error withContext(const std::string& context) const { return Error(context + ": " + message_); }

 private:
  std::string message_;
};

template <typename T>
class [[nodiscard]] Expected {
 public:
  Expected(T value) : state_(std::move(value)) {}      // NOLINT: implicit by design, like std::expected.
  Expected(Error error) : state_(std::move(error)) {}  // NOLINT

  bool ok() const { return std::holds_alternative<T>(state_); }
  explicit operator bool() const { return ok(); }

  T& value() & {
    assert(ok());
    return std::get<T>(state_);
  }
  const T& value() const& {
    assert(ok());
    return std::get<T>(state_);
  }
  T&& value() && {
    assert(ok());
    return std::get<T>(std::move(state_));
  }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  const Error& error() const {
    assert(!ok());
    return std::get<Error>(state_);
  }

 private:
  std::variant<T, Error> state_;
};

// The value type of a fallible operation that produces nothing.
struct Ok {};
using Status = Expected<Ok>;

inline Status okStatus() { return Ok{}; }

}  // namespace cl2vk

// Propagates the error of a Status or Expected expression out of the enclosing function.
#define CL2VK_TRY(expr)                                            \
  do {                                                             \
    auto cl2vk_try_result_ = (expr);                               \
    if (!cl2vk_try_result_.ok()) return cl2vk_try_result_.error(); \
  } while (false)
