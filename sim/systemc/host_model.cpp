#include "host_model.h"

#include <fmt/format.h>

#include "fabric/core_status.h"
#include "fabric/device_program.h"

namespace nnfab::sim {

namespace {
// The runtime's code (fmt, the compiler's structures, CoreDriver) runs on
// this thread's stack; SystemC's default is far smaller.
constexpr size_t kHostStackBytes = size_t{16} << 20;
}  // namespace

HostModel::HostModel(sc_core::sc_module_name name, fabric::FabricBackend& backend, HostJob job,
                     const sc_core::sc_event* startAfter)
    : sc_module(name), backend_(backend), job_(std::move(job)), startAfter_(startAfter) {
  SC_THREAD(main);
  set_stack_size(kHostStackBytes);
}

void HostModel::main() {
  if (startAfter_ != nullptr) wait(*startAfter_);
  outcome_.begin = sc_core::sc_time_stamp();
  outcome_.status = execute();
  outcome_.end = sc_core::sc_time_stamp();
  finished_ = true;
  sc_core::sc_stop();
}

Status HostModel::execute() {
  const compiler::Program& program = job_.program;
  if (job_.inputs.size() != program.inputs.size()) {
    return generalFailure(fmt::format("the program has {} inputs, the job supplies {}", program.inputs.size(),
                                      job_.inputs.size()));
  }
  auto loaded = fabric::DeviceProgram::load(backend_, program.code, program.dataImage, program.dataBytes);
  if (!loaded.isOk()) return std::move(loaded).takeStatus();
  for (size_t i = 0; i < job_.inputs.size(); ++i) {
    const compiler::IoSlot& slot = program.inputs[i];
    const TensorValue& value = job_.inputs[i];
    if (value.dimensions != slot.dimensions || value.data.size() != slot.bytes) {
      return generalFailure(fmt::format("input {} (operand {}) does not match its slot", i, slot.operand));
    }
    if (Status s = loaded->writeData(slot.offset, value.data.data(), slot.bytes); !s.isOk()) return s;
  }
  fabric::CoreDriver driver(backend_);
  auto report = driver.run(loaded->loaded(), job_.limits);
  if (!report.isOk()) return std::move(report).takeStatus();
  outcome_.report = *report;
  if (!report->status.isOk()) return report->status;
  if (!report->completed()) {
    return generalFailure(fmt::format("the core stopped with {} before the program finished",
                                      fabric::coreStatusName(report->coreStatus)));
  }
  for (const compiler::IoSlot& slot : program.outputs) {
    TensorValue v;
    v.type = slot.type;
    v.dimensions = slot.dimensions;
    v.data.resize(slot.bytes);
    if (Status s = loaded->readData(slot.offset, v.data.data(), slot.bytes); !s.isOk()) return s;
    outcome_.outputs.push_back(std::move(v));
  }
  return Status::ok();
}

}  // namespace nnfab::sim
