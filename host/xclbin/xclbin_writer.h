// The project's own xclbin writer. Debian's xclbinutil is a broken wrapper,
// so nnfab writes the axlf container itself from the structs of XRT's
// installed xclbin.h: the sections XRT needs to load and describe one
// compute unit of the nnfab kernel (IP_LAYOUT, MEM_TOPOLOGY, CONNECTIVITY,
// EMBEDDED_METADATA) plus an optional BITSTREAM payload (for hw_emu, the zip
// with the device program's launch script: emulation_bitstream.h).
// docs/xrt-emu.md.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "model/status.h"
#include "xclbin/kernel_xml.h"

namespace nnfab::xclbin {

struct MemoryBank {
  std::string tag = "DDR[0]";          // at most 15 characters; "HBM..." is written as HBM, else DDR4
  uint64_t base = 0x4000000000;        // the card's DDR window, as on Alveo U250
  uint64_t bytes = uint64_t{1} << 30;  // multiple of 1 KiB
};

enum class XclbinMode { HW, HW_EMU };

struct XclbinSpec {
  KernelDescription kernel;
  std::string cuName;                // instance name; the IP is "<kernel>:<cuName>"
  uint64_t cuBase = 0x1800000;       // the control window's base on the card's AXI4-Lite bus
  std::vector<MemoryBank> banks{MemoryBank{}};
  // m_axi port -> the indices in banks it is connected to (one CONNECTIVITY
  // entry each); unlisted ports reach bank 0.
  std::map<std::string, std::vector<size_t>> portBanks;
  XclbinMode mode = XclbinMode::HW_EMU;
  std::string platformVbnv = "xilinx_u250_gen3x16_xdma_4_1_202210_1";
  std::array<uint8_t, 16> uuid{};    // all zero: a fresh random one
  std::string bitstream;             // BITSTREAM payload; empty: no such section
};

// The xclbin's bytes. INVALID_ARGUMENT for a spec XRT could not load (no
// kernel args, a bank index out of range, an over-long name).
Result<std::string> buildXclbin(const XclbinSpec& spec);

}  // namespace nnfab::xclbin
