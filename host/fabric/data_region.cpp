#include "fabric/data_region.h"

#include <fmt/format.h>

#include <algorithm>

namespace nnfab::fabric {

isa::WindowBounds windowBounds(const LoadedProgram& program) {
  return isa::windowBounds(program.srcbStart, program.dstStart, program.dataBytes);
}

std::optional<DataPlace> dataAddress(const LoadedProgram& program, uint64_t offset) {
  if (offset >= program.dataBytes) return std::nullopt;
  const isa::WindowBounds w = windowBounds(program);
  const uint32_t window = isa::windowOf(w, offset);
  // Bits 5:0 of SRCB_ADDR and DST_ADDR are taken as zero by the core; the
  // driver's buffers are 64-byte aligned anyway.
  constexpr DeviceAddress kAligned = ~DeviceAddress{isa::kMEM_BEAT_BYTES - 1};
  const DeviceAddress base = window == isa::kWindowA   ? program.data
                             : window == isa::kWindowB ? program.srcbData & kAligned
                                                       : program.dstData & kAligned;
  return DataPlace{base + (offset - w.start[window]), w.end[window] - offset};
}

namespace {

Status checkRange(const LoadedProgram& program, uint64_t offset, uint64_t bytes) {
  if (offset > program.dataBytes || bytes > program.dataBytes - offset) {
    return invalidArgument(fmt::format("data range {} + {} bytes is outside the {}-byte data region", offset, bytes,
                                       program.dataBytes));
  }
  return Status::ok();
}

// Calls copy(address, done, n) for each window's piece of the range.
template <typename Copy>
Status forEachPiece(const LoadedProgram& program, uint64_t offset, uint64_t bytes, Copy&& copy) {
  if (Status s = checkRange(program, offset, bytes); !s) return s;
  uint64_t done = 0;
  while (done < bytes) {
    const std::optional<DataPlace> place = dataAddress(program, offset + done);
    if (!place || place->contiguous == 0) return checkRange(program, offset + done, bytes - done);
    const uint64_t n = std::min(place->contiguous, bytes - done);
    if (Status s = copy(place->address, done, n); !s) return s;
    done += n;
  }
  return Status::ok();
}

}  // namespace

Status copyToData(FabricBackend& backend, const LoadedProgram& program, uint64_t offset, const void* src,
                  uint64_t bytes) {
  const auto* from = static_cast<const uint8_t*>(src);
  return forEachPiece(program, offset, bytes, [&](DeviceAddress at, uint64_t done, uint64_t n) {
    return backend.copyToDevice(at, from + done, n);
  });
}

Status copyFromData(FabricBackend& backend, const LoadedProgram& program, uint64_t offset, void* dst,
                    uint64_t bytes) {
  auto* to = static_cast<uint8_t*>(dst);
  return forEachPiece(program, offset, bytes, [&](DeviceAddress at, uint64_t done, uint64_t n) {
    return backend.copyFromDevice(to + done, at, n);
  });
}

}  // namespace nnfab::fabric
