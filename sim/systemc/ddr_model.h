// Device memory as a TLM-2.0 loosely-timed target: the bytes live in a
// fabric::DeviceMemory (the allocator every emulated device uses), the
// timing follows a MemoryProfile. Each channel serves its transactions one
// after another at its bandwidth; each transaction completes `latency` after
// its transfer slot begins, so the latency of one overlaps the transfers of
// others (several outstanding bursts reach the channel's bandwidth). Never
// waits: b_transport annotates the completion time, so initiators may keep
// many transactions in flight.
#pragma once

#include <cstdint>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include "fabric/device_memory.h"
#include "platform_params.h"

namespace nnfab::sim {

class DdrModel : public sc_core::sc_module {
 public:
  // Every initiator (the PCIe DMA, each AXI bridge) binds here.
  tlm_utils::multi_passthrough_target_socket<DdrModel> socket;

  DdrModel(sc_core::sc_module_name name, const MemoryProfile& profile, fabric::DeviceMemory& memory);

  const MemoryProfile& profile() const { return profile_; }
  uint32_t channelOf(uint64_t address) const;
  // When a transaction of `bytes` arriving at `arrival` on `channel` would
  // complete, and the channel's next free slot after it: the model's whole
  // timing rule, applied by b_transport.
  sc_core::sc_time reserve(uint32_t channel, bool write, uint64_t bytes, const sc_core::sc_time& arrival);

  uint64_t bytesRead() const { return bytesRead_; }
  uint64_t bytesWritten() const { return bytesWritten_; }
  uint64_t transactions() const { return transactions_; }
  // Forget every reservation (after the core's reset, nothing is in flight).
  void clearReservations();

 private:
  void b_transport(int initiator, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned int transport_dbg(int initiator, tlm::tlm_generic_payload& trans);
  // Moves the bytes; false when the range is outside the memory.
  bool access(tlm::tlm_generic_payload& trans);

  const MemoryProfile profile_;
  fabric::DeviceMemory& memory_;
  std::vector<sc_core::sc_time> channelFree_;
  uint64_t bytesRead_ = 0;
  uint64_t bytesWritten_ = 0;
  uint64_t transactions_ = 0;
};

}  // namespace nnfab::sim
