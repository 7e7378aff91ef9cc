#include "runtime/cpu_device.h"

#include "cpu/cpu_executor.h"
#ifdef NNFAB_HAS_PLAN_EXECUTOR
#include "runtime/fabric_engine.h"
#include "runtime/partition.h"
#include "runtime/plan_executor.h"
#include "validation/validate.h"
#endif

namespace nnfab {
namespace {

#ifdef NNFAB_HAS_PLAN_EXECUTOR

// An observed execution on the cpu device (PrepareOptions::observed): the
// plan executor runs every operation as a CPU step of its own, IF/WHILE
// interpreted by the host, so that the observer sees each result.
class ObservedCpuModel final : public PreparedModel {
 public:
  explicit ObservedCpuModel(std::unique_ptr<runtime::PlanExecutor> plan) : plan_(std::move(plan)) {}
  ExecutionResult execute(const std::vector<TensorValue>& inputs,
                          const ExecutionOptions& options) const override {
    if (Status status = validateInputs(plan_->model(), inputs); !status.isOk()) {
      ExecutionResult result;
      result.status = std::move(status);
      return result;
    }
    return plan_->execute(inputs, options);
  }

 private:
  std::unique_ptr<runtime::PlanExecutor> plan_;
};

// The cpu device has no fabric: an engine without a backend, which an
// observed plan (CPU steps only) never asks for one.
runtime::FabricEngine& noFabric() {
  static runtime::FabricEngine engine{runtime::FabricEngine::Factory{}};
  return engine;
}

Result<std::unique_ptr<PreparedModel>> prepareObserved(std::unique_ptr<cpu::CpuExecutor> executor) {
  runtime::FabricTarget none;
  none.name = "cpu";
  none.supports = [](const Model&, uint32_t, uint32_t, std::string* why) {
    if (why) *why = "the cpu device has no fabric";
    return false;
  };
  std::shared_ptr<const cpu::CpuExecutor> whole = std::move(executor);
  auto plan = std::make_unique<runtime::PlanExecutor>(whole, runtime::partitionObserved(whole->model(), none),
                                                      noFabric());
  if (Status status = plan->prepare(); !status.isOk()) return status;
  return std::unique_ptr<PreparedModel>(std::make_unique<ObservedCpuModel>(std::move(plan)));
}
#else
Result<std::unique_ptr<PreparedModel>> prepareObserved(std::unique_ptr<cpu::CpuExecutor>) {
  return Status(ErrorStatus::INVALID_ARGUMENT, "observed executions need the plan executor, which this build lacks");
}
#endif

class CpuPreparedModel final : public PreparedModel {
 public:
  explicit CpuPreparedModel(std::unique_ptr<cpu::CpuExecutor> executor)
      : executor_(std::move(executor)) {}
  ExecutionResult execute(const std::vector<TensorValue>& inputs,
                          const ExecutionOptions& options) const override {
    return executor_->execute(inputs, options);
  }

 private:
  std::unique_ptr<cpu::CpuExecutor> executor_;
};

class CpuDevice final : public Device {
 public:
  std::string_view name() const override { return "cpu"; }
  std::string_view description() const override {
    return "CPU reference executor (golden reference and fallback)";
  }
  DeviceCapabilities capabilities() const override { return {}; }  // the 1.0 baseline
  std::vector<bool> getSupportedOperations(const Model& model,
                                           std::vector<std::string>* why) const override {
    cpu::SupportReport report = cpu::getSupportedOperations(model);
    if (why) *why = std::move(report.why);
    return report.supported;
  }
  Result<std::unique_ptr<PreparedModel>> prepare(const Model& model,
                                                 const PrepareOptions& options) const override {
    if (Status status = checkPrepareOptions(options); !status.isOk()) return status;
    auto executor = cpu::CpuExecutor::prepare(model);
    if (!executor.isOk()) return std::move(executor).takeStatus();
    if (options.observed) {
      auto observed = prepareObserved(std::move(executor).value());
      if (!observed.isOk()) return observed;
      if (Status status = checkPrepareFinishedInTime(options); !status.isOk()) return status;
      return observed;
    }
    if (Status status = checkPrepareFinishedInTime(options); !status.isOk()) return status;
    return std::unique_ptr<PreparedModel>(
        std::make_unique<CpuPreparedModel>(std::move(executor).value()));
  }
};

}  // namespace

const Device& cpuDevice() {
  static const CpuDevice device;
  return device;
}

}  // namespace nnfab
