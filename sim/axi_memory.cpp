#include "axi_memory.h"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

namespace nnfab::sim {

namespace {
constexpr uint32_t kBeatSizeCode = 6;  // AxSIZE: 64-byte beats
constexpr uint32_t kBurstIncr = 1;
constexpr uint32_t kMaxBurstBeats = 64;
constexpr uint64_t kBoundary = 4096;  // no burst crosses a 4 KiB boundary
}  // namespace

AxiMemory::AxiMemory(std::string name, AxiMemoryConfig config, BeatMap map)
    : name_(std::move(name)), config_(config), map_(std::move(map)) {}

void AxiMemory::violation(const std::string& what) const {
  throw AxiProtocolError(fmt::format("AXI protocol violation on {}: {}", name_, what));
}

void AxiMemory::checkAddress(const char* channel, uint64_t address, uint32_t len, uint32_t size,
                             uint32_t burst) const {
  const uint64_t beats = uint64_t{len} + 1;
  if (size != kBeatSizeCode) violation(fmt::format("{}SIZE {} (expected {})", channel, size, kBeatSizeCode));
  if (burst != kBurstIncr) violation(fmt::format("{}BURST {} (expected INCR)", channel, burst));
  if (address % kBeatBytes != 0) violation(fmt::format("{}ADDR 0x{:x} not 64-byte aligned", channel, address));
  if (beats > kMaxBurstBeats) violation(fmt::format("{}LEN {}: more than {} beats", channel, len, kMaxBurstBeats));
  if (address / kBoundary != (address + beats * kBeatBytes - 1) / kBoundary) {
    violation(fmt::format("{} burst at 0x{:x} of {} beats crosses a 4 KiB boundary", channel, address, beats));
  }
}

void AxiMemory::reset() {
  reads_.clear();
  writes_.clear();
  wbeats_.clear();
  responses_.clear();
  landing_.clear();
  failAddress_.reset();
  failNext_ = false;
  hung_ = false;
  pendingAr_.reset();
  pendingAw_.reset();
  nextReadBeat_ = 0;
  nextWriteBeat_ = 0;
}

bool AxiMemory::failBeat(uint64_t address) {
  if (failNext_) {
    failNext_ = false;
    return true;
  }
  return failAddress_ && *failAddress_ == address;
}

AxiSlaveOut AxiMemory::drive(uint64_t cycle) {
  AxiSlaveOut out;
  drive(cycle, out);
  return out;
}

void AxiMemory::drive(uint64_t cycle, AxiSlaveOut& out) {
  out.arready = out.rvalid = out.rlast = out.awready = out.wready = out.bvalid = false;
  out.rresp = out.bresp = kOkay;
  if (hung_) return;
  out.arready = reads_.size() < config_.maxOutstandingReads;
  out.awready = writes_.size() + responses_.size() < config_.maxOutstandingWrites;
  out.wready = cycle >= nextWriteBeat_;
  if (!reads_.empty() && reads_.front().readyCycle <= cycle && cycle >= nextReadBeat_) {
    Burst& b = reads_.front();
    const uint64_t address = b.address + uint64_t{b.done} * kBeatBytes;
    const uint8_t* bytes = map_(address);
    out.rvalid = true;
    out.rlast = b.done + 1 == b.beats;
    if (bytes == nullptr || failNext_ || (failAddress_ && *failAddress_ == address)) {
      out.rresp = kSlvErr;
      out.rdata.fill(0);
    } else {
      std::memcpy(out.rdata.data(), bytes, kBeatBytes);
    }
  }
  if (!responses_.empty() && responses_.front().readyCycle <= cycle) {
    out.bvalid = true;
    out.bresp = responses_.front().resp;
  }
}

uint64_t AxiMemory::quietUntil(uint64_t cycle) const {
  if (hung_ || pendingAr_ || pendingAw_) return cycle;
  // An edge leaves no W beat and accepted AW together (applyWrites pairs
  // them), so without a VALID nothing is written either.
  uint64_t until = kNever;
  if (cycle < nextWriteBeat_) until = nextWriteBeat_;  // WREADY rises then
  if (!reads_.empty()) until = std::min(until, std::max(reads_.front().readyCycle, nextReadBeat_));
  if (!responses_.empty()) until = std::min(until, responses_.front().readyCycle);
  return std::max(until, cycle);
}

void AxiMemory::edge(uint64_t cycle, const AxiMasterOut& m, const AxiSlaveOut& s) {
  // VALID must stay up, with the same payload, until it is accepted.
  if (pendingAr_ && (!m.arvalid || m.araddr != pendingAr_->araddr || m.arlen != pendingAr_->arlen)) {
    violation("ARVALID dropped or AR changed before ARREADY");
  }
  if (pendingAw_ && (!m.awvalid || m.awaddr != pendingAw_->awaddr || m.awlen != pendingAw_->awlen)) {
    violation("AWVALID dropped or AW changed before AWREADY");
  }
  pendingAr_.reset();
  pendingAw_.reset();

  if (m.arvalid) {
    checkAddress("AR", m.araddr, m.arlen, m.arsize, m.arburst);
    if (s.arready) {
      reads_.push_back(Burst{m.araddr, m.arlen + 1, 0, cycle + config_.readLatency, false});
    } else {
      pendingAr_ = m;
    }
  }
  if (s.rvalid && m.rready) {
    Burst& b = reads_.front();
    if (s.rresp != kOkay) failNext_ = false;  // the injected error was this beat
    nextReadBeat_ = cycle + std::max<uint32_t>(config_.readBeatInterval, 1);
    ++b.done;
    if (b.done == b.beats) reads_.pop_front();
  }
  if (m.awvalid) {
    checkAddress("AW", m.awaddr, m.awlen, m.awsize, m.awburst);
    if (s.awready) {
      writes_.push_back(Burst{m.awaddr, m.awlen + 1, 0, 0, false});
    } else {
      pendingAw_ = m;
    }
  }
  if (m.wvalid && s.wready) {
    wbeats_.push_back(WBeat{m.wdata, m.wstrb, m.wlast});
    nextWriteBeat_ = cycle + std::max<uint32_t>(config_.writeBeatInterval, 1);
  }
  if (s.bvalid && m.bready) {
    for (const Landing& l : responses_.front().landings) store(l.bytes, l.beat);
    responses_.pop_front();
  }
  applyWrites(cycle);
}

void AxiMemory::store(uint8_t* bytes, const WBeat& w) {
  const auto* src = reinterpret_cast<const uint8_t*>(w.data.data());
  for (uint32_t i = 0; i < kBeatBytes; ++i) {
    if ((w.strb >> i) & 1u) bytes[i] = src[i];
  }
}

void AxiMemory::applyWrites(uint64_t cycle) {
  while (!writes_.empty() && !wbeats_.empty()) {
    Burst& b = writes_.front();
    const WBeat w = wbeats_.front();
    wbeats_.pop_front();
    const bool last = b.done + 1 == b.beats;
    if (w.last != last) {
      violation(fmt::format("WLAST {} on beat {} of a {}-beat burst at 0x{:x}", w.last, b.done, b.beats, b.address));
    }
    const uint64_t address = b.address + uint64_t{b.done} * kBeatBytes;
    uint8_t* bytes = map_(address);
    if (bytes == nullptr || failBeat(address)) {
      b.error = true;
    } else if (config_.writesVisibleAtResponse) {
      landing_.push_back(Landing{bytes, w});
    } else {
      store(bytes, w);
    }
    ++b.done;
    if (last) {
      responses_.push_back(Response{b.error ? kSlvErr : kOkay, cycle + config_.writeResponseLatency, {}});
      responses_.back().landings.swap(landing_);
      writes_.pop_front();
    }
  }
}

}  // namespace nnfab::sim
