#include "axi_write_bridge.h"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

namespace nnfab::sim {

using sc_core::sc_time;

AxiWriteBridge::AxiWriteBridge(sc_core::sc_module_name name, const AxiBridgeConfig& config)
    : sc_module(name), socket("socket"), clk("clk"), rst_n("rst_n"), awvalid("awvalid"), awready("awready"),
      awaddr("awaddr"), awlen("awlen"), awsize("awsize"), awburst("awburst"), wvalid("wvalid"), wready("wready"),
      wdata("wdata"), wstrb("wstrb"), wlast("wlast"), bvalid("bvalid"), bready("bready"), bresp("bresp"),
      config_(config) {
  SC_METHOD(onEdge);
  sensitive << clk.pos();
  dont_initialize();
  SC_THREAD(issuer);
}

void AxiWriteBridge::reset() {
  queue_.clear();
  early_.clear();
  ++generation_;
  awreadyOut_ = wreadyOut_ = presenting_ = false;
  awready.write(false);
  wready.write(false);
  bvalid.write(false);
}

void AxiWriteBridge::protocolError(Burst* burst, const std::string& what) {
  ++protocolErrors_;
  lastProtocolError_ = fmt::format("{}: write burst {}", name(), what);
  SC_REPORT_WARNING("nnfab/axi", lastProtocolError_.c_str());
  if (burst != nullptr) {
    burst->refused = true;
    burst->resp = kAxiSlvErr;
  }
}

void AxiWriteBridge::addBeat(Burst& burst, const Beat& beat) {
  if (burst.received == burst.beats) return;
  const uint64_t at = uint64_t{burst.received} * kAxiBeatBytes;
  std::memcpy(burst.data.data() + at, beat.data.data(), kAxiBeatBytes);
  for (uint32_t i = 0; i < kAxiBeatBytes; ++i) {
    const bool on = ((beat.strobes >> i) & 1u) != 0;
    burst.enables[at + i] = on ? TLM_BYTE_ENABLED : TLM_BYTE_DISABLED;
    burst.partial = burst.partial || !on;
  }
  ++burst.received;
  ++beats_;
  if (beat.last != (burst.received == burst.beats)) {
    protocolError(&burst, fmt::format("to 0x{:x}: WLAST {} on beat {} of {}", burst.address,
                                      beat.last ? "set" : "missing", burst.received, burst.beats));
    burst.received = burst.beats;  // a burst ended by a wrong WLAST is answered, not left waiting
  }
  if (burst.received == burst.beats) {
    if (burst.refused) {
      burst.answered = true;
      burst.responseAt = sc_core::sc_time_stamp();
    } else {
      complete_.notify(sc_core::SC_ZERO_TIME);
    }
  }
}

// Runs at every rising edge; see AxiReadBridge::onEdge for the timing rule.
void AxiWriteBridge::onEdge() {
  if (!rst_n.read()) {
    reset();
    return;
  }
  if (presenting_ && bready.read()) {
    presenting_ = false;
    if (queue_.front()->resp != kAxiOkay) ++errorResponses_;
    queue_.pop_front();
  }
  if (awreadyOut_ && awvalid.read()) {
    auto burst = std::make_shared<Burst>();
    burst->address = awaddr.read();
    burst->beats = std::min(awlen.read() + 1, kAxiMaxBeats);
    ++bursts_;
    const std::string broken = checkBurst(burst->address, awlen.read(), awsize.read(), awburst.read());
    if (!broken.empty()) protocolError(burst.get(), broken);
    burst->data.assign(uint64_t{burst->beats} * kAxiBeatBytes, 0);
    burst->enables.assign(burst->data.size(), TLM_BYTE_DISABLED);
    while (!early_.empty() && burst->received < burst->beats) {
      addBeat(*burst, early_.front());
      early_.pop_front();
    }
    queue_.push_back(std::move(burst));
  }
  if (wreadyOut_ && wvalid.read()) {
    Beat beat{std::vector<uint8_t>(kAxiBeatBytes), wstrb.read(), wlast.read()};
    beatToBytes(wdata.read(), beat.data.data());
    auto open = std::find_if(queue_.begin(), queue_.end(),
                             [](const std::shared_ptr<Burst>& b) { return b->received < b->beats; });
    if (open != queue_.end()) {
      addBeat(**open, beat);
    } else {
      early_.push_back(std::move(beat));
    }
  }
  if (!presenting_ && !queue_.empty()) {
    const Burst& front = *queue_.front();
    if (front.answered && sc_core::sc_time_stamp() >= front.responseAt) {
      bresp.write(front.resp);
      presenting_ = true;
    }
  }
  bvalid.write(presenting_);
  awreadyOut_ = queue_.size() < config_.maxOutstanding;
  const bool waitingBurst = std::any_of(queue_.begin(), queue_.end(),
                                        [](const std::shared_ptr<Burst>& b) { return b->received < b->beats; });
  wreadyOut_ = waitingBurst || early_.size() < kEarlyBeats;
  awready.write(awreadyOut_);
  wready.write(wreadyOut_);
}

void AxiWriteBridge::issuer() {
  for (;;) {
    wait(complete_);
    for (bool issued = true; issued;) {
      issued = false;
      for (const std::shared_ptr<Burst>& queued : queue_) {
        if (queued->answered || queued->received < queued->beats) continue;
        std::shared_ptr<Burst> burst = queued;
        const uint64_t generation = generation_;
        tlm::tlm_generic_payload trans;
        trans.set_command(tlm::TLM_WRITE_COMMAND);
        trans.set_address(burst->address);
        trans.set_data_ptr(burst->data.data());
        trans.set_data_length(static_cast<unsigned int>(burst->data.size()));
        trans.set_streaming_width(static_cast<unsigned int>(burst->data.size()));
        if (burst->partial) {
          trans.set_byte_enable_ptr(burst->enables.data());
          trans.set_byte_enable_length(static_cast<unsigned int>(burst->enables.size()));
        }
        trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        sc_time delay = sc_core::SC_ZERO_TIME;
        socket->b_transport(trans, delay);
        if (generation == generation_) {
          burst->resp = axiResp(trans.get_response_status());
          burst->responseAt = sc_core::sc_time_stamp() + delay;
          burst->answered = true;
        }
        issued = true;
        break;
      }
    }
  }
}

}  // namespace nnfab::sim
