// Device memory emulated in host memory, for backends without a card: one
// image (reserved when it is made; the OS zero-fills its pages as they are
// touched, so a 256 MiB device costs nothing until used) and a first-fit
// allocator with FabricBackend's contract. Thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>

#include "fabric/fabric_backend.h"
#include "fabric/urgent_thread.h"
#include "model/status.h"
#include "nnfab_isa.h"

namespace nnfab::fabric {

class DeviceMemory {
 public:
  static constexpr uint64_t kAlignment = isa::kMEM_BEAT_BYTES;
  // Device addresses start here, so that an address left at 0 is never valid.
  static constexpr DeviceAddress kBase = 0x1000;

  explicit DeviceMemory(uint64_t bytes);  // rounded down to kAlignment
  ~DeviceMemory();
  DeviceMemory(const DeviceMemory&) = delete;
  DeviceMemory& operator=(const DeviceMemory&) = delete;

  uint64_t size() const { return size_; }
  Result<DeviceAddress> allocate(uint64_t bytes);
  // The same from the top of the memory down (the highest free block that
  // fits, its top end): for a driver's own long-lived buffers, so that
  // they do not move where the runs' programs and data land (see
  // FabricBackend::allocateHigh).
  Result<DeviceAddress> allocateHigh(uint64_t bytes);
  // The lowest free block at or above `lowest` (rounded up to kAlignment):
  // for a model of a card whose memory banks are address ranges, so that a
  // buffer lands in the bank it is meant for.
  Result<DeviceAddress> allocateFrom(uint64_t bytes, DeviceAddress lowest);
  void release(DeviceAddress address);  // unknown addresses are ignored
  Status copyTo(DeviceAddress dst, const void* src, uint64_t bytes);
  Status copyFrom(void* dst, DeviceAddress src, uint64_t bytes);

  // The image bytes [address, address + bytes) as the core's bus sees them:
  // any range inside the memory, allocated or not. nullptr when the range
  // leaves the memory, is misaligned, or nothing was ever allocated.
  uint8_t* map(DeviceAddress address, uint64_t bytes, uint64_t alignment);

 private:
  // The allocation holding [offset, offset + bytes), or nullptr.
  const std::pair<const uint64_t, uint64_t>* findAllocation(uint64_t offset, uint64_t bytes) const;
  Status checkRange(DeviceAddress address, uint64_t bytes, uint64_t* offset) const;
  Result<DeviceAddress> allocateAt(uint64_t bytes, bool high, uint64_t lowest = 0);

  // With priority inheritance: a HIGH step's load and readback take it
  // while ordinary threads (LOW steps, the hls worker) do too, and an
  // ordinary holder descheduled on a loaded host must not leave the HIGH
  // thread blocked for its time slice (docs/qos.md "Threads on the
  // preemption path").
  PiMutex mutex_;
  const uint64_t size_;
  uint8_t* image_ = nullptr;
  std::map<uint64_t, uint64_t> free_;  // offset -> bytes, coalesced
  std::map<uint64_t, uint64_t> used_;  // offset -> bytes
};

}  // namespace nnfab::fabric
