#include "host_model.h"


#include "fabric/step_runner.h"

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
  auto outcome = fabric::runStep(backend_, job_.program, job_.inputs, job_.limits);
  if (!outcome.isOk()) return std::move(outcome).takeStatus();
  outcome_.report = outcome->report;
  outcome_.outputs = std::move(outcome->outputs);
  return outcome->finished();
}

}  // namespace nnfab::sim
