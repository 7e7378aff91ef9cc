#pragma once

#include "runtime/device.h"

namespace nnfab {

// The RTL core under Verilator (host/backends/sim_backend.h). The
// environment variable NNFAB_SIM_TRACE=<file.fst> records a waveform of
// everything the device clocks (docs/sim.md).
const Device& simDevice();

}  // namespace nnfab
