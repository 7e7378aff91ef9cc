// The xrt device's backend: the nnfab kernel on an Alveo card (or XRT's
// hw_emu emulation of one, docs/xrt-emu.md) through XRT's native C++ API.
// The kernel is packaged user_managed: XRT's scheduler never touches it, and
// CoreDriver drives every register through xrt::ip (start, preemption,
// slices, resume, the clear-on-read AP_DONE; with ap_ctrl_hs XRT would poll
// offset 0 as well and steal AP_DONE). Device memory is one xrt::bo per
// allocation: a window of the data region in its port's bank, everything
// else in window A's (the bank m_axi_prog shares with the data ports), as
// the xclbin's connectivity allows (backends/xrt_banks.h); program and data
// move with bo.sync. Completion: AP_CTRL polled every
// pollInterval (XRT 2.13 offers xrt::ip interrupts only on a card's xocl
// driver; docs/xrt.md says why polling is used everywhere). docs/xrt.md.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "backends/xrt_banks.h"
#include "fabric/fabric_backend.h"
#include "model/status.h"

namespace nnfab::backends {

struct XrtBackendOptions {
  unsigned deviceIndex = 0;
  std::string xclbinPath;
  // How often waitDone reads AP_CTRL while the core runs: one AXI4-Lite
  // read over PCIe costs ~1-2 us, so 50 us keeps the overhead ~3%.
  std::chrono::microseconds pollInterval{50};
};

// What the xclbin says about the nnfab kernel, checked against this build.
struct XclbinCheck {
  std::string kernelName;
  std::string cuName;                     // "<kernel>:<instance>"
  XrtWindowBanks windows;                 // the bank of each window (backends/xrt_banks.h)
  std::vector<XrtMemory> memories;        // the xclbin's memory topology

  // The memory of index `bank` (nullptr: none).
  const XrtMemory* memory(int32_t bank) const {
    for (const XrtMemory& m : memories) {
      if (m.index == bank) return &m;
    }
    return nullptr;
  }
  uint64_t bytesOf(int32_t bank) const { return memory(bank) ? memory(bank)->bytes : 0; }
  std::vector<std::string> tags() const;  // memory index -> tag
};

// Checks an xclbin file without a card: readable, an xclbin, holding this
// build's kernel (name, every argument's name, offset, size and port, from
// the kernel.xml generated from isa/isa.json) with one compute unit whose
// three data ports reach a memory bank in common, one of which the prog
// port reaches too; picks the bank of each window of the data region
// (chooseWindowBanks). INVALID_ARGUMENT naming the first difference.
Result<XclbinCheck> checkXclbin(const std::string& path);

class XrtBackend final : public fabric::FabricBackend {
 public:
  // Opens card `deviceIndex`, checks and loads the xclbin, opens the compute
  // unit and checks the ID and ISA_VERSION registers. DEVICE_UNAVAILABLE
  // when XRT finds no such card (or cannot start), INVALID_ARGUMENT for a
  // foreign or unreadable xclbin or a core of another ISA version.
  static Result<std::unique_ptr<XrtBackend>> open(const XrtBackendOptions& options);
  ~XrtBackend() override;
  XrtBackend(const XrtBackend&) = delete;
  XrtBackend& operator=(const XrtBackend&) = delete;

  std::string_view name() const override { return "xrt"; }
  uint64_t memoryBytes() const override;
  double clockMhz() const override;

  // In window A's bank: program, context, traces and the data region of
  // a driver that does not split it.
  Result<fabric::DeviceAddress> allocate(uint64_t bytes) override;
  // In the bank chosen for `window` (XclbinCheck::windows).
  Result<fabric::DeviceAddress> allocateWindow(uint64_t bytes, fabric::DataWindow window) override;
  void release(fabric::DeviceAddress address) override;
  Status copyToDevice(fabric::DeviceAddress dst, const void* src, uint64_t bytes) override;
  Status copyFromDevice(void* dst, fabric::DeviceAddress src, uint64_t bytes) override;

  void writeRegister(uint32_t offset, uint32_t value) override;
  uint32_t readRegister(uint32_t offset) override;
  // On the core's done interrupt where XRT offers it, else polling AP_CTRL
  // every pollInterval (backends/xrt_completion.h).
  fabric::WaitOutcome waitDone(std::chrono::nanoseconds timeout) override;
  void wakeWaiter() override;
  // XRT 2.13 has no per-CU reset for a user_managed kernel, so a hung core
  // is recovered through its registers (fabric/soft_reset.h, the same on
  // every device). reset() is the last resort, reached only when that soft
  // reset did not complete (a memory that never answers): the core stays
  // hung until `xbutil reset` (docs/xrt.md); reset() records that, and every
  // later access reports the device as failed.
  void reset() override;
  Status usable() const override;  // DEVICE_UNAVAILABLE once the card stopped answering

  // The card's name, the loaded xclbin's UUID and the windows' banks, for
  // `nnfab devices`.
  std::string description() const;
  // What open() read from the xclbin: the memories and the windows' banks.
  const XclbinCheck& xclbin() const;

  struct Impl;

 private:
  static void releaseAllAtExit();
  explicit XrtBackend(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// One card XRT sees.
struct XrtCard {
  unsigned index = 0;
  std::string name;
  std::string xclbinUuid;  // of the loaded xclbin; empty when none
};

// Every card XRT sees; empty (no error) without cards or without a usable
// XRT installation.
std::vector<XrtCard> listXrtCards();

}  // namespace nnfab::backends
