// A status with NNAPI's error code and a message for people. Every fallible
// function in nnfab returns Status or Result<T>; nothing throws across a
// component boundary.
#pragma once

#include <string>
#include <utility>
#include <variant>

#include "model/types.h"

namespace nnfab {

class [[nodiscard]] Status {
 public:
  Status() = default;  // success
  Status(ErrorStatus code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status ok() { return {}; }

  bool isOk() const { return code_ == ErrorStatus::NONE; }
  explicit operator bool() const { return isOk(); }
  ErrorStatus code() const { return code_; }
  const std::string& message() const { return message_; }

  // Prefixes the message with where the error happened ("subgraph 1, operation 3: ...").
  Status withContext(const std::string& where) && {
    if (!isOk()) message_ = where + ": " + message_;
    return std::move(*this);
  }

 private:
  ErrorStatus code_ = ErrorStatus::NONE;
  std::string message_;
};

inline Status invalidArgument(std::string message) {
  return {ErrorStatus::INVALID_ARGUMENT, std::move(message)};
}
inline Status generalFailure(std::string message) {
  return {ErrorStatus::GENERAL_FAILURE, std::move(message)};
}

// A value or a (non-OK) Status.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}             // NOLINT: implicit by design
  Result(Status status) : v_(std::move(status)) {}      // NOLINT: implicit by design

  bool isOk() const { return std::holds_alternative<T>(v_); }
  explicit operator bool() const { return isOk(); }
  const T& value() const& { return std::get<T>(v_); }
  T& value() & { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  const T& operator*() const& { return value(); }
  T& operator*() & { return value(); }
  const T* operator->() const { return &value(); }
  T* operator->() { return &value(); }
  const Status& status() const& {
    static const Status kOk;
    return isOk() ? kOk : std::get<Status>(v_);
  }
  Status takeStatus() && { return isOk() ? Status{} : std::get<Status>(std::move(v_)); }

 private:
  std::variant<T, Status> v_;
};

}  // namespace nnfab
