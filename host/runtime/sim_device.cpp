#include "runtime/sim_device.h"

#include <cstdlib>
#include <mutex>

#include "backends/sim_backend.h"
#include "runtime/fabric_device.h"
#include "runtime/fabric_performance.h"

namespace nnfab {
namespace {

struct TraceSetting {
  std::mutex mutex;
  std::string file;
  bool started = false;  // the backend exists: too late to change the trace
};

TraceSetting& traceSetting() {
  static TraceSetting setting;
  return setting;
}

}  // namespace

bool setSimTraceFile(const std::string& file) {
  TraceSetting& t = traceSetting();
  const std::lock_guard<std::mutex> lock(t.mutex);
  if (t.started) return false;
  t.file = file;
  return true;
}

const Device& simDevice() {
  static const FabricDevice device(
      "sim", "RTL core under Verilator (cycle-accurate AXI memory model at 300 MHz); other operations on the CPU",
      isa::kNOMINAL_CLOCK_MHZ, [] {
        backends::SimBackendOptions options;
        TraceSetting& t = traceSetting();
        const std::lock_guard<std::mutex> lock(t.mutex);
        t.started = true;
        if (!t.file.empty()) {
          options.traceFile = t.file;
        } else if (const char* trace = std::getenv("NNFAB_SIM_TRACE"); trace != nullptr) {
          options.traceFile = trace;
        }
        return std::make_unique<backends::SimBackend>(options);
      },
      runtime::EngineOptions{}, runtime::handoffCosts(runtime::kSimFabricStepNs),
      // The RTL's own answer, from the engine's model (made then).
      FabricDevice::FeaturesFromBackend{});
  return device;
}

}  // namespace nnfab
