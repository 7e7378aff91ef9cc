#include "ddr_model.h"

#include <algorithm>
#include <cstring>

namespace nnfab::sim {

using sc_core::SC_NS;
using sc_core::sc_time;

DdrModel::DdrModel(sc_core::sc_module_name name, const MemoryProfile& profile, fabric::DeviceMemory& memory)
    : sc_module(name), socket("socket"), profile_(profile), memory_(memory),
      channelFree_(std::max<uint32_t>(profile.channels, 1), sc_core::SC_ZERO_TIME) {
  socket.register_b_transport(this, &DdrModel::b_transport);
  socket.register_transport_dbg(this, &DdrModel::transport_dbg);
}

uint32_t DdrModel::channelOf(uint64_t address) const {
  if (profile_.channelBytes == 0) return 0;
  return static_cast<uint32_t>((address / profile_.channelBytes) % channelFree_.size());
}

sc_time DdrModel::reserve(uint32_t channel, bool write, uint64_t bytes, const sc_time& arrival) {
  // GB/s is bytes per ns.
  const double gbps = write ? profile_.writeGBps : profile_.readGBps;
  const sc_time transfer(static_cast<double>(bytes) / gbps, SC_NS);
  sc_time& free = channelFree_.at(channel);
  const sc_time start = std::max(arrival, free);
  free = start + transfer;
  return start + sc_time(write ? profile_.writeLatencyNs : profile_.latencyNs, SC_NS) + transfer;
}

void DdrModel::clearReservations() { std::fill(channelFree_.begin(), channelFree_.end(), sc_core::SC_ZERO_TIME); }

bool DdrModel::access(tlm::tlm_generic_payload& trans) {
  const uint64_t address = trans.get_address();
  const uint64_t bytes = trans.get_data_length();
  uint8_t* image = memory_.map(address, bytes, 1);
  if (image == nullptr) return false;
  uint8_t* data = trans.get_data_ptr();
  const uint8_t* enables = trans.get_byte_enable_ptr();
  const uint64_t enableLength = trans.get_byte_enable_length();
  if (trans.is_read()) {
    std::memcpy(data, image, bytes);
  } else if (enables == nullptr || enableLength == 0) {
    std::memcpy(image, data, bytes);
  } else {
    for (uint64_t i = 0; i < bytes; ++i) {
      if (enables[i % enableLength] == TLM_BYTE_ENABLED) image[i] = data[i];
    }
  }
  return true;
}

void DdrModel::b_transport(int /*initiator*/, tlm::tlm_generic_payload& trans, sc_time& delay) {
  if (trans.get_command() == tlm::TLM_IGNORE_COMMAND) {
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  if (!access(trans)) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  const bool write = trans.is_write();
  const sc_time now = sc_core::sc_time_stamp();
  const sc_time arrival = now + delay;
  // A transaction across a channel boundary is served by each channel for
  // its part, in parallel.
  sc_time done = arrival;
  uint64_t address = trans.get_address();
  uint64_t left = trans.get_data_length();
  while (left > 0) {
    const uint64_t room = profile_.channelBytes == 0 ? left : profile_.channelBytes - address % profile_.channelBytes;
    const uint64_t part = std::min(left, room);
    done = std::max(done, reserve(channelOf(address), write, part, arrival));
    address += part;
    left -= part;
  }
  (write ? bytesWritten_ : bytesRead_) += trans.get_data_length();
  ++transactions_;
  delay = done - now;
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

unsigned int DdrModel::transport_dbg(int /*initiator*/, tlm::tlm_generic_payload& trans) {
  if (trans.get_command() == tlm::TLM_IGNORE_COMMAND || !access(trans)) return 0;
  return trans.get_data_length();
}

}  // namespace nnfab::sim
