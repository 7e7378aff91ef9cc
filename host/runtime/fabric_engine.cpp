#include "runtime/fabric_engine.h"

#include <fmt/format.h>

#include <algorithm>

#include "fabric/core_status.h"
#include "fabric/device_memory.h"
#include "fabric/device_program.h"
#include "nnfab_isa.h"

namespace nnfab::runtime {
namespace {

uint64_t aligned(uint64_t bytes) {
  const uint64_t a = fabric::DeviceMemory::kAlignment;
  return (bytes + a - 1) / a * a;
}

}  // namespace

fabric::FabricBackend* FabricEngine::backend() {
  std::call_once(created_, [this] {
    backend_ = factory_ ? factory_() : nullptr;
    if (backend_) driver_ = std::make_unique<fabric::CoreDriver>(*backend_);
  });
  return backend_.get();
}

uint64_t FabricEngine::memoryNeed(const compiler::Program& program) {
  return aligned(program.code.size() * isa::kINSTRUCTION_BYTES) + aligned(program.dataBytes) +
         aligned(isa::kCONTEXT_BYTES);
}

Status FabricEngine::run(const compiler::Program& program, const std::vector<const Value*>& inputs,
                         const ExecutionOptions& options, std::vector<Value>* outputs) {
  fabric::FabricBackend* device = backend();
  if (!device) return Status(ErrorStatus::DEVICE_UNAVAILABLE, "the fabric backend is not available");
  if (inputs.size() != program.inputs.size()) {
    return generalFailure(fmt::format("the program has {} inputs, the step supplies {}",
                                      program.inputs.size(), inputs.size()));
  }
  std::lock_guard<std::mutex> lock(runMutex_);
  auto loaded = fabric::DeviceProgram::load(*device, program.code, program.dataImage,
                                            program.dataBytes);
  if (!loaded.isOk()) return std::move(loaded).takeStatus();
  for (size_t i = 0; i < inputs.size(); ++i) {
    const compiler::IoSlot& slot = program.inputs[i];
    const Value& value = *inputs[i];
    if (!value.present || value.dims != slot.dimensions || value.bytes->size() != slot.bytes) {
      return generalFailure(fmt::format("input {} (operand {}) does not match its slot", i, slot.operand));
    }
    if (Status s = loaded->writeData(slot.offset, value.bytes->data(), slot.bytes); !s.isOk()) return s;
  }

  fabric::RunLimits limits;
  // The fabric reads a zero loop timeout as "no watchdog"; NNAPI's zero means
  // every loop whose condition is ever true times out: one cycle does that.
  limits.loopTimeout = std::max<std::chrono::nanoseconds>(
      std::min(options.loopTimeout, kLoopTimeoutMaximum), std::chrono::nanoseconds(1));
  limits.deadline = options.deadline;
  auto report = driver_->run(loaded->loaded(), limits);
  if (!report.isOk()) return std::move(report).takeStatus();
  if (!report->status.isOk()) return report->status;
  if (!report->completed()) {
    return generalFailure(fmt::format("the core stopped with {} before the program finished",
                                      fabric::coreStatusName(report->coreStatus)));
  }

  outputs->clear();
  outputs->reserve(program.outputs.size());
  for (const compiler::IoSlot& slot : program.outputs) {
    Bytes bytes(slot.bytes);
    if (Status s = loaded->readData(slot.offset, bytes.data(), slot.bytes); !s.isOk()) return s;
    outputs->push_back(makeValue(slot.dimensions, std::move(bytes)));
  }
  return Status::ok();
}

}  // namespace nnfab::runtime
