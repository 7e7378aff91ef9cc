// Random valid-and-faulting nnfab programs for differential testing of the
// RTL against the HLS core: scalar ALU ops and DIV with edge values, forward
// branches and bounded counter loops, loads and stores (some out of range or
// misaligned), TENSOR instructions with broadcast, strided, misaligned and
// in-place operands (some with faulting regions), illegal words, HALT codes.
// Operand regions never overlap partially (the ISA leaves that undefined).
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "fabric/fabric_test_util.h"

namespace nnfab::fabric::test {

struct RandomProgramOptions {
  uint32_t blocks = 12;         // random blocks (straight code, a branch, a loop or a tensor op)
  bool tensors = true;
  bool faults = true;           // out-of-range accesses, illegal words, error HALTs
  bool loads = true;            // LDW/LDB (a load waits for posted stores: CYCLES differ, docs/rtl.md)
  uint32_t maxElements = 96;    // per tensor instruction
};

struct RandomProgram {
  Asm a;
  std::vector<uint8_t> image;
  uint64_t dataBytes = 0;
};

RandomProgram randomProgram(std::mt19937& rng, const RandomProgramOptions& options = {});

}  // namespace nnfab::fabric::test
