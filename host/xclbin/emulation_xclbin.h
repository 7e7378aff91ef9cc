// The xclbin of the xrt-emu device: the nnfab kernel (from kernel.xml) with
// one compute unit and three memory banks (one per window of the data
// region, docs/isa.md "Memory model"), and a BITSTREAM that is not a
// bitstream: a zip holding behav_waveform/xsim/simulate.sh, which XRT's
// hw_emu shim unpacks and runs in place of an XSim simulation, and which
// execs nnfab's device process (sim/xrt_emu). docs/xrt-emu.md.
#pragma once

#include <string>
#include <vector>

#include "model/status.h"
#include "xclbin/xclbin_writer.h"

namespace nnfab::xclbin {

struct EmulationXclbinOptions {
  std::string kernelXmlPath;   // empty: this build's (builtKernelXml())
  std::string deviceProgram;   // absolute path of nnfab-hwemu-device
  // The first bank; bankCount banks of bank.bytes each, tagged HBM[0],
  // HBM[1], ... at bank.base + i * bankStride(), like a card's HBM
  // pseudo-channels. Every data port (m_axi_data, m_axi_srcb, m_axi_dst) is
  // connected to all of them, m_axi_prog to the first: the xrt backend puts
  // windows A, B and D of the data region in three banks (docs/xrt-emu.md).
  MemoryBank bank{"HBM[0]", 0x4000000000, uint64_t{1} << 30};
  unsigned bankCount = 3;
  uint64_t cuBase = 0x1800000;

  // Twice a bank's size: a gap between two banks, so that no access runs
  // from one into the next unnoticed.
  uint64_t bankStride() const { return 2 * bank.bytes; }
  // The banks as the xclbin lists them.
  std::vector<MemoryBank> banks() const;
};

// The zip XRT's shim unpacks: behav_waveform/xsim/simulate.sh running
// `deviceProgram` with `arguments`. Made with Debian's `zip`.
Result<std::string> emulationBitstream(const std::string& deviceProgram, const std::string& arguments);

Result<std::string> buildEmulationXclbin(const EmulationXclbinOptions& options);

}  // namespace nnfab::xclbin
