// The RTL kernel's description as Vitis' package_xo takes it (kernel.xml:
// <root><kernel><ports><port/></ports><args><arg/></args></kernel></root>),
// read into plain structs, and re-emitted in the form an xclbin's
// EMBEDDED_METADATA section carries it (<project><platform><device><core>
// <kernel> with <port>, <arg> and <instance> children), which is what XRT
// reads argument offsets and the register range from. kernel.xml itself is
// generated from isa/isa.json (docs/deploy.md); this only converts it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/status.h"

namespace nnfab::xclbin {

struct KernelPort {
  std::string name;       // s_axi_control, m_axi_prog, ...
  std::string mode;       // "slave" (AXI4-Lite) or "master" (AXI4)
  uint64_t range = 0;     // address range the port decodes
  uint32_t dataWidth = 0; // bits
  std::string portType;   // "addressable", ...
};

struct KernelArg {
  std::string name;
  uint32_t addressQualifier = 0;  // 0 scalar, 1 global pointer
  uint32_t id = 0;
  std::string port;
  uint64_t size = 0;    // bytes in the register map
  uint64_t offset = 0;  // byte offset in s_axi_control
  uint64_t hostSize = 0;
  std::string type;
};

struct KernelDescription {
  std::string name;
  std::string hwControlProtocol;  // user_managed, ap_ctrl_hs, ...
  bool interrupt = false;
  std::vector<KernelPort> ports;
  std::vector<KernelArg> args;

  const KernelPort* port(const std::string& portName) const;
  const KernelArg* arg(const std::string& argName) const;
};

// kernel.xml as this build generated it from isa/isa.json (embedded at
// build time): what a card's xclbin must match.
const std::string& builtKernelXml();

// INVALID_ARGUMENT naming what is wrong (not XML, no <kernel>, an argument
// without an offset, a number that does not parse, ...).
Result<KernelDescription> parseKernelXml(const std::string& xml);

// The EMBEDDED_METADATA XML for one compute unit `instance` of `kernel` at
// `baseAddress` on the control bus.
std::string embeddedMetadata(const KernelDescription& kernel, const std::string& instance,
                             uint64_t baseAddress, const std::string& platform);

}  // namespace nnfab::xclbin
