// A planted fault for the sim device, for tests only (never in an installed
// binary): the RTL core computes correctly, and this tap (sim/sim_tap.h)
// flips one bit of one ALU result on its way to memory — in the write data
// of the `occurrence`-th instruction with opcode `opcode` (counted in
// retirement order from the backend's creation), the `word`-th 32-bit word
// it writes (counting only fully strobed words, in write order: for an
// elementwise TENSOR instruction, element `word` of its destination).
// `nnfab diff` must then name exactly that operation, iteration and element.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "runtime/device.h"
#include "sim_tap.h"

namespace nnfab::test {

class SimAluFault final : public sim::SimTap {
 public:
  SimAluFault(uint8_t opcode, uint64_t occurrence, uint32_t word, uint32_t bit)
      : opcode_(opcode), occurrence_(occurrence), word_(word), bit_(bit) {}

  void beforeEdge(sim::TapCycle& cycle) override;

  // Whether the bit has been flipped (once, ever).
  bool fired() const { return fired_.load(); }
  // Retired instructions with the opcode so far.
  uint64_t retired() const { return retired_.load(); }

 private:
  const uint8_t opcode_;
  const uint64_t occurrence_;
  const uint32_t word_;
  const uint32_t bit_;
  bool armed_ = false;
  uint32_t wordsSeen_ = 0;
  std::atomic<uint64_t> retired_{0};
  std::atomic<bool> fired_{false};
};

// A sim device (the RTL under Verilator, through SimBackend as the real one)
// whose backend carries `tap`. Each call makes a new device with its own core.
std::unique_ptr<Device> makeTappedSimDevice(std::shared_ptr<sim::SimTap> tap);

}  // namespace nnfab::test
