#include "runtime/program_cache.h"

namespace nnfab::runtime {

ProgramCache::Key ProgramCache::keyOf(const std::vector<Dimensions>& inputDimensions) {
  // Rank before each shape keeps [2][3] and [2, 3] apart.
  Key key;
  for (const Dimensions& dims : inputDimensions) {
    key.push_back(static_cast<uint32_t>(dims.size()));
    key.insert(key.end(), dims.begin(), dims.end());
  }
  return key;
}

ProgramCache::Entry ProgramCache::get(const std::vector<Dimensions>& inputDimensions) {
  Key key = keyOf(inputDimensions);
  std::lock_guard<std::mutex> lock(mutex_);
  if (auto it = entries_.find(key); it != entries_.end()) return it->second;
  auto entry = std::make_shared<const Result<compiler::Program>>(
      compiler::compile(model_, spec_, inputDimensions));
  insert(std::move(key), entry);
  return entry;
}

void ProgramCache::insert(Key key, Entry entry) {
  if (entries_.size() >= kMaxEntries) {
    entries_.erase(order_.front());
    order_.pop_front();
  }
  entries_.emplace(key, std::move(entry));
  order_.push_back(std::move(key));
}

std::vector<std::pair<ProgramCache::Key, compiler::Program>> ProgramCache::compiled() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::pair<Key, compiler::Program>> out;
  for (const Key& key : order_) {
    const Entry& entry = entries_.at(key);
    if (entry->isOk()) out.emplace_back(key, entry->value());
  }
  return out;
}

void ProgramCache::seed(Key key, compiler::Program program) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (entries_.count(key) != 0) return;
  insert(std::move(key), std::make_shared<const Result<compiler::Program>>(std::move(program)));
}

}  // namespace nnfab::runtime
