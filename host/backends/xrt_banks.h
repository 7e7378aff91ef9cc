// Which memory bank of a card holds which window of the data region
// (docs/isa.md "Memory model", docs/xrt.md "Memory"). Pure functions of the
// xclbin's connectivity, so that they are tested without a card: the xrt
// backend reads the banks of each port from the xclbin and asks here.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "fabric/fabric_backend.h"
#include "model/status.h"

namespace nnfab::backends {

// One entry of the xclbin's memory topology (MEM_TOPOLOGY, or with Vitis'
// grouping GROUP_TOPOLOGY, whose extra entries span several banks).
struct XrtMemory {
  int32_t index = 0;
  std::string tag;
  uint64_t base = 0;
  uint64_t bytes = 0;
  bool used = true;  // false: unused or a stream, never a bank
};

// The banks a port reaches: each memory it is connected to, broken down into
// the banks that memory spans. Vitis connects a port with sp=...:HBM[0:2] to
// one group entry covering HBM[0], HBM[1] and HBM[2]; a buffer then lives in
// one of those, so the windows are placed by bank, not by group. Sorted by
// index; a memory that spans no other entry is a bank itself, and so is a
// group whose banks are all marked unused.
std::vector<int32_t> banksReached(const std::vector<int32_t>& connected, const std::vector<XrtMemory>& memories);

// The memory banks each AXI4 master of the nnfab kernel reaches.
struct XrtPortBanks {
  std::vector<int32_t> prog, data, srcb, dst;
  std::vector<std::string> tags;  // index -> tag, for messages (may be short)
};

// The bank of each window and of everything else (program, context, traces,
// scalars: allocate()), which is window A's.
struct XrtWindowBanks {
  int32_t a = 0, b = 0, d = 0;
  // Banks common to the three data ports (each reaches every window).
  std::vector<int32_t> common;

  int32_t of(fabric::DataWindow window) const {
    return window == fabric::DataWindow::B ? b : window == fabric::DataWindow::D ? d : a;
  }
  // How many different banks the three windows use (1..3).
  int distinct() const { return 1 + (b != a) + (d != a && d != b); }
};

// Window A in a bank of m_axi_prog and all three data ports; B and D in banks
// every data port reaches (docs/isa.md: every port reaches every window),
// each in a bank of its own where the connectivity has three, else sharing
// (correct, slower): with two common banks B and D share the one that is not
// A's, since A's also serves the program, the context and every scalar
// access; with one, all three share it. INVALID_ARGUMENT, naming the ports and their banks,
// when the data ports have no bank in common or the program port none of
// theirs.
Result<XrtWindowBanks> chooseWindowBanks(const XrtPortBanks& ports);

// "window A in HBM[0], B in HBM[1], D in HBM[2]": what the device's
// description says.
std::string describeWindowBanks(const XrtWindowBanks& windows, const std::vector<std::string>& tags);

// Where the windows share a bank (correct, slower), the one line the backend
// logs when it opens the card; "" where each has its own.
std::string windowSharingNote(const XrtWindowBanks& windows, const std::vector<std::string>& tags);

}  // namespace nnfab::backends
