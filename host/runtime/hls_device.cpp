#include "runtime/hls_device.h"

#include "backends/hls_backend.h"
#include "runtime/fabric_device.h"
#include "runtime/fabric_performance.h"

namespace nnfab {

const Device& hlsDevice() {
  static const FabricDevice device(
      "hls", "HLS kernel as C-simulation (cycle model at 300 MHz); other operations on the CPU",
      isa::kNOMINAL_CLOCK_MHZ,
      [] { return std::make_unique<backends::HlsBackend>(); }, runtime::EngineOptions{},
      runtime::handoffCosts(runtime::kHlsFabricStepNs),
      FabricDevice::FeaturesFromBackend{});
  return device;
}

}  // namespace nnfab
