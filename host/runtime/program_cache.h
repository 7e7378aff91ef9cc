// Compiled programs of one FABRIC step, one per signature of input
// dimensions (a step inside a loop whose tensors change shape compiles once
// per shape). Failures are cached too, so a step the compiler rejects is not
// recompiled on every loop iteration. Thread-safe; bounded (oldest first out).
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <utility>
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

  // The compilation cache's view (compilation_cache.h): a key is the
  // input dimensions flattened as rank, extents, rank, extents, ...
  using Key = std::vector<uint32_t>;
  static Key keyOf(const std::vector<Dimensions>& inputDimensions);
  // Every program compiled successfully so far, oldest first.
  std::vector<std::pair<Key, compiler::Program>> compiled() const;
  // Adds a program compiled earlier (loaded from the cache): get() with
  // these dimensions returns it without compiling.
  void seed(Key key, compiler::Program program);

 private:
  const Model& model_;
  const compiler::StepSpec spec_;
  // Adds under mutex_ held, evicting the oldest beyond kMaxEntries.
  void insert(Key key, Entry entry);

  mutable std::mutex mutex_;
  std::map<std::vector<uint32_t>, Entry> entries_;
  std::deque<std::vector<uint32_t>> order_;
};

}  // namespace nnfab::runtime
