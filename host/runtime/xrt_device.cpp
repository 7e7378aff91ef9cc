#include "runtime/xrt_device.h"

#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "backends/xrt_backend.h"
#include "nnfab_isa.h"
#include "runtime/fabric_device.h"
#include "runtime/fabric_performance.h"
#include "runtime/xrt_environment.h"
#ifdef NNFAB_HAS_XRT_EMU_DEVICE
#include <filesystem>
#include <fstream>

#include "xclbin/emulation_xclbin.h"
#endif

namespace nnfab {
namespace {

struct XrtState {
  std::mutex mutex;
  std::string xclbin;
  std::map<unsigned, std::unique_ptr<FabricDevice>> cards;
};

XrtState& state() {
  static XrtState s;
  return s;
}

std::string xclbinPath() {
  XrtState& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!s.xclbin.empty()) return s.xclbin;
  const char* env = std::getenv("NNFAB_XCLBIN");
  return env ? env : "";
}

// The host polls a card's registers over PCIe (~1-2 us a read): every
// 250 us as on sim. Through hw_emu every read is a socket round trip that
// interrupts the simulation, so the emulation polls every 2 ms.
runtime::EngineOptions engineOptions(bool emulation) {
  runtime::EngineOptions o;
  if (emulation) o.pollInterval = std::chrono::milliseconds(2);
  return o;
}

// A FabricDevice whose factory hands over a backend opened beforehand.
std::unique_ptr<FabricDevice> deviceOver(std::string name, std::string description,
                                         std::unique_ptr<backends::XrtBackend> backend, bool emulation) {
  // The bitstream's FEATURES register, read once now that the card is open.
  const uint32_t features = backend ? backend->readRegister(isa::kRegFEATURES) : 0u;
  auto shared = std::make_shared<std::unique_ptr<backends::XrtBackend>>(std::move(backend));
  return std::make_unique<FabricDevice>(
      std::move(name), std::move(description), isa::kNOMINAL_CLOCK_MHZ,
      [shared]() -> std::unique_ptr<fabric::FabricBackend> { return std::move(*shared); }, engineOptions(emulation),
      runtime::handoffCosts(runtime::kXrtFabricStepNs), [features] { return features; });
}

}  // namespace

void setXrtXclbin(const std::string& path) {
  XrtState& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.xclbin = path;
}

bool parseXrtDeviceName(const std::string& name, unsigned* index) {
  if (name == "xrt") {
    *index = 0;
    return true;
  }
  if (name.rfind("xrt:", 0) != 0 || name.size() == 4 || name.size() > 8) return false;
  unsigned n = 0;
  for (char c : name.substr(4)) {
    if (c < '0' || c > '9') return false;
    n = n * 10 + static_cast<unsigned>(c - '0');
  }
  *index = n;
  return true;
}

Result<std::unique_ptr<backends::XrtBackend>> openXrtCardBackend(unsigned index) {
  if (Status st = runtime::prepareXrtCardEnvironment(); !st) return st;
  backends::XrtBackendOptions options;
  options.deviceIndex = index;
  options.xclbinPath = xclbinPath();
  return backends::XrtBackend::open(options);
}

Result<const Device*> openXrtDevice(unsigned index) {
  XrtState& s = state();
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    if (auto it = s.cards.find(index); it != s.cards.end()) return static_cast<const Device*>(it->second.get());
  }
  auto backend = openXrtCardBackend(index);
  if (!backend) return backend.status();
  const std::string description = fmt::format("nnfab kernel on {}; other operations on the CPU", (*backend)->description());
  std::lock_guard<std::mutex> lock(s.mutex);
  auto& slot = s.cards[index];
  if (!slot) slot = deviceOver(fmt::format("xrt:{}", index), description, std::move(*backend), false);
  return static_cast<const Device*>(slot.get());
}

std::vector<XrtCardRow> xrtCardRows() {
  std::vector<XrtCardRow> rows;
  // Under an emulation mode XRT would list the emulated device, not a card.
  if (const char* mode = std::getenv("XCL_EMULATION_MODE"); mode && *mode) return rows;
  if (!runtime::prepareXrtCardEnvironment()) return rows;
  for (const auto& card : backends::listXrtCards()) {
    rows.push_back({fmt::format("xrt:{}", card.index),
                    fmt::format("{}, xclbin {}", card.name, card.xclbinUuid.empty() ? "none" : card.xclbinUuid)});
  }
  return rows;
}

#ifdef NNFAB_HAS_XRT_EMU_DEVICE
namespace {

struct EmuState {
  std::mutex mutex;
  bool tried = false;
  Status status;
  std::unique_ptr<backends::XrtBackend> backend;  // until the device's engine takes it
};

EmuState& emuState() {
  static EmuState s;
  return s;
}

Result<std::string> emulationXclbin() {
  if (const char* given = std::getenv("NNFAB_XRT_EMU_XCLBIN"); given && *given) return std::string(given);
  std::string error;
  const std::string folder = runtime::xrtSessionFolder(&error);
  if (folder.empty()) return generalFailure(error);
  xclbin::EmulationXclbinOptions options;
  const char* program = std::getenv("NNFAB_HWEMU_DEVICE");
  options.deviceProgram = program && *program ? program : NNFAB_HWEMU_DEVICE_PROGRAM;
  options.bank.bytes = uint64_t{256} << 20;  // as the sim device
  auto bytes = xclbin::buildEmulationXclbin(options);
  if (!bytes) return bytes.status();
  const std::string path = (std::filesystem::path(folder) / "nnfab_hw_emu.xclbin").string();
  std::ofstream out(path, std::ios::binary);
  out.write(bytes->data(), static_cast<std::streamsize>(bytes->size()));
  if (!out) return generalFailure("cannot write " + path);
  return path;
}

}  // namespace

Result<std::unique_ptr<backends::XrtBackend>> openXrtEmuBackend() {
  if (Status s = runtime::prepareXrtEmuEnvironment(); !s) return s;
  auto xclbin = emulationXclbin();
  if (!xclbin) return xclbin.status();
  backends::XrtBackendOptions options;
  options.xclbinPath = *xclbin;
  return backends::XrtBackend::open(options);
}

Status openXrtEmu() {
  EmuState& s = emuState();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.tried) return s.status;
  s.tried = true;
  auto backend = openXrtEmuBackend();
  if (!backend) return s.status = backend.status();
  s.backend = std::move(*backend);
  return s.status;
}

const Device& xrtEmuDevice() {
  static const FabricDevice device(
      "xrt-emu",
      "the xrt backend on XRT's hw_emu shim, whose device is the RTL under Verilator (load ~10 s); other operations "
      "on the CPU",
      isa::kNOMINAL_CLOCK_MHZ,
      []() -> std::unique_ptr<fabric::FabricBackend> {
        if (Status s = openXrtEmu(); !s) {
          spdlog::error("xrt-emu: {}", s.message());
          return nullptr;
        }
        EmuState& e = emuState();
        std::lock_guard<std::mutex> lock(e.mutex);
        return std::move(e.backend);
      },
      engineOptions(true), runtime::handoffCosts(runtime::kXrtFabricStepNs), [] {
        // The emulated bitstream's FEATURES register (opening it is what
        // the first execution would do anyway).
        if (!openXrtEmu().isOk()) return 0u;
        EmuState& e = emuState();
        std::lock_guard<std::mutex> lock(e.mutex);
        return e.backend ? e.backend->readRegister(isa::kRegFEATURES) : 0u;
      });
  return device;
}
#endif

}  // namespace nnfab
