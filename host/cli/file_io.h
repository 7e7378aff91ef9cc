#pragma once

#include <optional>
#include <string>

namespace nnfab::cli {

// Largest model or inputs file the CLI reads; larger ones are a usage error
// rather than an attempt to exhaust memory.
inline constexpr size_t kMaxFileBytes = size_t{512} << 20;

// The file's bytes, or nullopt with *error set (missing, unreadable, a
// directory, too large).
std::optional<std::string> readFile(const std::string& path, std::string* error);

// Prints "nnfab: <message>" to stderr and returns kExitUsage.
int usageError(const std::string& message);

}  // namespace nnfab::cli
