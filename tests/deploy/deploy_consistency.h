// Checks, without Vitis, that every description of the nnfab_core kernel
// agrees (docs/deploy.md, "What was verified"):
//   isa/isa.json (registers, "kernel" block)  -- the one source
//   the generated nnfab_isa.h                 -- register offsets, ISA version
//   the generated kernel.xml                  -- args, ports, protocol
//   the RTL top's ports (Verilator --xml-only of rtl/nnfab_core.sv)
//   the HLS top's interface pragmas (hls/nnfab_core.cpp) -- same map, same ports
//   bitstreams/*.cfg                          -- nk, sp, slr, kernel_frequency
//   constraints/                              -- the out-of-context clock
// Each disagreement is one line in the result; an empty result means all agree.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace nnfab::deploy {

struct DeploySources {
  std::filesystem::path isaJson;
  std::filesystem::path isaHeader;   // generated nnfab_isa.h
  std::filesystem::path kernelXml;   // generated kernel.xml
  std::filesystem::path rtlXml;      // verilator --xml-only of nnfab_core
  std::filesystem::path hlsTop;      // hls/nnfab_core.cpp
  std::filesystem::path bitstreamsDir;
  std::filesystem::path constraintsDir;
};

std::vector<std::string> checkDeployConsistency(const DeploySources& sources);

}  // namespace nnfab::deploy
