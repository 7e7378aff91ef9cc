#include "runtime/sim_device.h"

#include <cstdlib>

#include "backends/sim_backend.h"
#include "runtime/fabric_device.h"

namespace nnfab {

const Device& simDevice() {
  static const FabricDevice device(
      "sim", "RTL core under Verilator (cycle-accurate AXI memory model at 300 MHz); other operations on the CPU",
      isa::kNOMINAL_CLOCK_MHZ, [] {
        backends::SimBackendOptions options;
        if (const char* trace = std::getenv("NNFAB_SIM_TRACE"); trace != nullptr) options.traceFile = trace;
        return std::make_unique<backends::SimBackend>(options);
      });
  return device;
}

}  // namespace nnfab
