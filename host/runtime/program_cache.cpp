#include "runtime/program_cache.h"

namespace nnfab::runtime {

ProgramCache::Entry ProgramCache::get(const std::vector<Dimensions>& inputDimensions) {
  // Rank before each shape keeps [2][3] and [2, 3] apart.
  std::vector<uint32_t> key;
  for (const Dimensions& dims : inputDimensions) {
    key.push_back(static_cast<uint32_t>(dims.size()));
    key.insert(key.end(), dims.begin(), dims.end());
  }
  std::lock_guard<std::mutex> lock(mutex_);
  if (auto it = entries_.find(key); it != entries_.end()) return it->second;
  auto entry = std::make_shared<const Result<compiler::Program>>(
      compiler::compile(model_, spec_, inputDimensions));
  if (entries_.size() >= kMaxEntries) {
    entries_.erase(order_.front());
    order_.pop_front();
  }
  entries_.emplace(key, entry);
  order_.push_back(std::move(key));
  return entry;
}

}  // namespace nnfab::runtime
