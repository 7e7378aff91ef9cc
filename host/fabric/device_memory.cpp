#include "fabric/device_memory.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iterator>

#include <fmt/format.h>

namespace nnfab::fabric {

DeviceMemory::DeviceMemory(uint64_t bytes) : size_(bytes / kAlignment * kAlignment) {
  if (size_ != 0) free_.emplace(0, size_);
  // Reserved with the backend (a device is made when a model is prepared
  // for it), so that no execution pays for the mapping, the first no more
  // than a later one, with or without profiling (docs/performance.md
  // "Profiling cost: counted per straight-line run"). Should it fail, the
  // first allocation tries again and reports it.
  if (size_ != 0) image_ = static_cast<uint8_t*>(std::calloc(size_, 1));
}

DeviceMemory::~DeviceMemory() { std::free(image_); }

Result<DeviceAddress> DeviceMemory::allocate(uint64_t bytes) { return allocateAt(bytes, false); }

Result<DeviceAddress> DeviceMemory::allocateHigh(uint64_t bytes) { return allocateAt(bytes, true); }

Result<DeviceAddress> DeviceMemory::allocateFrom(uint64_t bytes, DeviceAddress lowest) {
  const uint64_t offset = lowest <= kBase ? 0 : lowest - kBase;
  if (offset >= size_) {
    return Status(ErrorStatus::RESOURCE_EXHAUSTED_PERSISTENT,
                  fmt::format("address 0x{:x} is beyond the device's {} bytes of memory", lowest, size_));
  }
  return allocateAt(bytes, false, (offset + kAlignment - 1) / kAlignment * kAlignment);
}

// `lowest` (an image offset, aligned) only for the bottom-up search.
Result<DeviceAddress> DeviceMemory::allocateAt(uint64_t bytes, bool high, uint64_t lowest) {
  if (bytes > size_) {
    return Status(ErrorStatus::RESOURCE_EXHAUSTED_PERSISTENT,
                  fmt::format("{} bytes do not fit in the device's {} bytes of memory", bytes, size_));
  }
  const uint64_t need = bytes == 0 ? kAlignment : (bytes + kAlignment - 1) / kAlignment * kAlignment;
  std::lock_guard<PiMutex> lock(mutex_);
  if (image_ == nullptr) {
    // calloc of a large block maps fresh zero pages without touching them.
    image_ = static_cast<uint8_t*>(std::calloc(size_, 1));
    if (image_ == nullptr) {
      return Status(ErrorStatus::RESOURCE_EXHAUSTED_PERSISTENT,
                    fmt::format("cannot reserve {} bytes of host memory for the device image", size_));
    }
  }
  if (high) {
    for (auto it = free_.rbegin(); it != free_.rend(); ++it) {
      if (it->second < need) continue;
      const uint64_t rest = it->second - need;
      const uint64_t offset = it->first + rest;  // the block's top end
      if (rest != 0) {
        it->second = rest;
      } else {
        free_.erase(std::next(it).base());
      }
      used_.emplace(offset, need);
      return kBase + offset;
    }
  } else {
    for (auto it = free_.begin(); it != free_.end(); ++it) {
      const uint64_t blockEnd = it->first + it->second;
      const uint64_t offset = std::max(it->first, lowest);
      if (offset >= blockEnd || blockEnd - offset < need) continue;
      const uint64_t below = offset - it->first;  // left free under the allocation
      const uint64_t rest = blockEnd - offset - need;
      if (below != 0) {
        it->second = below;
      } else {
        free_.erase(it);
      }
      if (rest != 0) free_.emplace(offset + need, rest);
      used_.emplace(offset, need);
      return kBase + offset;
    }
  }
  uint64_t freeBytes = 0;
  for (const auto& [offset, size] : free_) freeBytes += size;
  return Status(ErrorStatus::RESOURCE_EXHAUSTED_TRANSIENT,
                fmt::format("no free block of {} bytes in device memory ({} bytes free in {} blocks)", need,
                            freeBytes, free_.size()));
}

void DeviceMemory::release(DeviceAddress address) {
  std::lock_guard<PiMutex> lock(mutex_);
  if (address < kBase) return;
  const auto it = used_.find(address - kBase);
  if (it == used_.end()) return;
  uint64_t offset = it->first;
  uint64_t bytes = it->second;
  used_.erase(it);
  auto next = free_.lower_bound(offset);
  if (next != free_.end() && next->first == offset + bytes) {
    bytes += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == offset) {
      offset = prev->first;
      bytes += prev->second;
      free_.erase(prev);
    }
  }
  free_.emplace(offset, bytes);
}

const std::pair<const uint64_t, uint64_t>* DeviceMemory::findAllocation(uint64_t offset, uint64_t bytes) const {
  auto it = used_.upper_bound(offset);
  if (it == used_.begin()) return nullptr;
  --it;
  const uint64_t end = it->first + it->second;
  if (offset >= end || bytes > end - offset) return nullptr;
  return &*it;
}

Status DeviceMemory::checkRange(DeviceAddress address, uint64_t bytes, uint64_t* offset) const {
  if (address >= kBase && findAllocation(address - kBase, bytes) != nullptr) {
    *offset = address - kBase;
    return Status::ok();
  }
  return invalidArgument(
      fmt::format("device range 0x{:x} + {} bytes is not inside one allocation", address, bytes));
}

Status DeviceMemory::copyTo(DeviceAddress dst, const void* src, uint64_t bytes) {
  if (bytes == 0) return Status::ok();
  std::lock_guard<PiMutex> lock(mutex_);
  uint64_t offset = 0;
  if (Status s = checkRange(dst, bytes, &offset); !s) return s;
  std::memcpy(image_ + offset, src, bytes);
  return Status::ok();
}

Status DeviceMemory::copyFrom(void* dst, DeviceAddress src, uint64_t bytes) {
  if (bytes == 0) return Status::ok();
  std::lock_guard<PiMutex> lock(mutex_);
  uint64_t offset = 0;
  if (Status s = checkRange(src, bytes, &offset); !s) return s;
  std::memcpy(dst, image_ + offset, bytes);
  return Status::ok();
}

uint8_t* DeviceMemory::map(DeviceAddress address, uint64_t bytes, uint64_t alignment) {
  std::lock_guard<PiMutex> lock(mutex_);
  if (image_ == nullptr || address < kBase || (alignment != 0 && address % alignment != 0)) return nullptr;
  const uint64_t offset = address - kBase;
  if (offset > size_ || bytes > size_ - offset) return nullptr;
  return image_ + offset;
}

}  // namespace nnfab::fabric
