#include "cli/file_io.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/commands.h"

namespace nnfab::cli {

std::optional<std::string> readFile(const std::string& path, std::string* error) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) {
    *error = fmt::format("cannot read '{}': no such file", path);
    return std::nullopt;
  }
  if (std::filesystem::is_directory(status)) {
    *error = fmt::format("cannot read '{}': it is a directory", path);
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = fmt::format("cannot read '{}': {}", path, std::strerror(errno));
    return std::nullopt;
  }
  std::string text;
  char buffer[1 << 16];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    text.append(buffer, static_cast<size_t>(in.gcount()));
    if (text.size() > kMaxFileBytes) {
      *error = fmt::format("cannot read '{}': larger than {} MiB", path, kMaxFileBytes >> 20);
      return std::nullopt;
    }
  }
  if (in.bad()) {
    *error = fmt::format("cannot read '{}': read error", path);
    return std::nullopt;
  }
  return text;
}

int usageError(const std::string& message) {
  fmt::print(stderr, "nnfab: {}\n", message);
  return kExitUsage;
}

}  // namespace nnfab::cli
