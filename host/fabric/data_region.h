// A program's data region on the device (docs/isa.md "Memory model: one
// data region, three windows, three data ports"): window A at DATA_ADDR,
// B at SRCB_ADDR, D at DST_ADDR, each its own buffer, so that a range of
// offsets may span several. dataAddress is the one translation of a data
// offset to a device address; every host copy of data-region bytes (the
// image, the zeros after it, a step's inputs and outputs) goes through it.
#pragma once

#include <cstdint>
#include <optional>

#include "fabric/core_driver.h"
#include "fabric/fabric_backend.h"
#include "isa/data_windows.h"
#include "model/status.h"

namespace nnfab::fabric {

// Where the compiler put windows B and D (compiler::Program); the reset
// value isa::kNoWindowStart is an empty window.
struct WindowStarts {
  uint32_t srcb = isa::kNoWindowStart;
  uint32_t dst = isa::kNoWindowStart;
};

isa::WindowBounds windowBounds(const LoadedProgram& program);

// The device address of data offset `offset` and the bytes from it to the
// end of its window; nullopt at or beyond DATA_SIZE.
struct DataPlace {
  DeviceAddress address = 0;
  uint64_t contiguous = 0;
};
std::optional<DataPlace> dataAddress(const LoadedProgram& program, uint64_t offset);

// [offset, offset + bytes) of the region, window by window (INVALID_ARGUMENT
// when the range leaves the region).
Status copyToData(FabricBackend& backend, const LoadedProgram& program, uint64_t offset, const void* src,
                  uint64_t bytes);
Status copyFromData(FabricBackend& backend, const LoadedProgram& program, uint64_t offset, void* dst,
                    uint64_t bytes);

}  // namespace nnfab::fabric
