// nnfab-hwemu-device: the device process XRT's hw_emu shim starts (through
// behav_waveform/xsim/simulate.sh in the emulation xclbin) in place of an
// XSim simulation. It connects to the shim's socket /tmp/$USER/$EMULATION_SOCKETID
// and serves it with the Verilated nnfab core. docs/xrt-emu.md.
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "hwemu_device.h"

namespace {

bool parseNumber(const char* text, uint64_t* value) {
  char* end = nullptr;
  errno = 0;
  *value = std::strtoull(text, &end, 0);
  return errno == 0 && end != text && *end == '\0';
}

int usage(const char* why) {
  std::fprintf(stderr,
               "nnfab-hwemu-device: %s\n"
               "usage: nnfab-hwemu-device [--bank BASE:BYTES]... [--cu-base N] [--verbose]\n"
               "  (started by XRT's hw_emu shim with EMULATION_SOCKETID and USER set)\n",
               why);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  nnfab::hwemu::DeviceConfig config;
  std::vector<nnfab::hwemu::Bank> banks;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--bank") {
      // BASE:BYTES, one per bank of the xclbin's MEM_TOPOLOGY.
      const std::string value = i + 1 < argc ? argv[++i] : "";
      const auto colon = value.find(':');
      nnfab::hwemu::Bank b;
      if (colon == std::string::npos || !parseNumber(value.substr(0, colon).c_str(), &b.base) ||
          !parseNumber(value.substr(colon + 1).c_str(), &b.bytes)) {
        return usage(("bad --bank " + value + " (BASE:BYTES)").c_str());
      }
      banks.push_back(b);
    } else if (arg == "--cu-base") {
      if (i + 1 >= argc || !parseNumber(argv[++i], &config.cuBase)) return usage("bad value for --cu-base");
    } else if (arg == "--verbose") {
      config.verbose = true;
    }
    // Anything else is the shim's XSim arguments (--wdb, --protoinst ...): ignored.
  }
  if (!banks.empty()) config.banks = banks;
  // The shim's arguments cannot be changed; the environment can.
  if (const char* v = std::getenv("NNFAB_HWEMU_VERBOSE"); v && *v && std::string(v) != "0") config.verbose = true;
  if (const char* v = std::getenv("NNFAB_HWEMU_FAULT"); v && *v) {
    if (std::string(v) != "hang") return usage("NNFAB_HWEMU_FAULT must be hang");
    config.hangOnStart = true;
  }
  if (const char* v = std::getenv("NNFAB_HWEMU_FRAME_TIMEOUT_MS"); v && *v) {
    uint64_t ms = 0;
    if (!parseNumber(v, &ms) || ms == 0 || ms > 3600000) return usage("bad NNFAB_HWEMU_FRAME_TIMEOUT_MS");
    config.frameTimeoutMs = static_cast<int>(ms);
  }
  for (size_t i = 0; i < config.banks.size(); ++i) {
    const nnfab::hwemu::Bank& b = config.banks[i];
    if (b.bytes < 4096 || b.bytes % 4096 != 0) return usage("a bank's size must be a multiple of 4096");
    if (b.base > UINT64_MAX - b.bytes) return usage("a bank runs past the end of the address space");
    for (size_t j = 0; j < i; ++j) {
      const nnfab::hwemu::Bank& o = config.banks[j];
      if (b.base < o.base + o.bytes && o.base < b.base + b.bytes) return usage("two banks overlap");
    }
  }

  const char* id = std::getenv("EMULATION_SOCKETID");
  const char* user = std::getenv("USER");
  if (!id || !*id) return usage("EMULATION_SOCKETID is not set");
  // The shim's rule: without USER it listens on /tmp/xcl_sock instead.
  const std::string path = (user && *user) ? std::string("/tmp/") + user + "/" + id : "/tmp/xcl_sock";
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (path.size() >= sizeof address.sun_path) return usage("socket path too long");
  std::memcpy(address.sun_path, path.c_str(), path.size() + 1);

  // The shim binds and listens around the time it starts us: retry for a while.
  int fd = -1;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  for (;;) {
    fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    if (fd < 0) {
      std::perror("nnfab-hwemu-device: socket");
      return 1;
    }
    if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0) break;
    ::close(fd);
    if (std::chrono::steady_clock::now() > deadline) {
      std::fprintf(stderr, "nnfab-hwemu-device: no host listening on %s after 60 s: %s\n", path.c_str(),
                   std::strerror(errno));
      return 1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }

  try {
    nnfab::hwemu::Device device(config);
    const int rc = device.serve(fd);
    ::close(fd);
    return rc;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "nnfab-hwemu-device: %s\n", e.what());
    return 1;
  }
}
