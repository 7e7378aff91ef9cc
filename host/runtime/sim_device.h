#pragma once

#include <string>

#include "runtime/device.h"

namespace nnfab {

// The RTL core under Verilator (host/backends/sim_backend.h).
const Device& simDevice();

// Records an FST waveform of everything the sim device clocks into `file`
// (`nnfab run --trace FILE`; the environment variable NNFAB_SIM_TRACE does the
// same for any program). The trace is opened when the device first runs, so
// this returns false once it has: a waveform that starts mid-way would be a
// different thing from what the user asked for.
bool setSimTraceFile(const std::string& file);

}  // namespace nnfab
