#include "runtime/cpu_device.h"

#include "cpu/cpu_executor.h"

namespace nnfab {
namespace {

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
