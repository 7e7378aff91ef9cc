#include "backends/xrt_backend.h"

#include <experimental/xrt_ip.h>
#include <experimental/xrt_system.h>
#include <experimental/xrt_xclbin.h>
#include <xrt/xrt_bo.h>
#include <xrt/xrt_device.h>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdlib>
#include <cstdio>
#include <optional>
#include <thread>

#include <fmt/format.h>

#include "backends/xrt_completion.h"
#include "nnfab_isa.h"
#include "xclbin/kernel_xml.h"
#include "xclbin/xclbin_layout.h"

namespace nnfab::backends {
namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// The memory indices an argument's port is connected to.
std::vector<int32_t> memsOf(const xrt::xclbin::arg& arg) {
  std::vector<int32_t> out;
  for (const auto& m : arg.get_mems()) out.push_back(m.get_index());
  std::sort(out.begin(), out.end());
  return out;
}

// While alive, file descriptor 1 is a copy of 2.
class StdoutToStderr {
 public:
  StdoutToStderr() {
    std::fflush(stdout);
    saved_ = ::dup(STDOUT_FILENO);
    if (saved_ >= 0) ::dup2(STDERR_FILENO, STDOUT_FILENO);
  }
  ~StdoutToStderr() {
    std::fflush(stdout);
    if (saved_ >= 0) {
      ::dup2(saved_, STDOUT_FILENO);
      ::close(saved_);
    }
  }
  StdoutToStderr(const StdoutToStderr&) = delete;
  StdoutToStderr& operator=(const StdoutToStderr&) = delete;

 private:
  int saved_ = -1;
};

std::string tagOf(const XclbinCheck& check, int32_t bank) {
  const XrtMemory* m = check.memory(bank);
  return m && !m->tag.empty() ? m->tag : fmt::format("memory {}", bank);
}

constexpr const char* kFailedMessage =
    "xrt: the nnfab core stopped answering or would not stop; reset the card (xbutil reset) and start again";

Status fromXrt(const std::exception& e, const std::string& doing) {
  return Status(ErrorStatus::DEVICE_UNAVAILABLE, fmt::format("xrt: {}: {}", doing, e.what()));
}

}  // namespace

std::vector<std::string> XclbinCheck::tags() const {
  std::vector<std::string> out;
  for (const XrtMemory& m : memories) {
    if (m.index < 0) continue;
    if (out.size() <= static_cast<size_t>(m.index)) out.resize(m.index + 1);
    out[m.index] = m.tag;
  }
  return out;
}

Result<XclbinCheck> checkXclbin(const std::string& path) {
  // Before XRT's parser, which reads past its buffer on a truncated file.
  if (Status layout = xclbin::checkXclbinLayout(path); !layout.isOk()) return layout;
  auto built = xclbin::parseKernelXml(xclbin::builtKernelXml());
  if (!built) return generalFailure("this build's kernel.xml does not parse: " + built.status().message());
  XclbinCheck check;
  try {
    const xrt::xclbin file(path);
    const auto kernels = file.get_kernels();
    auto it = std::find_if(kernels.begin(), kernels.end(), [&](const auto& k) { return k.get_name() == built->name; });
    if (it == kernels.end()) {
      std::string names;
      for (const auto& k : kernels) names += (names.empty() ? "" : ", ") + k.get_name();
      return invalidArgument(fmt::format("xclbin {} has no kernel {} (it has: {}): not an nnfab bitstream", path,
                                         built->name, names.empty() ? "none" : names));
    }
    const xrt::xclbin::kernel& kernel = *it;
    check.kernelName = kernel.get_name();
    const auto cus = kernel.get_cus();
    if (cus.size() != 1) {
      return invalidArgument(fmt::format("xclbin {}: kernel {} has {} compute units; nnfab drives exactly one",
                                         path, check.kernelName, cus.size()));
    }
    // user_managed (AP_CTRL_NONE to XRT): with ap_ctrl_hs/chain XRT's own
    // scheduler would poll AP_CTRL and take the clear-on-read AP_DONE.
    if (cus.front().get_control_type() != xrt::xclbin::ip::control_type::none) {
      return invalidArgument(fmt::format(
          "xclbin {}: the compute unit is not user_managed (XRT's scheduler would drive it and race the host "
          "for AP_DONE): package the kernel with hwControlProtocol user_managed (docs/xrt.md)", path));
    }
    // "kernel:{instance}": the form xrt::ip matches exactly one IP by.
    const std::string cu = cus.front().get_name();
    check.cuName = check.kernelName + ":{" + cu.substr(cu.find(':') + 1) + "}";

    const auto args = kernel.get_args();
    if (args.size() != built->args.size()) {
      return invalidArgument(fmt::format("xclbin {}: kernel {} has {} arguments, this build's register map {}", path,
                                         check.kernelName, args.size(), built->args.size()));
    }
    // The memories each master is connected to (its argument's CONNECTIVITY).
    std::map<std::string, std::vector<int32_t>> connected;
    for (const auto& want : built->args) {
      auto a = std::find_if(args.begin(), args.end(), [&](const auto& x) { return x.get_name() == want.name; });
      if (a == args.end()) {
        return invalidArgument(fmt::format("xclbin {}: kernel {} has no argument {}: built from another register map",
                                           path, check.kernelName, want.name));
      }
      if (a->get_offset() != want.offset || a->get_size() != want.size || lower(a->get_port()) != lower(want.port)) {
        return invalidArgument(fmt::format(
            "xclbin {}: argument {} is at offset 0x{:x}, {} bytes, port {}; this build's register map has 0x{:x}, "
            "{} bytes, port {}",
            path, want.name, a->get_offset(), a->get_size(), a->get_port(), want.offset, want.size, want.port));
      }
      if (want.addressQualifier == 1) {
        auto& mems = connected[lower(want.port)];
        const auto more = memsOf(*a);
        mems.insert(mems.end(), more.begin(), more.end());
      }
    }
    std::vector<XrtMemory> memories;
    for (const auto& m : file.get_mems()) {
      using type = xrt::xclbin::mem::memory_type;
      const bool stream = m.get_type() == type::streaming || m.get_type() == type::streaming_connection;
      memories.push_back(XrtMemory{m.get_index(), m.get_tag(), m.get_base_address(), m.get_size_kb() * 1024,
                                   m.get_used() && !stream});
    }
    XrtPortBanks ports;
    check.memories = memories;
    ports.tags = check.tags();
    ports.prog = banksReached(connected["m_axi_prog"], memories);
    ports.data = banksReached(connected["m_axi_data"], memories);
    ports.srcb = banksReached(connected["m_axi_srcb"], memories);
    ports.dst = banksReached(connected["m_axi_dst"], memories);
    auto windows = chooseWindowBanks(ports);
    if (!windows) return invalidArgument(fmt::format("xclbin {}: {}", path, windows.status().message()));
    check.windows = *windows;
  } catch (const std::exception& e) {
    return invalidArgument(fmt::format("xclbin {}: {}", path, e.what()));
  }
  return check;
}

struct XrtBackend::Impl {
  XrtBackendOptions options;
  XclbinCheck check;
  xrt::device device;
  xrt::uuid uuid;
  xrt::ip ip;
  // The core's done interrupt where XRT delivers it (a card), else empty
  // and waitDone polls; completionMode says which, and why (description()).
  std::optional<xrt::ip::interrupt> irq;
  std::string completionMode;
  std::atomic<uint64_t> wakeups{0};
  std::mutex mutex;  // allocations
  std::map<fabric::DeviceAddress, xrt::bo> buffers;  // device address -> its buffer
  uint64_t allocated = 0;
  std::atomic<bool> failed{false};

  // One buffer in memory bank `bank` (an index of the xclbin's topology).
  Result<fabric::DeviceAddress> allocateIn(int32_t bank, uint64_t bytes);

  // Drops every XRT object (buffers, the compute unit, the device).
  void close() {
    std::lock_guard<std::mutex> lock(mutex);
    failed = true;
    buffers.clear();
    irq.reset();
    ip = xrt::ip();
    device = xrt::device();
  }

  // The buffer holding [address, address + bytes) and the offset in it.
  xrt::bo* find(fabric::DeviceAddress address, uint64_t bytes, uint64_t* offset) {
    auto it = buffers.upper_bound(address);
    if (it == buffers.begin()) return nullptr;
    --it;
    const uint64_t off = address - it->first;
    if (off > it->second.size() || bytes > it->second.size() - off) return nullptr;
    *offset = off;
    return &it->second;
  }
};

namespace {

// XRT closes its device (for hw_emu: the device process) in an exit
// handler registered when the device is first opened. A backend owned by a
// static (the runtime's devices are) would be destroyed after that and
// touch a closed device: so the backends still alive at exit drop their XRT
// objects in an exit handler of ours, registered after XRT's and therefore
// run before it.
struct LiveBackends {
  std::mutex mutex;
  std::vector<XrtBackend::Impl*> live;
  bool hooked = false;
};

LiveBackends& liveBackends() {
  static LiveBackends* l = new LiveBackends;  // never destroyed: used by the exit handler
  return *l;
}

}  // namespace

void XrtBackend::releaseAllAtExit() {
  LiveBackends& l = liveBackends();
  std::lock_guard<std::mutex> lock(l.mutex);
  for (Impl* impl : l.live) impl->close();
  l.live.clear();
}

XrtBackend::XrtBackend(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {
  LiveBackends& l = liveBackends();
  std::lock_guard<std::mutex> lock(l.mutex);
  l.live.push_back(impl_.get());
  if (!l.hooked) {
    l.hooked = true;
    std::atexit(&XrtBackend::releaseAllAtExit);
  }
}

XrtBackend::~XrtBackend() {
  LiveBackends& l = liveBackends();
  std::lock_guard<std::mutex> lock(l.mutex);
  l.live.erase(std::remove(l.live.begin(), l.live.end(), impl_.get()), l.live.end());
}

namespace {

// IER/ISR bit 0 is the done interrupt (isa.json GIE, IER, ISR).
constexpr uint32_t kDoneInterrupt = 1u;

// Completion by interrupt where XRT offers one for the CU: XRT 2.13 does on
// a card (xocl); its noop and hw_emu shims throw "not supported", and then
// waitDone polls AP_CTRL every pollInterval. The core raises its interrupt
// line only with GIE and IER's done bit set.
void enableDoneInterrupt(XrtBackend::Impl& impl) {
  try {
    impl.irq = impl.ip.create_interrupt_notify();
    impl.ip.write_register(isa::kRegIER, kDoneInterrupt);
    impl.ip.write_register(isa::kRegGIE, 1u);
    impl.completionMode = "interrupt";
  } catch (const std::exception& e) {
    impl.irq.reset();
    impl.completionMode = fmt::format("polled every {} us (no IP interrupt: {})", impl.options.pollInterval.count(), e.what());
  }
}

}  // namespace

Result<std::unique_ptr<XrtBackend>> XrtBackend::open(const XrtBackendOptions& options) {
  if (options.xclbinPath.empty()) {
    return invalidArgument("the xrt device needs an xclbin: --xclbin FILE or NNFAB_XCLBIN (docs/deploy.md)");
  }
  auto check = checkXclbin(options.xclbinPath);
  if (!check) return check.status();
  auto impl = std::make_unique<Impl>();
  impl->options = options;
  impl->check = *check;
  try {
    // (enumerate_devices() counts cards only: it is 0 under hw_emu.)
    impl->device = xrt::device(options.deviceIndex);
  } catch (const std::exception& e) {
    return fromXrt(e, fmt::format("no card xrt:{}", options.deviceIndex));
  }
  try {
    // The hw_emu shim prints its progress on stdout (printf), where nnfab's
    // result goes: send it to stderr while the xclbin loads. Flushed first:
    // the shim forks, and unflushed output would be written twice.
    StdoutToStderr quiet;
    impl->uuid = impl->device.load_xclbin(options.xclbinPath);
    impl->ip = xrt::ip(impl->device, impl->uuid, impl->check.cuName);
  } catch (const std::exception& e) {
    return fromXrt(e, fmt::format("loading {}", options.xclbinPath));
  }
  uint32_t id = 0, version = 0;
  try {
    id = impl->ip.read_register(isa::kRegID);
    version = impl->ip.read_register(isa::kRegISA_VERSION);
  } catch (const std::exception& e) {
    return fromXrt(e, "reading the core's ID and ISA_VERSION registers");
  }
  if (id != isa::kCORE_ID || version != isa::kIsaVersion) {
    return invalidArgument(fmt::format(
        "xrt: the core in {} reports ID 0x{:08x}, ISA_VERSION {}; this build drives ID 0x{:08x}, ISA_VERSION {}: "
        "rebuild the xclbin or nnfab from the same isa/isa.json",
        options.xclbinPath, id, version, isa::kCORE_ID, isa::kIsaVersion));
  }
  enableDoneInterrupt(*impl);
  // Said once per card opened: the windows share a bank.
  if (const std::string note = windowSharingNote(impl->check.windows, impl->check.tags()); !note.empty()) {
    std::fprintf(stderr, "xrt: %s: %s\n", options.xclbinPath.c_str(), note.c_str());
  }
  return std::unique_ptr<XrtBackend>(new XrtBackend(std::move(impl)));
}

// Window A's bank: where allocate() puts everything a run needs besides
// windows B and D, the bound the runtime checks a program's memory against.
uint64_t XrtBackend::memoryBytes() const { return impl_->check.bytesOf(impl_->check.windows.a); }

double XrtBackend::clockMhz() const { return isa::kNOMINAL_CLOCK_MHZ; }

Result<fabric::DeviceAddress> XrtBackend::Impl::allocateIn(int32_t bank, uint64_t bytes) {
  if (bytes == 0) bytes = 1;
  const uint64_t capacity = check.bytesOf(bank);
  if (bytes > capacity) {
    return Status(ErrorStatus::RESOURCE_EXHAUSTED_PERSISTENT,
                  fmt::format("{} bytes do not fit the {} bytes of {}", bytes, capacity, tagOf(check, bank)));
  }
  if (failed) return Status(ErrorStatus::DEVICE_UNAVAILABLE, kFailedMessage);
  try {
    xrt::bo bo(device, bytes, xrt::bo::flags::normal, static_cast<xrt::memory_group>(bank));
    const fabric::DeviceAddress address = bo.address();
    std::lock_guard<std::mutex> lock(mutex);
    buffers.emplace(address, std::move(bo));
    return address;
  } catch (const std::exception& e) {
    return Status(ErrorStatus::RESOURCE_EXHAUSTED_TRANSIENT,
                  fmt::format("xrt: allocating {} bytes in {}: {}", bytes, tagOf(check, bank), e.what()));
  }
}

Result<fabric::DeviceAddress> XrtBackend::allocate(uint64_t bytes) {
  return impl_->allocateIn(impl_->check.windows.a, bytes);
}

Result<fabric::DeviceAddress> XrtBackend::allocateWindow(uint64_t bytes, fabric::DataWindow window) {
  return impl_->allocateIn(impl_->check.windows.of(window), bytes);
}

void XrtBackend::release(fabric::DeviceAddress address) {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  impl_->buffers.erase(address);
}

Status XrtBackend::copyToDevice(fabric::DeviceAddress dst, const void* src, uint64_t bytes) {
  if (impl_->failed) return Status(ErrorStatus::DEVICE_UNAVAILABLE, kFailedMessage);
  std::lock_guard<std::mutex> lock(impl_->mutex);
  uint64_t offset = 0;
  xrt::bo* bo = impl_->find(dst, bytes, &offset);
  if (!bo) return invalidArgument(fmt::format("xrt: [0x{:x}, +{}) is not inside one allocation", dst, bytes));
  if (bytes == 0) return Status::ok();
  try {
    bo->write(src, bytes, offset);
    bo->sync(XCL_BO_SYNC_BO_TO_DEVICE, bytes, offset);
  } catch (const std::exception& e) {
    return fromXrt(e, "copying to the card");
  }
  return Status::ok();
}

Status XrtBackend::copyFromDevice(void* dst, fabric::DeviceAddress src, uint64_t bytes) {
  if (impl_->failed) return Status(ErrorStatus::DEVICE_UNAVAILABLE, kFailedMessage);
  std::lock_guard<std::mutex> lock(impl_->mutex);
  uint64_t offset = 0;
  xrt::bo* bo = impl_->find(src, bytes, &offset);
  if (!bo) return invalidArgument(fmt::format("xrt: [0x{:x}, +{}) is not inside one allocation", src, bytes));
  if (bytes == 0) return Status::ok();
  try {
    bo->sync(XCL_BO_SYNC_BO_FROM_DEVICE, bytes, offset);
    bo->read(dst, bytes, offset);
  } catch (const std::exception& e) {
    return fromXrt(e, "copying from the card");
  }
  return Status::ok();
}

void XrtBackend::writeRegister(uint32_t offset, uint32_t value) {
  if (offset % sizeof(uint32_t) != 0 || offset >= isa::kRegWindowBytes || impl_->failed) return;
  try {
    impl_->ip.write_register(offset, value);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "xrt: register write at 0x%x failed: %s\n", offset, e.what());
    impl_->failed = true;
  }
}

uint32_t XrtBackend::readRegister(uint32_t offset) {
  if (offset % sizeof(uint32_t) != 0 || offset >= isa::kRegWindowBytes || impl_->failed) return 0;
  try {
    return impl_->ip.read_register(offset);
  } catch (const std::exception& e) {
    // A card gone mid-run: the driver sees a core that never finishes and
    // its watchdog fails the step.
    std::fprintf(stderr, "xrt: register read at 0x%x failed: %s\n", offset, e.what());
    impl_->failed = true;
    return 0;
  }
}

fabric::WaitOutcome XrtBackend::waitDone(std::chrono::nanoseconds timeout) {
  CompletionHooks hooks;
  // AP_DONE is clear-on-read: once seen here CoreDriver does not need it again.
  hooks.done = [this] { return (readRegister(isa::kRegAP_CTRL) & isa::kAP_DONE) != 0; };
  if (impl_->irq && !impl_->failed) {
    hooks.waitInterrupt = [this](std::chrono::milliseconds slice) {
      try {
        return impl_->irq->wait(slice) == std::cv_status::no_timeout;
      } catch (const std::exception&) {
        return false;  // a card gone: the next register read marks it failed
      }
    };
    hooks.acknowledgeInterrupt = [this] { writeRegister(isa::kRegISR, kDoneInterrupt); };
  }
  CompletionTiming timing;
  timing.pollInterval = impl_->options.pollInterval;
  return waitForCompletion(hooks, timing, timeout, impl_->wakeups);
}

void XrtBackend::wakeWaiter() { ++impl_->wakeups; }

Status XrtBackend::usable() const {
  return impl_->failed ? Status(ErrorStatus::DEVICE_UNAVAILABLE, kFailedMessage) : Status::ok();
}

void XrtBackend::reset() {
  // No ap_rst_n through XRT for one CU, and the register soft reset did not
  // complete: the core still owes AXI transactions its memory never answers.
  // Say it once and fail what follows.
  if ((readRegister(isa::kRegAP_CTRL) & isa::kAP_IDLE) == 0 && !impl_->failed.exchange(true)) {
    std::fprintf(stderr,
                 "xrt: the nnfab core did not complete its soft reset (its memory does not answer); reset the card "
                 "(xbutil reset) before using it again\n");
  }
}

std::string XrtBackend::description() const {
  std::string name = "card";
  try {
    name = impl_->device.get_info<xrt::info::device::name>();
  } catch (const std::exception&) {
    // hw_emu and noop do not answer this query.
  }
  return fmt::format("{}, xclbin {}, {}, completion {}", name, impl_->uuid.to_string(),
                     describeWindowBanks(impl_->check.windows, impl_->check.tags()), impl_->completionMode);
}

const XclbinCheck& XrtBackend::xclbin() const { return impl_->check; }

std::vector<XrtCard> listXrtCards() {
  std::vector<XrtCard> cards;
  try {
    const unsigned n = xrt::system::enumerate_devices();
    for (unsigned i = 0; i < n; ++i) {
      XrtCard card;
      card.index = i;
      try {
        xrt::device d(i);
        card.name = d.get_info<xrt::info::device::name>();
        card.xclbinUuid = d.get_xclbin_uuid().to_string();
      } catch (const std::exception& e) {
        card.name = std::string("(") + e.what() + ")";
      }
      cards.push_back(card);
    }
  } catch (const std::exception&) {
    // No XRT driver or no root: no cards.
  }
  return cards;
}

}  // namespace nnfab::backends
