#include "fabric/device_program.h"

#include <algorithm>
#include <array>
#include <limits>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "nnfab_isa.h"

namespace nnfab::fabric {

namespace {

// The zeros every load copies from: no allocation per load.
constexpr uint64_t kZeroChunk = 64 * 1024;
const std::array<uint8_t, kZeroChunk> kZeros{};

// Offsets [from, to) of the region.
Status zeroFill(FabricBackend& backend, const LoadedProgram& program, uint64_t from, uint64_t to) {
  for (uint64_t at = from; at < to; at += kZeroChunk) {
    const uint64_t n = std::min(kZeroChunk, to - at);
    if (Status s = copyToData(backend, program, at, kZeros.data(), n); !s) return s;
  }
  return Status::ok();
}

}  // namespace

Result<DeviceProgram> DeviceProgram::load(FabricBackend& backend, std::span<const uint64_t> code,
                                          std::span<const uint8_t> dataImage, uint64_t dataBytes,
                                          std::span<const DataRange> writtenLater, WindowStarts windows) {
  if (code.size() > isa::kMAX_PROGRAM_INSTRUCTIONS) {
    return invalidArgument(fmt::format("the program has {} instructions, more than the core's {}", code.size(),
                                       isa::kMAX_PROGRAM_INSTRUCTIONS));
  }
  if (dataImage.size() > dataBytes) {
    return invalidArgument(
        fmt::format("the data image ({} bytes) is larger than the data region ({} bytes)", dataImage.size(), dataBytes));
  }
  if (dataBytes > std::numeric_limits<uint32_t>::max()) {
    return Status(ErrorStatus::RESOURCE_EXHAUSTED_PERSISTENT,
                  fmt::format("a data region of {} bytes exceeds the 4 GiB the core addresses", dataBytes));
  }
  DeviceProgram p(backend);
  const uint64_t codeBytes = code.size() * sizeof(uint64_t);
  auto allocate = [&](uint64_t bytes, DeviceAddress* at) -> Status {
    Result<DeviceAddress> r = backend.allocate(bytes);
    if (!r) return r.status();
    *at = *r;
    return Status::ok();
  };
  if (Status s = allocate(codeBytes, &p.loaded_.program); !s) return s;
  // The windows: A always (as the one region of ISA version 2, also when
  // empty), B and D when they hold bytes, each in its port's bank.
  p.loaded_.dataBytes = static_cast<uint32_t>(dataBytes);
  p.loaded_.srcbStart = windows.srcb;
  p.loaded_.dstStart = windows.dst;
  const isa::WindowBounds bounds = windowBounds(p.loaded_);
  auto allocateWindow = [&](uint32_t window, DeviceAddress* at) -> Status {
    Result<DeviceAddress> r =
        backend.allocateWindow(isa::windowBytes(bounds, window), static_cast<DataWindow>(window));
    if (!r) return r.status();
    *at = *r;
    return Status::ok();
  };
  if (Status s = allocateWindow(isa::kWindowA, &p.loaded_.data); !s) return s;
  p.loaded_.srcbData = p.loaded_.data;
  p.loaded_.dstData = p.loaded_.data;
  if (isa::windowBytes(bounds, isa::kWindowB) != 0) {
    if (Status s = allocateWindow(isa::kWindowB, &p.loaded_.srcbData); !s) return s;
  }
  if (isa::windowBytes(bounds, isa::kWindowD) != 0) {
    if (Status s = allocateWindow(isa::kWindowD, &p.loaded_.dstData); !s) return s;
  }
  if (Status s = allocate(isa::kCONTEXT_BYTES, &p.loaded_.context); !s) return s;
  p.loaded_.programBytes = static_cast<uint32_t>(codeBytes);

  if (Status s = backend.copyToDevice(p.loaded_.program, code.data(), codeBytes); !s) return s;
  // The image's bytes, each part into its window's buffer.
  if (Status s = copyToData(backend, p.loaded_, 0, dataImage.data(), dataImage.size()); !s) return s;
  // Device memory is reused between programs: the rest of the region starts
  // at zero so that every device computes from the same bytes; the ranges
  // the caller writes next (large inputs above all) are not written twice.
  std::vector<DataRange> skip(writtenLater.begin(), writtenLater.end());
  std::sort(skip.begin(), skip.end(), [](const DataRange& a, const DataRange& b) { return a.offset < b.offset; });
  uint64_t at = dataImage.size();
  for (const DataRange& r : skip) {
    const uint64_t end = std::min(dataBytes, r.offset + r.bytes);
    if (r.offset > at) {
      if (Status s = zeroFill(backend, p.loaded_, at, std::min(r.offset, dataBytes)); !s) return s;
    }
    at = std::max(at, end);
  }
  if (Status s = zeroFill(backend, p.loaded_, at, dataBytes); !s) return s;
  static_assert(isa::kCONTEXT_BYTES <= kZeroChunk);
  if (Status s = backend.copyToDevice(p.loaded_.context, kZeros.data(), isa::kCONTEXT_BYTES); !s) return s;
  return p;
}

DeviceProgram::DeviceProgram(DeviceProgram&& other) noexcept
    : backend_(other.backend_), loaded_(std::exchange(other.loaded_, LoadedProgram{})) {}

DeviceProgram& DeviceProgram::operator=(DeviceProgram&& other) noexcept {
  if (this != &other) {
    releaseAll();
    backend_ = other.backend_;
    loaded_ = std::exchange(other.loaded_, LoadedProgram{});
  }
  return *this;
}

DeviceProgram::~DeviceProgram() { releaseAll(); }

void DeviceProgram::releaseAll() {
  for (DeviceAddress a : {loaded_.program, loaded_.data, loaded_.context, loaded_.traceArea}) {
    if (a != 0) backend_->release(a);
  }
  // Windows B and D have buffers of their own only when not empty.
  for (DeviceAddress a : {loaded_.srcbData, loaded_.dstData}) {
    if (a != 0 && a != loaded_.data) backend_->release(a);
  }
  loaded_ = LoadedProgram{};
}

Result<DeviceAddress> DeviceProgram::traceArea() {
  if (loaded_.traceArea == 0) {
    Result<DeviceAddress> area = backend_->allocate(kTraceAreaBytes);  // 64-byte aligned
    if (!area) return area.status();
    loaded_.traceArea = *area;
  }
  return loaded_.traceArea;
}

LoadedProgram DeviceProgram::resumed() const {
  LoadedProgram p = loaded_;
  p.resume = true;
  return p;
}

Status DeviceProgram::writeData(uint64_t offset, const void* src, uint64_t bytes) {
  return copyToData(*backend_, loaded_, offset, src, bytes);
}

Status DeviceProgram::readData(uint64_t offset, void* dst, uint64_t bytes) const {
  return copyFromData(*backend_, loaded_, offset, dst, bytes);
}

}  // namespace nnfab::fabric
