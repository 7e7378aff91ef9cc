// Reading model and inputs files and checking output paths, safely: only
// regular files (or standard input), refused from their size above the JSON
// reader's limit, read into one allocation. Shared by `nnfab` and the
// platform model's command line.
#pragma once

#include <optional>
#include <string>

#include "model/json_document.h"

namespace nnfab {

// Largest model or inputs file read: the JSON reader's own limit, so there is
// one number (docs/file-formats.md). A larger file is refused from its size,
// before any of it is read.
inline constexpr size_t kMaxFileBytes = json::kMaxJsonBytes;

// The bytes of a regular file, or of standard input when `path` is "-"; nullopt
// with *error set otherwise (missing, unreadable, a directory, a FIFO, device
// or socket — which could block forever or never end —, or too large).
std::optional<std::string> readFile(const std::string& path, std::string* error);

// Checks that `path` can be created or truncated for writing (a result, trace or
// report file) before work whose output would go there starts.
bool checkWritable(const std::string& path, std::string* error);

}  // namespace nnfab
