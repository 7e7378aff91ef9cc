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
// (FEATURES.FEATURE_TRACE_DMA, TRACE_ADDR): the header beat (a core with
// FEATURE_TRACE_HEADER writes it; one without leaves those bytes alone and
// puts its entries at the area's start) and TRACE_DEPTH entries of 8 bytes.
inline constexpr uint64_t kTraceAreaBytes =
    uint64_t{isa::kTRACE_HEADER_BYTES} + uint64_t{isa::kTRACE_DEPTH} * sizeof(uint64_t);

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

// Reading a stopped core's trace. With a header (FEATURE_TRACE_HEADER: the
// core wrote the counters and the entries to the area before AP_DONE),
// finish() reads the whole area in one copyFromDevice and no register.
// Without: TRACE_COUNT, TRACE_DROPPED and CLASS_CYCLES_* go into a register
// batch the caller runs anyway (CoreDriver's batch at the stop), then
// finish() reads the TRACE_COUNT entries: with a trace area
// (FEATURE_TRACE_DMA) in one copyFromDevice, else (area 0) through the
// control slave's window in one more accessRegisters call.
class TraceReadout {
 public:
  // area: TRACE_ADDR of the start (0: none); header: the core writes the
  // header beat there (FEATURE_TRACE_HEADER; needs an area).
  explicit TraceReadout(DeviceAddress area = 0, bool header = false) : area_(area), header_(header && area != 0) {}
  void addTo(RegisterBatch& batch);  // nothing to add with a header
  // scratch: a buffer of kTraceAreaBytes the area may be copied into
  // (CoreDriver's, touched ahead); nullptr: a buffer of its own. spare: a
  // vector reserved ahead for the entries (CoreDriver's), taken (left
  // empty, without capacity) when the entries are copied into it; nullptr
  // or none reserved: the entries get a vector of their own.
  DeviceTrace finish(const RegisterBatch& batch, FabricBackend& backend, uint64_t* scratch = nullptr,
                     std::vector<uint64_t>* spare = nullptr) const;

 private:
  DeviceAddress area_ = 0;
  bool header_ = false;
  size_t countAt_ = 0, droppedAt_ = 0;
  std::array<size_t, isa::kNumTraceClasses> classAt_{};
};

// The counters of a trace area's header beat (TRACE_HEADER_BYTES, as the
// core wrote it) into `trace`; returns TRACE_COUNT (at most TRACE_DEPTH).
uint32_t decodeTraceHeader(const uint64_t* header, DeviceTrace& trace);

// Reads TRACE_COUNT, TRACE_DROPPED, CLASS_CYCLES_* and the ring's entries
// (through the window) from a stopped core.
DeviceTrace readDeviceTrace(FabricBackend& backend);

}  // namespace nnfab::fabric
