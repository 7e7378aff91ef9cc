#pragma once

#include "runtime/device.h"

namespace nnfab {

// The CPU reference executor as a device.
const Device& cpuDevice();

}  // namespace nnfab
