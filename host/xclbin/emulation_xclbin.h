// The xclbin of the xrt-emu device: the nnfab kernel (from kernel.xml) with
// one compute unit and one DDR bank, and a BITSTREAM that is not a
// bitstream: a zip holding behav_waveform/xsim/simulate.sh, which XRT's
// hw_emu shim unpacks and runs in place of an XSim simulation, and which
// execs nnfab's device process (sim/xrt_emu). docs/xrt-emu.md.
#pragma once

#include <string>

#include "model/status.h"
#include "xclbin/xclbin_writer.h"

namespace nnfab::xclbin {

struct EmulationXclbinOptions {
  std::string kernelXmlPath;   // empty: this build's (builtKernelXml())
  std::string deviceProgram;   // absolute path of nnfab-hwemu-device
  MemoryBank bank;
  uint64_t cuBase = 0x1800000;
};

// The zip XRT's shim unpacks: behav_waveform/xsim/simulate.sh running
// `deviceProgram` with `arguments`. Made with Debian's `zip`.
Result<std::string> emulationBitstream(const std::string& deviceProgram, const std::string& arguments);

Result<std::string> buildEmulationXclbin(const EmulationXclbinOptions& options);

}  // namespace nnfab::xclbin
