// Compiled programs of one FABRIC step, one per signature of input
// dimensions (a step inside a loop whose tensors change shape compiles once
// per shape). Failures are cached too, so a step the compiler rejects is not
// recompiled on every loop iteration. Thread-safe; bounded (oldest first out).
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "compiler/compiler.h"
#include "model/model.h"

namespace nnfab::runtime {

class ProgramCache {
 public:
  using Entry = std::shared_ptr<const Result<compiler::Program>>;
  static constexpr size_t kMaxEntries = 32;

  ProgramCache(const Model& model, compiler::StepSpec spec) : model_(model), spec_(std::move(spec)) {}

  const compiler::StepSpec& spec() const { return spec_; }
  // The program for these step-input dimensions, compiled on first request.
  Entry get(const std::vector<Dimensions>& inputDimensions);

 private:
  const Model& model_;
  const compiler::StepSpec spec_;
  std::mutex mutex_;
  std::map<std::vector<uint32_t>, Entry> entries_;
  std::deque<std::vector<uint32_t>> order_;
};

}  // namespace nnfab::runtime
