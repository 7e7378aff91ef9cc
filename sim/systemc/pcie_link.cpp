#include "pcie_link.h"

#include <algorithm>

namespace nnfab::sim {

using sc_core::SC_NS;
using sc_core::sc_time;

PcieLink::PcieLink(sc_core::sc_module_name name, const PcieProfile& profile)
    : sc_module(name), dma("dma"), mmio("mmio"), toMemory("toMemory"), toControl("toControl"), profile_(profile) {
  dma.register_b_transport(this, &PcieLink::dmaTransport);
  mmio.register_b_transport(this, &PcieLink::mmioTransport);
}

sc_time PcieLink::transferTime(bool toDevice, uint64_t bytes) const {
  const double gbps = toDevice ? profile_.h2dGBps : profile_.d2hGBps;  // bytes per ns
  return sc_time(profile_.transferUs * 1000.0 + static_cast<double>(bytes) / gbps, SC_NS);
}

void PcieLink::dmaTransport(tlm::tlm_generic_payload& trans, sc_time& delay) {
  const bool toDevice = trans.is_write();
  const uint64_t bytes = trans.get_data_length();
  const sc_time now = sc_core::sc_time_stamp();
  sc_time& free = toDevice ? h2dFree_ : d2hFree_;
  const sc_time start = std::max(now + delay, free);
  const sc_time linkDone = start + transferTime(toDevice, bytes);
  free = linkDone;
  // The data reaches the memory once the transfer is set up; the memory's
  // own time overlaps the link's.
  sc_time memoryDelay = start - now + sc_time(profile_.transferUs * 1000.0, SC_NS);
  toMemory->b_transport(trans, memoryDelay);
  if (trans.is_response_error()) return;
  if (toDevice) {
    h2dBytes_ += bytes;
    ++h2dTransfers_;
  } else {
    d2hBytes_ += bytes;
    ++d2hTransfers_;
  }
  delay = std::max(linkDone, now + memoryDelay) - now;
}

void PcieLink::mmioTransport(tlm::tlm_generic_payload& trans, sc_time& delay) {
  // The AXI4-Lite side runs in real simulated time: catch up first.
  wait(delay);
  delay = sc_core::SC_ZERO_TIME;
  sc_time none = sc_core::SC_ZERO_TIME;
  if (trans.is_read()) {
    ++mmioReads_;
    const sc_time half(profile_.mmioReadNs / 2, SC_NS);
    wait(half);
    toControl->b_transport(trans, none);
    wait(half);
  } else {
    ++mmioWrites_;
    wait(sc_time(profile_.mmioWriteNs, SC_NS));
    toControl->b_transport(trans, none);
  }
}

}  // namespace nnfab::sim
