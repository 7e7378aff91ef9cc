// A fabric device: any FabricBackend (the hls C-simulation and the sim
// Verilator RTL, XRT cards and their emulation) behind NNAPI's Device interface. It reports the
// fabric's supported operations (the compiler's rules), partitions models
// between the fabric and the CPU executor, and runs them with PlanExecutor on
// one backend instance whose core its executions share through the QoS
// scheduler (fabric_scheduler.h, docs/qos.md).
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "runtime/device.h"
#include "runtime/fabric_engine.h"
#include "runtime/partition.h"

namespace nnfab {

class FabricDevice final : public Device {
 public:
  // `clockMhz`: the kernel clock the capabilities are derived at.
  // `options`: the scheduler's quantum and the host watchdog (docs/qos.md).
  // `handoffs`: what a fabric step costs the host on this device, so that
  // partitioning keeps control flow off the host interpreter where its
  // hand-offs cost more than the fabric saves (docs/runtime.md "Hand-off
  // cost"); none: interpreted whenever a part of it runs on the fabric.
  // `features`: reads the core's FEATURES register (docs/register-map.md),
  // once, when a model is first checked or partitioned; none: the base ISA.
  FabricDevice(std::string name, std::string description, double clockMhz,
               runtime::FabricEngine::Factory factory, runtime::EngineOptions options = {},
               std::optional<runtime::HandoffCosts> handoffs = std::nullopt,
               std::function<uint32_t()> features = {});
  // The same, with FEATURES read from the device's own backend, which is
  // then created (when a model is first checked or partitioned, so at the
  // latest when it is prepared): a model's first execution does not pay
  // for making the backend (a Verilated core's construction and reset: ms
  // on sim), and no second backend is made just to read one register.
  struct FeaturesFromBackend {};
  FabricDevice(std::string name, std::string description, double clockMhz,
               runtime::FabricEngine::Factory factory, runtime::EngineOptions options,
               std::optional<runtime::HandoffCosts> handoffs, FeaturesFromBackend);
  ~FabricDevice() override;

  std::string_view name() const override { return name_; }
  std::string_view description() const override { return description_; }
  DeviceCapabilities capabilities() const override { return capabilities_; }
  std::vector<bool> getSupportedOperations(const Model& model,
                                           std::vector<std::string>* why) const override;
  Result<std::unique_ptr<PreparedModel>> prepare(const Model& model,
                                                 const PrepareOptions& options) const override;
  runtime::Plan partition(const Model& model) const override;

  // The core's FEATURES register value (0: the base ISA only).
  uint32_t features() const;

  // What the core's scheduler did so far (grants, preemptions, turn ends).
  runtime::FabricScheduler::Stats schedulerStats() const;

 private:
  runtime::FabricTarget target() const;

  std::string name_;
  std::string description_;
  DeviceCapabilities capabilities_;
  std::optional<runtime::HandoffCosts> handoffs_;
  std::function<uint32_t()> featuresProbe_;
  mutable std::once_flag featuresOnce_;
  mutable uint32_t features_ = 0;
  // Created on first use, so that listing devices starts no backend.
  std::unique_ptr<runtime::FabricEngine> engine_;
};

}  // namespace nnfab
