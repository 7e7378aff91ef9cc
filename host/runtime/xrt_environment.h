// The process environment XRT 2.13 (Debian) needs, prepared by the runtime
// (docs/xrt-emu.md): XRT loads its shim from $XILINX_XRT/lib, but Debian puts
// the libraries in the multiarch folder, so XILINX_XRT points at a folder of
// ours whose lib/ links there; for hw_emu also XCL_EMULATION_MODE, USER
// (else the shim's socket path ignores the socket id), an xrt.ini and an
// emconfig.json. Everything lives in one temporary folder removed at exit.
#pragma once

#include <string>

#include "model/status.h"

namespace nnfab::runtime {

// The session folder (created on first call); empty with *error on failure.
std::string xrtSessionFolder(std::string* error);

// XILINX_XRT for real cards, unless the user set it. Call before XRT is first used.
Status prepareXrtCardEnvironment();

// Everything hw_emu needs. Call before XRT is first used in this process:
// XRT picks its shim once.
Status prepareXrtEmuEnvironment();

}  // namespace nnfab::runtime
