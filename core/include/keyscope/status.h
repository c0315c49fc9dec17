// Status and Result<T>: the only error currency of Keyscope's core API.
//
// A Status is OK or a code plus a human-readable message that says what went
// wrong and where. No core function throws across its API; fallible calls
// return a Status or a Result<T>. Both are plain values, safe to copy and to
// hand between threads.
#pragma once

#include <cassert>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace keyscope {

class [[nodiscard]] Status {
 public:
  // Append only: codes may be shown to users and stored in logs.
  enum class Code { kOk = 0, kNotFound, kInvalidArgument, kCorruption, kIOError, kCancelled, kBusy };

  Status() = default;
  static Status ok() { return Status(); }
  static Status notFound(std::string msg) { return {Code::kNotFound, std::move(msg)}; }
  static Status invalidArgument(std::string msg) { return {Code::kInvalidArgument, std::move(msg)}; }
  static Status corruption(std::string msg) { return {Code::kCorruption, std::move(msg)}; }
  static Status ioError(std::string msg) { return {Code::kIOError, std::move(msg)}; }
  static Status cancelled(std::string msg) { return {Code::kCancelled, std::move(msg)}; }
  static Status busy(std::string msg) { return {Code::kBusy, std::move(msg)}; }

  bool isOk() const { return m_code == Code::kOk; }
  explicit operator bool() const { return isOk(); }
  Code code() const { return m_code; }
  const std::string& message() const { return m_message; }

  // "InvalidArgument: column 7: unknown type 'int'"; "OK" for success.
  std::string toString() const;
  // The same code with another message (the old one with context around
  // it, say). OK stays OK.
  Status withMessage(std::string msg) const { return isOk() ? Status() : Status(m_code, std::move(msg)); }

 private:
  Status(Code code, std::string msg) : m_code(code), m_message(std::move(msg)) {}
  Code m_code = Code::kOk;
  std::string m_message;
};

const char* codeName(Status::Code code);

// A value or the Status explaining why there is none.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : m_state(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status status) : m_state(std::move(status)) {  // NOLINT
    assert(!std::get<Status>(m_state).isOk() && "Result needs a value or an error");
  }

  bool isOk() const { return std::holds_alternative<T>(m_state); }
  explicit operator bool() const { return isOk(); }

  // REQUIRES: isOk()
  const T& value() const& { return std::get<T>(m_state); }
  T& value() & { return std::get<T>(m_state); }
  T&& value() && { return std::get<T>(std::move(m_state)); }
  // As std::optional's: std::move(*result) moves the value out (a const
  // dereference made that a silent copy).
  const T& operator*() const& { return value(); }
  T& operator*() & { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  const T* operator->() const { return &value(); }
  T* operator->() { return &value(); }

  // OK when a value is held. The reference lives as long as this Result.
  const Status& status() const {
    static const Status kOk;
    return isOk() ? kOk : std::get<Status>(m_state);
  }

 private:
  std::variant<T, Status> m_state;
};

}  // namespace keyscope
