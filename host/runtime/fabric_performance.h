// NNAPI capabilities of a fabric device, derived from the cycle model of
// docs/isa.md at the device's kernel clock against the CPU executor's
// measured costs (docs/runtime.md "Capabilities" shows the arithmetic).
#pragma once

#include "runtime/device.h"

namespace nnfab::runtime {

DeviceCapabilities fabricCapabilities(double clockMhz);

}  // namespace nnfab::runtime
