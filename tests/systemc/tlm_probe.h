// A TLM-2.0 initiator for tests: issues scripted transactions from a thread
// at given simulated times, without waiting for each other's annotated
// delays (as the AXI bridges do), and records when each completes.
#pragma once

#include <cstdint>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

namespace nnfab::sim::test {

struct ProbeTransaction {
  bool write = false;
  uint64_t address = 0;
  std::vector<uint8_t> data;            // written, or filled by a read (sized by the caller)
  sc_core::sc_time issueAt;             // simulated time of the call
  std::vector<uint8_t> byteEnables;     // empty: every byte
  // Filled in:
  tlm::tlm_response_status status = tlm::TLM_INCOMPLETE_RESPONSE;
  sc_core::sc_time completeAt;          // issue time + annotated delay
};

inline ProbeTransaction transaction(bool write, uint64_t address, std::vector<uint8_t> data,
                                    sc_core::sc_time issueAt = sc_core::SC_ZERO_TIME) {
  ProbeTransaction t;
  t.write = write;
  t.address = address;
  t.data = std::move(data);
  t.issueAt = issueAt;
  return t;
}

class TlmProbe : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(TlmProbe);
  tlm_utils::simple_initiator_socket<TlmProbe> socket;

  TlmProbe(sc_core::sc_module_name name, std::vector<ProbeTransaction> script)
      : sc_module(name), socket("socket"), script_(std::move(script)) {
    SC_THREAD(run);
  }

  const std::vector<ProbeTransaction>& results() const { return script_; }
  // The latest completion of all transactions.
  sc_core::sc_time lastCompletion() const {
    sc_core::sc_time last = sc_core::SC_ZERO_TIME;
    for (const ProbeTransaction& t : script_) last = std::max(last, t.completeAt);
    return last;
  }

 private:
  void run() {
    for (ProbeTransaction& t : script_) {
      if (t.issueAt > sc_core::sc_time_stamp()) wait(t.issueAt - sc_core::sc_time_stamp());
      tlm::tlm_generic_payload p;
      p.set_command(t.write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
      p.set_address(t.address);
      p.set_data_ptr(t.data.data());
      p.set_data_length(static_cast<unsigned int>(t.data.size()));
      p.set_streaming_width(static_cast<unsigned int>(t.data.size()));
      if (!t.byteEnables.empty()) {
        p.set_byte_enable_ptr(t.byteEnables.data());
        p.set_byte_enable_length(static_cast<unsigned int>(t.byteEnables.size()));
      }
      p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
      sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
      socket->b_transport(p, delay);
      t.status = p.get_response_status();
      t.completeAt = sc_core::sc_time_stamp() + delay;
    }
  }

  std::vector<ProbeTransaction> script_;
};

}  // namespace nnfab::sim::test
