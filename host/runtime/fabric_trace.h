// What a fabric step's trace ring says, as timeline events (docs/runtime.md
// "Timeline"): one span per WHILE iteration inside the program, one instant
// per IF branch taken and per loop exit, the program as a whole with its
// cycles per instruction class, and a note when the ring overflowed.
#pragma once

#include <cstdint>
#include <vector>

#include "fabric/device_trace.h"
#include "model/trace_sink.h"

namespace nnfab::runtime {

// `code` is the program the trace was recorded from; `cycles` its CYCLES.
// A conditional branch without BACKEDGE is a WHILE's entry test when the
// instruction before its target is a back edge jumping back between the two
// (the compiler's rotated loop, docs/compiler.md), otherwise an IF (taken:
// the else branch). A back edge taken ends one iteration, not taken the
// last one.
std::vector<TraceSink::DeviceEvent> fabricTraceEvents(const std::vector<uint64_t>& code,
                                                      const fabric::DeviceTrace& trace, uint64_t cycles);

}  // namespace nnfab::runtime
