#include "model/files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace nnfab {
namespace {

std::string tooLarge(const std::string& path) {
  return fmt::format("cannot read '{}': larger than the limit of {} MiB", path, kMaxFileBytes >> 20);
}

// Reads fd to its end into `out`, which already has room for `expected` bytes
// (0 when the size is unknown: standard input).
bool readAll(int fd, const std::string& path, size_t expected, std::string* out, std::string* error) {
  out->resize(expected);
  size_t used = 0;
  for (;;) {
    if (used == out->size()) {
      // Past the expected size (a file that grew, or stdin): grow in steps,
      // never beyond the limit plus one byte (to tell "too large").
      if (out->size() > kMaxFileBytes) {
        *error = tooLarge(path);
        return false;
      }
      out->resize(std::min(kMaxFileBytes + 1, std::max<size_t>(out->size() * 2, 1 << 16)));
    }
    const ssize_t n = ::read(fd, out->data() + used, out->size() - used);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      *error = fmt::format("cannot read '{}': {}", path, std::strerror(errno));
      return false;
    }
    used += static_cast<size_t>(n);
  }
  if (used > kMaxFileBytes) {
    *error = tooLarge(path);
    return false;
  }
  out->resize(used);
  return true;
}

const char* fileKind(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

}  // namespace

std::optional<std::string> readFile(const std::string& path, std::string* error) {
  std::string text;
  if (path == "-") {
    if (!readAll(STDIN_FILENO, "standard input", 0, &text, error)) return std::nullopt;
    return text;
  }
  // Sockets cannot be opened at all, so look first; then open without
  // blocking (a FIFO without a writer would block in open) and check again
  // on the descriptor, which is what is actually read.
  struct stat before {};
  if (::stat(path.c_str(), &before) == 0 && !S_ISREG(before.st_mode)) {
    *error = fmt::format("cannot read '{}': it is {}; give a regular file (or - for standard input)", path,
                         fileKind(before.st_mode));
    return std::nullopt;
  }
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    *error = errno == ENOENT ? fmt::format("cannot read '{}': no such file", path)
                             : fmt::format("cannot read '{}': {}", path, std::strerror(errno));
    return std::nullopt;
  }
  struct stat st {};
  bool ok = ::fstat(fd, &st) == 0;
  if (!ok) {
    *error = fmt::format("cannot read '{}': {}", path, std::strerror(errno));
  } else if (!S_ISREG(st.st_mode)) {
    *error = fmt::format("cannot read '{}': it is {}; give a regular file (or - for standard input)",
                         path, fileKind(st.st_mode));
    ok = false;
  } else if (static_cast<uint64_t>(st.st_size) > kMaxFileBytes) {
    *error = tooLarge(path);
    ok = false;
  } else {
    ok = readAll(fd, path, static_cast<size_t>(st.st_size), &text, error);
  }
  ::close(fd);
  if (!ok) return std::nullopt;
  return text;
}

bool checkWritable(const std::string& path, std::string* error) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NONBLOCK, 0644);
  if (fd < 0) {
    *error = fmt::format("cannot write '{}': {}", path, std::strerror(errno));
    return false;
  }
  ::close(fd);
  return true;
}

}  // namespace nnfab
