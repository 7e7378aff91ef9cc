// The trace a core records during a start with MODE.TRACE (docs/isa.md
// "Trace ring"): the ring's entries, how many did not fit, and the cycles
// per instruction class. CoreDriver reads it after each stop of a profiled
// run; FabricEngine joins the starts of one step (keep-first, as one start).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "fabric/fabric_backend.h"
#include "fabric/registers.h"
#include "isa/trace_classes.h"

namespace nnfab::fabric {

// The trace area a profiled start's ring is written to when the core can
// (FEATURES.FEATURE_TRACE_DMA, TRACE_ADDR): TRACE_DEPTH entries of 8 bytes.
inline constexpr uint64_t kTraceAreaBytes = uint64_t{isa::kTRACE_DEPTH} * sizeof(uint64_t);

struct TraceEntry {
  uint64_t cycle = 0;  // CYCLES when the branch issued (48 bits)
  uint32_t pc = 0;
  bool taken = false;
  bool backedge = false;
};
TraceEntry decodeTraceEntry(uint64_t raw);

struct DeviceTrace {
  std::vector<uint64_t> entries;  // raw ring entries, oldest first
  uint64_t dropped = 0;           // traced branches that found the ring full
  std::array<uint64_t, isa::kNumTraceClasses> classCycles{};

  // `later` (the next start of the same step) after this one: entries up to
  // TRACE_DEPTH, the rest counted as dropped, the class cycles summed.
  void append(const DeviceTrace& later);
};

// Reading a stopped core's trace: TRACE_COUNT, TRACE_DROPPED and
// CLASS_CYCLES_* go into a register batch the caller runs anyway
// (CoreDriver's batch at the stop), then finish() reads the TRACE_COUNT
// entries: with a trace area (the core wrote them to TRACE_ADDR before
// AP_DONE) in one copyFromDevice, else (area 0: a core without
// FEATURE_TRACE_DMA) through the control slave's window in one more
// accessRegisters call.
class TraceReadout {
 public:
  void addTo(RegisterBatch& batch);
  DeviceTrace finish(const RegisterBatch& batch, FabricBackend& backend, DeviceAddress area = 0) const;

 private:
  size_t countAt_ = 0, droppedAt_ = 0;
  std::array<size_t, isa::kNumTraceClasses> classAt_{};
};

// Reads TRACE_COUNT, TRACE_DROPPED, CLASS_CYCLES_* and the ring's entries
// (through the window) from a stopped core.
DeviceTrace readDeviceTrace(FabricBackend& backend);

}  // namespace nnfab::fabric
