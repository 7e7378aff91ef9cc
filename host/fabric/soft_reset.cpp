#include "fabric/soft_reset.h"

#include <algorithm>
#include <thread>

#include "fabric/registers.h"
#include "nnfab_isa.h"

namespace nnfab::fabric {

bool softReset(FabricBackend& backend, std::chrono::nanoseconds timeout, std::chrono::nanoseconds poll) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  backend.writeRegister(isa::kRegPREEMPT, isa::kSOFT_RESET_KEY);
  for (;;) {
    // AP_IDLE is 0 from the key's write response until the reset is
    // complete; reading AP_CTRL also collects an AP_DONE of the ended run.
    RegisterBatch look;
    const size_t ctrlAt = look.read(isa::kRegAP_CTRL);
    const size_t statusAt = look.read(isa::kRegSTATUS);
    look.run(backend);
    if ((look.value(ctrlAt) & isa::kAP_IDLE) != 0 && look.value(statusAt) == isa::kStatusIDLE) return true;
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) return false;
    std::this_thread::sleep_for(std::min<std::chrono::nanoseconds>(poll, deadline - now));
  }
}

ResetOutcome resetCore(FabricBackend& backend, std::chrono::nanoseconds timeout, std::chrono::nanoseconds poll) {
  if (softReset(backend, timeout, poll)) return ResetOutcome::SOFT;
  backend.reset();
  return ResetOutcome::FALLBACK;
}

}  // namespace nnfab::fabric
