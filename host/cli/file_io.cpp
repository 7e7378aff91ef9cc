#include "cli/file_io.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "cli/commands.h"

namespace nnfab::cli {

int finishStdout(int exitCode) {
  if (std::fflush(stdout) == 0 && !std::ferror(stdout)) return exitCode;
  fmt::print(stderr, "nnfab: writing to standard output failed: {}\n", std::strerror(errno));
  return kExitUsage;
}

int usageError(const std::string& message) {
  fmt::print(stderr, "nnfab: {}\n", message);
  return kExitUsage;
}

}  // namespace nnfab::cli
