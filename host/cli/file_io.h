#pragma once

#include <optional>
#include <string>

#include "model/json_document.h"

namespace nnfab::cli {

// Largest model or inputs file the CLI reads: the JSON reader's own limit, so
// there is one number (docs/file-formats.md). A larger file is refused from
// its size, before any of it is read.
inline constexpr size_t kMaxFileBytes = json::kMaxJsonBytes;

// The bytes of a regular file, or of standard input when `path` is "-"; nullopt
// with *error set otherwise (missing, unreadable, a directory, a FIFO, device
// or socket — which could block forever or never end —, or too large). The
// result is allocated once at the file's size.
std::optional<std::string> readFile(const std::string& path, std::string* error);

// Checks that `path` can be created or truncated for writing (a result, trace or
// report file) before work whose output would go there starts.
bool checkWritable(const std::string& path, std::string* error);

// Flushes stdout at the end of a command: a result that could not be written
// (a full disk, a closed pipe) turns `exitCode` into kExitUsage with a message,
// so no result is lost silently.
int finishStdout(int exitCode);

// Prints "nnfab: <message>" to stderr and returns kExitUsage.
int usageError(const std::string& message);

}  // namespace nnfab::cli
