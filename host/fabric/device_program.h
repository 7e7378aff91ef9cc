// Device memory for one program: allocates and fills the program, the data
// region (each non-empty window in a buffer of its own, allocated with
// FabricBackend::allocateWindow; the data image, zeros after it) and the
// context area (and, for a profiled run, the trace area of
// fabric/device_trace.h), and releases them when destroyed. Takes plain spans, so that it does not depend on the
// compiler (compiler::Program's code / dataImage / dataBytes fit directly).
#pragma once

#include <cstdint>
#include <span>

#include "fabric/core_driver.h"
#include "fabric/data_region.h"
#include "fabric/fabric_backend.h"
#include "model/status.h"

namespace nnfab::fabric {

// Bytes of the data region the caller writes itself right after load()
// (a step's inputs): load() does not zero them first.
struct DataRange {
  uint64_t offset = 0;
  uint64_t bytes = 0;
};

class DeviceProgram {
 public:
  // INVALID_ARGUMENT when the code exceeds MAX_PROGRAM_INSTRUCTIONS or the
  // image exceeds dataBytes; RESOURCE_EXHAUSTED_* from the backend, or
  // RESOURCE_EXHAUSTED_PERSISTENT when dataBytes exceeds what DATA_SIZE can
  // address. The region after the image starts at zero except `writtenLater`,
  // which the caller must then write in full. `windows`: where windows B
  // and D begin (compiler::Program's srcbStart and dstStart); by default
  // the whole region is window A.
  static Result<DeviceProgram> load(FabricBackend& backend, std::span<const uint64_t> code,
                                    std::span<const uint8_t> dataImage, uint64_t dataBytes,
                                    std::span<const DataRange> writtenLater = {}, WindowStarts windows = {});

  DeviceProgram(DeviceProgram&& other) noexcept;
  DeviceProgram& operator=(DeviceProgram&& other) noexcept;
  DeviceProgram(const DeviceProgram&) = delete;
  DeviceProgram& operator=(const DeviceProgram&) = delete;
  ~DeviceProgram();

  // What CoreDriver::run takes (resume = false).
  const LoadedProgram& loaded() const { return loaded_; }
  // The same program, continuing from its saved context.
  LoadedProgram resumed() const;
  // kTraceAreaBytes for MODE.TRACE's entries (LoadedProgram::traceArea),
  // allocated at the first call: a run without profiling never touches it.
  Result<DeviceAddress> traceArea();

  // Byte ranges of the data region, by offset, whichever windows they
  // span (INVALID_ARGUMENT outside it).
  Status writeData(uint64_t offset, const void* src, uint64_t bytes);
  Status readData(uint64_t offset, void* dst, uint64_t bytes) const;

 private:
  explicit DeviceProgram(FabricBackend& backend) : backend_(&backend) {}
  void releaseAll();

  FabricBackend* backend_;
  LoadedProgram loaded_;
};

}  // namespace nnfab::fabric
