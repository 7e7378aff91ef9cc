// The PCIe link between the host and the card, as a TLM-2.0 interconnect
// with two paths. DMA (`dma` -> `toMemory`): host copies into and out of
// device memory; each transfer costs a fixed setup time plus its bytes at the
// direction's bandwidth, one transfer at a time per direction, and completes
// no earlier than the memory says. MMIO (`mmio` -> `toControl`): 32-bit
// register accesses to the core's AXI4-Lite window; a read costs a round trip
// on top of the AXI4-Lite handshake, a write the posted-write cost. The MMIO
// path waits (the AXI4-Lite master clocks real pins), so call it from a
// thread.
#pragma once

#include <cstdint>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "platform_params.h"

namespace nnfab::sim {

class PcieLink : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<PcieLink> dma;
  tlm_utils::simple_target_socket<PcieLink> mmio;
  tlm_utils::simple_initiator_socket<PcieLink> toMemory;
  tlm_utils::simple_initiator_socket<PcieLink> toControl;

  PcieLink(sc_core::sc_module_name name, const PcieProfile& profile);

  const PcieProfile& profile() const { return profile_; }
  // Time one DMA transfer occupies the link (setup + bytes at bandwidth).
  sc_core::sc_time transferTime(bool toDevice, uint64_t bytes) const;

  uint64_t h2dBytes() const { return h2dBytes_; }
  uint64_t d2hBytes() const { return d2hBytes_; }
  uint64_t h2dTransfers() const { return h2dTransfers_; }
  uint64_t d2hTransfers() const { return d2hTransfers_; }
  uint64_t mmioReads() const { return mmioReads_; }
  uint64_t mmioWrites() const { return mmioWrites_; }

 private:
  void dmaTransport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  void mmioTransport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);

  const PcieProfile profile_;
  sc_core::sc_time h2dFree_, d2hFree_;
  uint64_t h2dBytes_ = 0, d2hBytes_ = 0, h2dTransfers_ = 0, d2hTransfers_ = 0;
  uint64_t mmioReads_ = 0, mmioWrites_ = 0;
};

}  // namespace nnfab::sim
