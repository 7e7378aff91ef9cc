#pragma once

#include <string>

#include "model/status.h"
#include "runtime/device.h"

namespace nnfab::cli {

// The device a command's --device names, or `fallback` when it names none;
// nullptr with *error set ("unknown device ... this build has: ...") when
// no device of this build has that name. The XRT devices (xrt, xrt:N,
// xrt-emu) are opened here, so that a missing card or a foreign xclbin is
// reported before anything runs: a usage problem (no or foreign xclbin)
// sets *error; a device that cannot open (no card, XRT failing) sets
// *unavailable when given (else *error).
const Device* resolveDevice(const std::string& name, const Device& fallback, std::string* error,
                            Status* unavailable = nullptr);

}  // namespace nnfab::cli
