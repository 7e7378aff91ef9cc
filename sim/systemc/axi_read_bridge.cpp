#include "axi_read_bridge.h"

#include <fmt/format.h>

namespace nnfab::sim {

using sc_core::sc_time;

AxiReadBridge::AxiReadBridge(sc_core::sc_module_name name, const AxiBridgeConfig& config)
    : sc_module(name), socket("socket"), clk("clk"), rst_n("rst_n"), arvalid("arvalid"), arready("arready"),
      araddr("araddr"), arlen("arlen"), arsize("arsize"), arburst("arburst"), rvalid("rvalid"), rready("rready"),
      rdata("rdata"), rresp("rresp"), rlast("rlast"), config_(config) {
  SC_METHOD(onEdge);
  sensitive << clk.pos();
  dont_initialize();
  SC_THREAD(issuer);
}

void AxiReadBridge::reset() {
  queue_.clear();
  ++generation_;
  presenting_ = false;
  arreadyOut_ = false;
  arready.write(false);
  rvalid.write(false);
  rlast.write(false);
}

// Runs at every rising edge. Inputs read here are the values the core drove
// during the cycle that just ended, so VALID && READY is the handshake at
// this edge; outputs written here are what the core sees next cycle.
void AxiReadBridge::onEdge() {
  if (!rst_n.read()) {
    reset();
    return;
  }
  if (presenting_ && rready.read()) {
    presenting_ = false;
    Burst& front = *queue_.front();
    ++beats_;
    if (front.resp != kAxiOkay) ++errorBeats_;
    if (++front.sent == front.beats) queue_.pop_front();
  }
  if (arreadyOut_ && arvalid.read()) {
    auto burst = std::make_shared<Burst>();
    burst->address = araddr.read();
    burst->beats = arlen.read() + 1;
    ++bursts_;
    const std::string broken = checkBurst(burst->address, arlen.read(), arsize.read(), arburst.read());
    if (!broken.empty()) {
      ++protocolErrors_;
      lastProtocolError_ = fmt::format("{}: read burst {}", name(), broken);
      SC_REPORT_WARNING("nnfab/axi", lastProtocolError_.c_str());
      burst->beats = std::min(burst->beats, kAxiMaxBeats);
      burst->resp = kAxiSlvErr;
      burst->answered = true;
      burst->lastBeatAt = sc_core::sc_time_stamp();
    } else {
      accepted_.notify(sc_core::SC_ZERO_TIME);
    }
    burst->data.assign(uint64_t{burst->beats} * kAxiBeatBytes, 0);
    queue_.push_back(std::move(burst));
  }
  if (!presenting_ && !queue_.empty()) {
    const Burst& front = *queue_.front();
    const uint32_t after = front.beats - front.sent - 1;  // beats still to follow this one
    if (front.answered && sc_core::sc_time_stamp() + config_.clockPeriod * after >= front.lastBeatAt) {
      BeatBits beat;
      bytesToBeat(front.data.data() + uint64_t{front.sent} * kAxiBeatBytes, &beat);
      rdata.write(beat);
      rresp.write(front.resp);
      rlast.write(after == 0);
      presenting_ = true;
    }
  }
  rvalid.write(presenting_);
  arreadyOut_ = queue_.size() < config_.maxOutstanding;
  arready.write(arreadyOut_);
}

// Issues every accepted burst's TLM read as soon as it is accepted, without
// waiting for the annotated time: the memory model decides when the data is
// there, and several reads are in flight at once.
void AxiReadBridge::issuer() {
  for (;;) {
    wait(accepted_);
    // Rescan after each read: a target that waits lets the queue change.
    for (bool issued = true; issued;) {
      issued = false;
      for (const std::shared_ptr<Burst>& queued : queue_) {
        if (queued->answered) continue;
        std::shared_ptr<Burst> burst = queued;
        const uint64_t generation = generation_;
        tlm::tlm_generic_payload trans;
        trans.set_command(tlm::TLM_READ_COMMAND);
        trans.set_address(burst->address);
        trans.set_data_ptr(burst->data.data());
        trans.set_data_length(static_cast<unsigned int>(burst->data.size()));
        trans.set_streaming_width(static_cast<unsigned int>(burst->data.size()));
        trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        sc_time delay = sc_core::SC_ZERO_TIME;
        socket->b_transport(trans, delay);
        if (generation == generation_) {  // else a reset came while the target waited
          burst->resp = axiResp(trans.get_response_status());
          burst->lastBeatAt = sc_core::sc_time_stamp() + delay;
          burst->answered = true;
        }
        issued = true;
        break;
      }
    }
  }
}

}  // namespace nnfab::sim
