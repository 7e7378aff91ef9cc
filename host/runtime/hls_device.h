#pragma once

#include "runtime/device.h"

namespace nnfab {

// The HLS kernel as Vitis HLS C-simulation (host/backends/hls_backend.h).
const Device& hlsDevice();

}  // namespace nnfab
