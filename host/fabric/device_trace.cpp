#include "fabric/device_trace.h"

#include <algorithm>

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

DeviceTrace readDeviceTrace(FabricBackend& backend) {
  DeviceTrace trace;
  RegisterBatch head;
  const size_t countAt = head.read(isa::kRegTRACE_COUNT);
  const size_t droppedAt = head.read(isa::kRegTRACE_DROPPED);
  std::array<size_t, isa::kNumTraceClasses> classAt{};
  for (uint32_t k = 0; k < isa::kNumTraceClasses; ++k) {
    classAt[k] = head.read64(isa::kRegCLASS_CYCLES_CTRL + k * isa::kClassCyclesStride);
  }
  head.run(backend);
  const uint32_t count = std::min<uint32_t>(head.value(countAt), isa::kTRACE_DEPTH);
  trace.dropped = head.value(droppedAt);
  for (uint32_t k = 0; k < isa::kNumTraceClasses; ++k) trace.classCycles[k] = head.value64(classAt[k]);

  // The ring's window, RegisterBatch::kCapacity / 2 entries per batch.
  constexpr uint32_t kPerBatch = RegisterBatch::kCapacity / 2;
  trace.entries.reserve(count);
  for (uint32_t first = 0; first < count; first += kPerBatch) {
    RegisterBatch batch;
    const uint32_t n = std::min(kPerBatch, count - first);
    for (uint32_t i = 0; i < n; ++i) batch.read64(isa::kTRACE_RING_OFFSET + (first + i) * 8u);
    batch.run(backend);
    for (uint32_t i = 0; i < n; ++i) trace.entries.push_back(batch.value64(2 * i));
  }
  return trace;
}

}  // namespace nnfab::fabric
