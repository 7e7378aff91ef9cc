#include "probe_backend.h"

namespace nnfab::bench {
namespace {

int64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

ProbeBackend::ProbeBackend(std::unique_ptr<fabric::FabricBackend> inner, std::optional<double> clockMhz)
    : inner_(std::move(inner)), clockMhz_(clockMhz) {}

uint64_t ProbeBackend::written64(uint32_t offset) const {
  const uint32_t word = offset / sizeof(uint32_t);
  if (word + 1 >= kWords) return 0;
  return (uint64_t{written_[word + 1].load()} << 32) | written_[word].load();
}

void ProbeBackend::writeRegister(uint32_t offset, uint32_t value) {
  const uint32_t word = offset / sizeof(uint32_t);
  if (word < kWords) written_[word].store(value);
  // Timestamp before the write: the device may accept the start at once.
  const bool starts = offset == isa::kRegAP_CTRL && (value & isa::kAP_START) != 0;
  const int64_t t = starts ? nowNs() : 0;
  inner_->writeRegister(offset, value);
  if (starts) {
    int64_t idle = -1;
    startedNs_.compare_exchange_strong(idle, t);
  }
}

void ProbeBackend::accessRegisters(std::span<fabric::RegisterAccess> accesses) {
  size_t from = 0;
  for (size_t i = 0; i < accesses.size(); ++i) {
    const fabric::RegisterAccess& a = accesses[i];
    if (a.kind != fabric::RegisterAccess::Kind::WRITE) continue;
    if (a.offset == isa::kRegAP_CTRL && (a.value & isa::kAP_START) != 0) {
      if (i > from) inner_->accessRegisters(accesses.subspan(from, i - from));
      writeRegister(a.offset, a.value);  // timestamps the start
      from = i + 1;
    } else if (const uint32_t word = a.offset / sizeof(uint32_t); word < kWords) {
      written_[word].store(a.value);
    }
  }
  if (from < accesses.size()) inner_->accessRegisters(accesses.subspan(from));
}

fabric::WaitOutcome ProbeBackend::waitDone(std::chrono::nanoseconds timeout) {
  const fabric::WaitOutcome outcome = inner_->waitDone(timeout);
  if (outcome == fabric::WaitOutcome::DONE) endRun();
  return outcome;
}

void ProbeBackend::reset() {
  inner_->reset();
  endRun();
}

void ProbeBackend::endRun() {
  const int64_t started = startedNs_.exchange(-1);
  if (started < 0) return;
  busyNs_ += nowNs() - started;
  ++runs_;
}

}  // namespace nnfab::bench
