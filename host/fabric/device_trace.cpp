#include "fabric/device_trace.h"

#include <algorithm>
#include <cstring>

#include "fabric/registers.h"
#include "nnfab_isa.h"

namespace nnfab::fabric {

namespace {
uint64_t field(uint64_t raw, uint32_t lsb, uint32_t width) { return (raw >> lsb) & ((uint64_t{1} << width) - 1u); }
}  // namespace

TraceEntry decodeTraceEntry(uint64_t raw) {
  TraceEntry e;
  e.cycle = field(raw, isa::kTraceCYCLELsb, isa::kTraceCYCLEWidth);
  e.pc = static_cast<uint32_t>(field(raw, isa::kTracePCLsb, isa::kTracePCWidth));
  e.taken = field(raw, isa::kTraceTAKENLsb, isa::kTraceTAKENWidth) != 0;
  e.backedge = field(raw, isa::kTraceBACKEDGELsb, isa::kTraceBACKEDGEWidth) != 0;
  return e;
}

void DeviceTrace::append(const DeviceTrace& later) {
  const size_t room = isa::kTRACE_DEPTH - std::min<size_t>(entries.size(), isa::kTRACE_DEPTH);
  const size_t kept = std::min(room, later.entries.size());
  entries.insert(entries.end(), later.entries.begin(), later.entries.begin() + static_cast<std::ptrdiff_t>(kept));
  dropped += later.entries.size() - kept + later.dropped;
  for (size_t k = 0; k < classCycles.size(); ++k) classCycles[k] += later.classCycles[k];
}

void TraceReadout::addTo(RegisterBatch& batch) {
  if (header_) return;  // the counters are in the area's header
  countAt_ = batch.read(isa::kRegTRACE_COUNT);
  droppedAt_ = batch.read(isa::kRegTRACE_DROPPED);
  for (uint32_t k = 0; k < isa::kNumTraceClasses; ++k) {
    classAt_[k] = batch.read64(isa::kRegCLASS_CYCLES_CTRL + k * isa::kClassCyclesStride);
  }
}

uint32_t decodeTraceHeader(const uint64_t* header, DeviceTrace& trace) {
  uint32_t w[isa::kTRACE_HEADER_BYTES / 4];
  std::memcpy(w, header, sizeof(w));  // little-endian words, as the host's
  trace.dropped = w[isa::kTraceHdrDROPPED];
  for (uint32_t k = 0; k < isa::kNumTraceClasses; ++k) {
    trace.classCycles[k] =
        (uint64_t{w[isa::kTraceHdrCLASS_CYCLES + 2 * k + 1]} << 32) | w[isa::kTraceHdrCLASS_CYCLES + 2 * k];
  }
  return std::min<uint32_t>(w[isa::kTraceHdrCOUNT], isa::kTRACE_DEPTH);
}

DeviceTrace TraceReadout::finish(const RegisterBatch& batch, FabricBackend& backend, uint64_t* scratch,
                                 std::vector<uint64_t>* spare) const {
  if (header_ && scratch != nullptr) {
    // Into the buffer set up ahead, then only the entries held copied out
    // (into the vector reserved ahead, if there is one).
    DeviceTrace trace;
    if (!backend.copyFromDevice(scratch, area_, kTraceAreaBytes)) return readDeviceTrace(backend);
    const uint32_t count = decodeTraceHeader(scratch, trace);
    const uint64_t* first = scratch + isa::kTraceHeaderWords64;
    if (spare != nullptr && spare->capacity() >= count) trace.entries.swap(*spare);
    trace.entries.assign(first, first + count);
    return trace;
  }
  if (header_) {
    // Header and entries in one copy of the whole area into the entries'
    // own buffer (the count is in the header, so the copy cannot wait for
    // it), the header then cut off. Should the copy fail, the registers and
    // the window still hold the same trace.
    DeviceTrace trace;
    std::vector<uint64_t>& words = trace.entries;
    words.resize(kTraceAreaBytes / sizeof(uint64_t));
    if (!backend.copyFromDevice(words.data(), area_, kTraceAreaBytes)) return readDeviceTrace(backend);
    const uint32_t count = decodeTraceHeader(words.data(), trace);
    words.erase(words.begin(), words.begin() + isa::kTraceHeaderWords64);
    words.resize(count);
    return trace;
  }
  const DeviceAddress area = area_;
  DeviceTrace trace;
  const uint32_t count = std::min<uint32_t>(batch.value(countAt_), isa::kTRACE_DEPTH);
  trace.dropped = batch.value(droppedAt_);
  for (uint32_t k = 0; k < isa::kNumTraceClasses; ++k) trace.classCycles[k] = batch.value64(classAt_[k]);

  // The core wrote its entries to the trace area before AP_DONE: one copy.
  // (Should the copy fail, the window below still holds them.)
  if (area != 0) {
    if (spare != nullptr && spare->capacity() >= count) trace.entries.swap(*spare);
    trace.entries.resize(count);
    if (count == 0 || backend.copyFromDevice(trace.entries.data(), area, uint64_t{count} * sizeof(uint64_t))) {
      return trace;
    }
    trace.entries.clear();
  }

  // The ring's window in one accessRegisters call (on sim one hand-off to
  // the simulation thread for the whole ring, not one per 16 entries).
  std::vector<RegisterAccess> ring(2 * size_t{count});
  for (uint32_t i = 0; i < count; ++i) {
    ring[2 * i] = RegisterAccess{RegisterAccess::Kind::READ, isa::kTRACE_RING_OFFSET + i * 8u, 0};
    ring[2 * i + 1] = RegisterAccess{RegisterAccess::Kind::READ, isa::kTRACE_RING_OFFSET + i * 8u + kRegisterHighWord, 0};
  }
  if (count != 0) backend.accessRegisters(ring);
  trace.entries.reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    trace.entries.push_back((uint64_t{ring[2 * i + 1].value} << 32) | ring[2 * i].value);
  }
  return trace;
}

DeviceTrace readDeviceTrace(FabricBackend& backend) {
  RegisterBatch head;
  TraceReadout readout;
  readout.addTo(head);
  head.run(backend);
  return readout.finish(head, backend);
}

}  // namespace nnfab::fabric
