#pragma once

#include <string>

#include "runtime/device.h"

namespace nnfab::cli {

// The device a command's --device names, or `fallback` when it names none;
// nullptr with *error set ("unknown device ... this build has: ...") when
// no device of this build has that name.
const Device* resolveDevice(const std::string& name, const Device& fallback, std::string* error);

}  // namespace nnfab::cli
