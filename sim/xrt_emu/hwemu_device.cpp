#include "hwemu_device.h"

#include <poll.h>
#include <sys/mman.h>
#include <unistd.h>

#include <xcl_macros.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "hwemu_wire.h"
#include "sim_harness.h"

namespace nnfab::hwemu {
namespace {

// Field numbers of the calls and responses (docs/xrt-emu.md, "Messages").
namespace field {
constexpr uint32_t kAck = 1;            // every response: ack / valid / size
constexpr uint32_t kFilename = 2;       // xclAllocDeviceBuffer response
constexpr uint32_t kData = 2;           // read responses: the bytes
constexpr uint32_t kAllocAddress = 1, kAllocSize = 2;
constexpr uint32_t kCopyDest = 3, kCopySrc = 4, kCopySize = 5, kCopyOffset = 6;  // H2D: dest addr, src bytes
constexpr uint32_t kD2HSrc = 4, kD2HSize = 5, kD2HOffset = 6;                    // D2H: src addr
constexpr uint32_t kAddr = 2, kSize = 3, kBytes = 4;  // register and raw-memory accesses
}  // namespace field

class FrameError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace

struct Device::Impl {
  // One bank's memory, reserved (not committed) at start.
  struct Memory {
    uint64_t base = 0, bytes = 0;
    uint8_t* data = nullptr;
  };

  DeviceConfig config;
  std::vector<Memory> memories;
  sim::SimHarness harness;

  explicit Impl(const DeviceConfig& c)
      : config(c), harness(sim::HarnessConfig{}, [this](uint64_t address) { return beat(address); }) {
    for (const Bank& b : c.banks) {
      void* p = mmap(nullptr, b.bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (p == MAP_FAILED) {
        unmapAll();
        throw std::runtime_error("cannot reserve the device memory");
      }
      memories.push_back(Memory{b.base, b.bytes, static_cast<uint8_t*>(p)});
    }
  }
  ~Impl() { unmapAll(); }

  void unmapAll() {
    for (const Memory& m : memories) munmap(m.data, m.bytes);
    memories.clear();
  }

  // The memory range [address, address + bytes) inside one bank, or nullptr.
  uint8_t* range(uint64_t address, uint64_t bytes) {
    for (const Memory& m : memories) {
      if (address >= m.base && bytes <= m.bytes && address - m.base <= m.bytes - bytes) return m.data + (address - m.base);
    }
    return nullptr;
  }

  // One 64-byte beat of the core's AXI masters (nullptr: an error response).
  uint8_t* beat(uint64_t address) { return range(address, sim::kBeatBytes); }

  // Waits until fd is readable for at most timeoutMs (-1: forever) while
  // clocking the core if it runs. False on timeout.
  bool waitReadable(int fd, int timeoutMs) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    for (;;) {
      const bool running = !harness.coreIdle();
      pollfd p{fd, POLLIN, 0};
      const int wait = running ? 0 : (timeoutMs < 0 ? -1 : 100);
      const int rc = ::poll(&p, 1, wait);
      if (rc < 0 && errno != EINTR) throw FrameError(std::string("poll: ") + std::strerror(errno));
      if (rc > 0) return true;
      if (running) harness.run(config.batchCycles, /*untilIdle=*/true);
      if (timeoutMs >= 0 && std::chrono::steady_clock::now() >= deadline) return false;
    }
  }

  // Exactly n bytes; the core keeps running while the host is slow.
  std::string readExactly(int fd, size_t n, bool frameStart) {
    std::string out(n, '\0');
    size_t got = 0;
    while (got < n) {
      if (!waitReadable(fd, frameStart && got == 0 ? -1 : config.frameTimeoutMs)) {
        throw FrameError("the host stopped in the middle of a frame");
      }
      const ssize_t r = ::read(fd, out.data() + got, n - got);
      if (r < 0 && errno == EINTR) continue;
      if (r < 0) throw FrameError(std::string("read: ") + std::strerror(errno));
      if (r == 0) throw FrameError(got == 0 && frameStart ? "the host closed the socket without xclClose"
                                                          : "the host closed the socket in the middle of a frame");
      got += static_cast<size_t>(r);
    }
    return out;
  }

  static void writeAll(int fd, const std::string& data) {
    size_t sent = 0;
    while (sent < data.size()) {
      const ssize_t w = ::write(fd, data.data() + sent, data.size() - sent);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) throw FrameError(std::string("write: ") + std::strerror(errno));
      sent += static_cast<size_t>(w);
    }
  }

  uint32_t registerOffset(uint64_t address) const {
    if (address < config.cuBase || address - config.cuBase >= isa::kRegWindowBytes) {
      throw FrameError("register address 0x" + hex(address) + " is outside the compute unit's window");
    }
    return static_cast<uint32_t>(address - config.cuBase);
  }

  static std::string hex(uint64_t v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%llx", static_cast<unsigned long long>(v));
    return buf;
  }

  // One call; sets *closed on xclClose.
  Encoder handle(uint32_t api, const Message& m, bool* closed) {
    Encoder r;
    switch (api) {
      case xclSetEnvironment_n:
      case xclFreeDeviceBuffer_n:
        return r.boolean(field::kAck, true);
      case xclAllocDeviceBuffer_n:
        if (!range(m.number(field::kAllocAddress), m.number(field::kAllocSize))) {
          throw FrameError("buffer at 0x" + hex(m.number(field::kAllocAddress)) + " is outside every bank");
        }
        // An empty file name keeps the buffer in the host's own memory.
        return r.boolean(field::kAck, true).bytes(field::kFilename, "");
      case xclCopyBufferHost2Device_n: {
        const std::string& src = m.data(field::kCopySrc);
        const uint64_t size = m.number(field::kCopySize, src.size());
        const uint64_t address = m.number(field::kCopyDest) + m.number(field::kCopyOffset);
        uint8_t* dst = range(address, size);
        if (!dst || size > src.size()) throw FrameError("host-to-device copy outside every bank or short of data");
        std::memcpy(dst, src.data(), size);
        return r.varint(field::kAck, size);
      }
      case xclCopyBufferDevice2Host_n: {
        const uint64_t size = m.number(field::kD2HSize);
        const uint64_t address = m.number(field::kD2HSrc) + m.number(field::kD2HOffset);
        const uint8_t* src = range(address, size);
        if (!src) throw FrameError("device-to-host copy outside every bank");
        return r.varint(field::kAck, size).bytes(field::kData, std::string_view(reinterpret_cast<const char*>(src), size));
      }
      case xclWriteAddrSpaceDeviceRam_n: {
        const std::string& src = m.data(field::kBytes);
        uint8_t* dst = range(m.number(field::kAddr), src.size());
        if (!dst) throw FrameError("device memory write outside every bank");
        std::memcpy(dst, src.data(), src.size());
        return r.boolean(field::kAck, true);
      }
      case xclReadAddrSpaceDeviceRam_n: {
        const uint64_t size = m.number(field::kSize);
        const uint8_t* src = range(m.number(field::kAddr), size);
        if (!src) throw FrameError("device memory read outside every bank");
        return r.boolean(field::kAck, true).bytes(field::kData, std::string_view(reinterpret_cast<const char*>(src), size));
      }
      case xclWriteAddrKernelCtrl_n: {
        const std::string& data = m.data(field::kBytes);
        const uint64_t size = m.number(field::kSize, data.size());
        if (size % 4 != 0 || size > data.size()) throw FrameError("register write of " + std::to_string(size) + " bytes");
        for (uint64_t i = 0; i < size; i += 4) {
          uint32_t value = 0;
          std::memcpy(&value, data.data() + i, 4);
          const uint32_t offset = registerOffset(m.number(field::kAddr) + i);
          if (config.hangOnStart && offset == isa::kRegAP_CTRL && (value & isa::kAP_START) != 0) {
            harness.programMemory().hang();
            harness.dataMemory().hang();
            harness.srcbMemory().hang();
            harness.dstMemory().hang();
          }
          harness.writeRegister(offset, value);
        }
        return r.boolean(field::kAck, true);
      }
      case xclReadAddrKernelCtrl_n: {
        const uint64_t size = m.number(field::kSize);
        if (size % 4 != 0 || size > isa::kRegWindowBytes) throw FrameError("register read of " + std::to_string(size) + " bytes");
        std::string out(size, '\0');
        for (uint64_t i = 0; i < size; i += 4) {
          const uint32_t value = harness.readRegister(registerOffset(m.number(field::kAddr) + i));
          std::memcpy(out.data() + i, &value, 4);
        }
        return r.boolean(field::kAck, true).bytes(field::kData, out);
      }
      case xclGetDebugMessages_n:
        // Asked at close (debug messages of an XSim run): there are none.
        return r;
      case xclClose_n:
        *closed = true;
        return r.boolean(field::kAck, true);
      default:
        // Debug, profiling and other flows' calls (not sent in nnfab's
        // configuration): answer with an empty message and say so.
        std::fprintf(stderr, "nnfab hw_emu device: call %u not served (empty response)\n", api);
        return r;
    }
  }

  int serve(int fd) {
    try {
      for (;;) {
        std::string error;
        const auto header = decodeCallHeader(readExactly(fd, kCallHeaderBytes, /*frameStart=*/true), &error);
        if (!header) throw FrameError("malformed call header: " + error);
        const auto message = decode(readExactly(fd, header->size, false), &error);
        if (!message) throw FrameError("malformed call " + std::to_string(header->api) + ": " + error);
        bool closed = false;
        const Encoder response = handle(header->api, *message, &closed);
        if (config.verbose) {
          std::fprintf(stderr, "nnfab hw_emu device: call %u (%llu bytes) -> response %zu bytes\n", header->api,
                       static_cast<unsigned long long>(header->size), response.data().size());
        }
        writeAll(fd, encodeResponseHeader(response.data().size()) + response.data());
        if (closed) return 0;
      }
    } catch (const FrameError& e) {
      std::fprintf(stderr, "nnfab hw_emu device: %s; exiting\n", e.what());
      return 3;
    } catch (const std::exception& e) {  // an AXI protocol violation of the RTL
      std::fprintf(stderr, "nnfab hw_emu device: %s; exiting\n", e.what());
      return 4;
    }
  }
};

Device::Device(const DeviceConfig& config) : impl_(std::make_unique<Impl>(config)) {}
Device::~Device() = default;
int Device::serve(int fd) { return impl_->serve(fd); }

}  // namespace nnfab::hwemu
