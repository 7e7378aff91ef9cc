#include "runtime/fabric_device.h"

#include "runtime/compilation_cache.h"

#include <spdlog/spdlog.h>

#include "compiler/compiler.h"
#include "cpu/cpu_executor.h"
#include "nnfab_isa.h"
#include "runtime/fabric_performance.h"
#include "runtime/plan_executor.h"
#include "validation/validate.h"

namespace nnfab {
namespace {

class FabricPreparedModel final : public PreparedModel {
 public:
  FabricPreparedModel(std::shared_ptr<const cpu::CpuExecutor> whole,
                      std::unique_ptr<runtime::PlanExecutor> plan, const PrepareOptions& prepared)
      : whole_(std::move(whole)), plan_(std::move(plan)), client_(prepared.client), priority_(prepared.priority) {}

  ExecutionResult execute(const std::vector<TensorValue>& inputs,
                          const ExecutionOptions& requested) const override {
    // The scheduler orders this model's work by its preparation's client and priority.
    ExecutionOptions options = requested;
    options.client = client_;
    options.priority = priority_;
    // Nothing on the fabric: the CPU executor's own path, checks included.
    if (!plan_) return whole_->execute(inputs, options);
    ExecutionResult result;
    if (options.deadline && Clock::now() >= *options.deadline) {
      result.status = Status(ErrorStatus::MISSED_DEADLINE_PERSISTENT,
                             "the execution deadline passed before the execution started");
      return result;
    }
    if (Status status = validateInputs(whole_->model(), inputs); !status.isOk()) {
      result.status = std::move(status);
      return result;
    }
    return plan_->execute(inputs, options);
  }

 private:
  std::shared_ptr<const cpu::CpuExecutor> whole_;
  std::unique_ptr<runtime::PlanExecutor> plan_;
  const uint64_t client_;
  const Priority priority_;
};

bool isControlFlow(OperationType type) {
  return type == OperationType::IF || type == OperationType::WHILE;
}

}  // namespace

FabricDevice::FabricDevice(std::string name, std::string description, double clockMhz,
                           runtime::FabricEngine::Factory factory, runtime::EngineOptions options,
                           std::optional<runtime::HandoffCosts> handoffs, std::function<uint32_t()> features)
    : name_(std::move(name)),
      description_(std::move(description)),
      capabilities_(runtime::fabricCapabilities(clockMhz)),
      handoffs_(handoffs),
      featuresProbe_(std::move(features)),
      engine_(std::make_unique<runtime::FabricEngine>(std::move(factory), options)) {}

FabricDevice::FabricDevice(std::string name, std::string description, double clockMhz,
                           runtime::FabricEngine::Factory factory, runtime::EngineOptions options,
                           std::optional<runtime::HandoffCosts> handoffs, FeaturesFromBackend)
    : FabricDevice(std::move(name), std::move(description), clockMhz, std::move(factory), options, handoffs) {
  featuresProbe_ = [engine = engine_.get()] {
    fabric::FabricBackend* backend = engine->backend();
    return backend != nullptr ? backend->readRegister(isa::kRegFEATURES) : 0u;
  };
}

runtime::FabricScheduler::Stats FabricDevice::schedulerStats() const { return engine_->scheduler().stats(); }

FabricDevice::~FabricDevice() = default;

uint32_t FabricDevice::features() const {
  std::call_once(featuresOnce_, [this] { features_ = featuresProbe_ ? featuresProbe_() : 0u; });
  return features_;
}

runtime::FabricTarget FabricDevice::target() const {
  runtime::FabricTarget target;
  target.name = name_;
  target.capabilities = capabilities_;
  target.handoffs = handoffs_;
  target.features = compiler::FabricFeatures::fromRegister(features());
  target.supports = [f = target.features](const Model& model, uint32_t subgraph, uint32_t operation,
                                          std::string* why) {
    return compiler::isOperationSupported(model, subgraph, operation, why, f);
  };
  return target;
}

std::vector<bool> FabricDevice::getSupportedOperations(const Model& model,
                                                       std::vector<std::string>* why) const {
  const size_t count = model.main.operations.size();
  std::vector<bool> supported(count, false);
  std::vector<std::string> reasons(count);
  // The compiler's rules assume a valid model (as a HAL driver, docs/nnapi-semantics.md §6.1).
  if (Status status = validateModel(model, ValidationMode::RUNTIME); !status.isOk()) {
    for (auto& reason : reasons) reason = "the model is invalid: " + status.message();
  } else {
    const auto features = compiler::FabricFeatures::fromRegister(this->features());
    for (uint32_t i = 0; i < count; ++i) {
      std::string reason;
      bool ok = compiler::isOperationSupported(model, 0, i, &reason, features);
      if (ok && isControlFlow(model.main.operations[i].type) &&
          runtime::hasOperandOfUnknownSize(model, 0, i)) {
        ok = false;
        reason = "an operand of unknown size: such control flow runs on the CPU";
      }
      if (!ok && reason.empty()) reason = "not supported by " + name_;
      supported[i] = ok;
      if (!ok) reasons[i] = std::move(reason);
    }
  }
  if (why) *why = std::move(reasons);
  return supported;
}

runtime::Plan FabricDevice::partition(const Model& model) const {
  return runtime::partition(model, target());
}

Result<std::unique_ptr<PreparedModel>> FabricDevice::prepare(const Model& model,
                                                             const PrepareOptions& options) const {
  if (Status status = checkPrepareOptions(options); !status.isOk()) return status;
  // The CPU executor validates exactly as the cpu device does, runs every
  // operation the fabric does not, and is the fallback of last resort.
  auto prepared = cpu::CpuExecutor::prepare(model);
  if (!prepared.isOk()) return std::move(prepared).takeStatus();
  std::shared_ptr<const cpu::CpuExecutor> whole = std::move(prepared).value();

  if (options.observed) {
    // Every operation its own step, always through the plan executor, never cached.
    auto executor = std::make_unique<runtime::PlanExecutor>(
        whole, runtime::partitionObserved(whole->model(), target()), *engine_);
    if (Status status = executor->prepare(); !status.isOk()) return status;
    if (Status status = checkPrepareFinishedInTime(options); !status.isOk()) return status;
    return std::unique_ptr<PreparedModel>(
        std::make_unique<FabricPreparedModel>(std::move(whole), std::move(executor), options));
  }

  // With a cache location: the plan and programs of an earlier preparation
  // of this model for this device and priority, if a sound entry is there.
  std::optional<runtime::CacheIdentity> identity;
  std::optional<runtime::CacheEntry> cached;
  if (options.cache) {
    identity = runtime::CacheIdentity{name_, options.priority, runtime::modelDigest(whole->model())};
    runtime::CacheLoad load = runtime::loadCacheEntry(*options.cache, *identity, whole->model());
    // Damage is worth a warning; an entry of another version or model is
    // what upgrades and reused tokens leave behind.
    const bool damaged = load.verdict == runtime::CacheVerdict::TRUNCATED ||
                         load.verdict == runtime::CacheVerdict::CORRUPTED ||
                         load.verdict == runtime::CacheVerdict::INVALID_PLAN;
    if (load.verdict != runtime::CacheVerdict::LOADED && load.verdict != runtime::CacheVerdict::MISSING) {
      spdlog::log(damaged ? spdlog::level::warn : spdlog::level::debug,
                  "{}: compilation cache entry {} rejected ({}); preparing from scratch", name_,
                  runtime::cacheFilePath(*options.cache), runtime::toString(load.verdict));
    }
    cached = std::move(load.entry);
  }
  // Saves what this preparation produced, when it was not loaded.
  auto store = [&](const runtime::Plan& plan, std::vector<runtime::PlanExecutor::StepProgram> programs) {
    if (!identity || cached) return;
    runtime::CacheEntry entry{*identity, plan, std::move(programs)};
    if (Status status = runtime::storeCacheEntry(*options.cache, entry); !status.isOk()) {
      spdlog::warn("{}: {}", name_, status.message());  // caching is a hint: the model is prepared anyway
    }
  };

  runtime::Plan plan = cached ? std::move(cached->plan) : runtime::partition(whole->model(), target());
  if (!plan.usesFabric()) {
    store(plan, {});
    if (Status status = checkPrepareFinishedInTime(options); !status.isOk()) return status;
    return std::unique_ptr<PreparedModel>(std::make_unique<FabricPreparedModel>(whole, nullptr, options));
  }
  auto executor = std::make_unique<runtime::PlanExecutor>(whole, std::move(plan), *engine_);
  if (cached) executor->seed(std::move(cached->programs));
  if (Status status = executor->prepare(); !status.isOk()) {
    if (status.code() == ErrorStatus::RESOURCE_EXHAUSTED_PERSISTENT) return status;
    // A step sub-model the CPU executor refuses would be a partitioning bug;
    // the whole model still runs on the CPU with the right results.
    spdlog::warn("{}: partitioned preparation failed ({}), running the model on the CPU", name_,
                 status.message());
    executor.reset();
  }
  if (executor) store(executor->plan(), executor->programs());
  if (executor && options.profiled) {
    // A hint (PrepareOptions::profiled): should it fail, the first profiled run tries again.
    if (Status status = engine_->prepareTrace(); !status.isOk()) {
      spdlog::debug("{}: preparing for profiling: {}", name_, status.message());
    }
  }
  if (Status status = checkPrepareFinishedInTime(options); !status.isOk()) return status;
  return std::unique_ptr<PreparedModel>(
      std::make_unique<FabricPreparedModel>(std::move(whole), std::move(executor), options));
}

}  // namespace nnfab
