// The training run of the Verilated models' profile-guided build
// (NNFAB_SIM_PGO, docs/sim.md "Profile-guided build"): run by the build,
// never installed. It clocks the core through SimHarness on one thread, so
// the profile it leaves is the same on every run (no timing, no threads, no
// input from outside the repository). The workload is what the sim device
// spends its time on: scalar loops (branches, ALU, loads and stores), AXI4-Lite
// register accesses as CoreDriver makes them, and tensor operations on the
// vector engine; a profile of one loop alone would make the rest of the
// model cold. Exit status 0 when every run halted as expected.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <vector>

#include "fabric/insn.h"
#include "nnfab_isa.h"
#include "sim_harness.h"

namespace {

using namespace nnfab;
namespace insn = nnfab::fabric::insn;

constexpr uint64_t kMemoryBytes = uint64_t{1} << 20;
constexpr uint64_t kProgram = 0x1000;
constexpr uint64_t kContext = 0x8000;
constexpr uint64_t kData = 0x10000;

struct Trainer {
  std::vector<uint8_t> memory = std::vector<uint8_t>(kMemoryBytes, 0);
  sim::SimHarness harness{sim::HarnessConfig{}, [this](uint64_t address) -> uint8_t* {
                            return address + sim::kBeatBytes <= memory.size() ? memory.data() + address : nullptr;
                          }};

  void write64(uint32_t offset, uint64_t value) {
    harness.writeRegister(offset, static_cast<uint32_t>(value));
    harness.writeRegister(offset + 4, static_cast<uint32_t>(value >> 32));
  }

  // Loads code and data, starts the core as CoreDriver does, clocks it to
  // the stop and reads back what a host reads. False if it did not halt.
  bool run(const char* what, const std::vector<uint64_t>& code, const std::vector<uint8_t>& data) {
    std::memcpy(memory.data() + kProgram, code.data(), code.size() * sizeof(uint64_t));
    std::memcpy(memory.data() + kData, data.data(), data.size());
    std::memset(memory.data() + kContext, 0, isa::kCONTEXT_BYTES);
    write64(isa::kRegPROG_ADDR, kProgram);
    write64(isa::kRegDATA_ADDR, kData);
    write64(isa::kRegCTX_ADDR, kContext);
    harness.writeRegister(isa::kRegPROG_SIZE, static_cast<uint32_t>(code.size() * sizeof(uint64_t)));
    harness.writeRegister(isa::kRegDATA_SIZE, static_cast<uint32_t>(data.size()));
    harness.writeRegister(isa::kRegMODE, 0);
    harness.writeRegister(isa::kRegINSN_LIMIT, 0);
    write64(isa::kRegLOOP_BUDGET, 0);
    write64(isa::kRegEXEC_BUDGET, 0);
    harness.writeRegister(isa::kRegPREEMPT, 0);
    harness.writeRegister(isa::kRegAP_CTRL, isa::kAP_START);
    while (!harness.coreIdle()) {
      harness.run(2048, true);
      harness.readRegister(isa::kRegCYCLES);  // a host's progress poll
    }
    const uint32_t status = harness.readRegister(isa::kRegSTATUS);
    harness.readRegister(isa::kRegAP_CTRL);
    for (uint32_t r = isa::kRegCYCLES; r < isa::kRegID; r += 4) harness.readRegister(r);
    if (status != isa::kStatusDONE) {
      std::fprintf(stderr, "sim_pgo_train: %s stopped with STATUS %u\n", what, status);
      return false;
    }
    return true;
  }
};

std::vector<uint64_t> counterLoop(int32_t n) {
  std::vector<uint64_t> loop = {insn::li(1, 0), insn::li(2, n), insn::li(3, 1), 0,
                                insn::alu(isa::kFnADD, 1, 1, 3), insn::brcmp(isa::kFnLT, 1, 2, 4, true),
                                insn::stw(1, 0, 0), insn::halt()};
  loop[3] = insn::brcmp(isa::kFnGE, 1, 2, 6);
  return loop;
}

// acc += i and a load/store round trip per iteration: the data port's scalar path.
std::vector<uint64_t> memoryLoop(int32_t n) {
  std::vector<uint64_t> loop = {insn::li(1, 0), insn::li(2, n), insn::li(3, 1), insn::li(4, 0),
                                insn::ldw(5, 0, 4), insn::alu(isa::kFnADD, 5, 5, 1), insn::stw(5, 0, 4),
                                insn::alu(isa::kFnADD, 1, 1, 3), insn::brcmp(isa::kFnLT, 1, 2, 4, true),
                                insn::halt()};
  return loop;
}

// dst = A + B over n INT32 elements (the descriptor at 0, as in sim_speed).
std::vector<uint64_t> tensorAdd(uint32_t n, uint32_t fn) {
  return {insn::li(1, static_cast<int32_t>(64 + 8 * n)), insn::li(2, 64), insn::li(3, static_cast<int32_t>(64 + 4 * n)),
          insn::tensor(fn, isa::kTypeINT32, 1, 2, 3, 0, 0), insn::halt()};
}

std::vector<uint8_t> tensorImage(uint32_t n) {
  std::vector<uint8_t> image(64 + 12 * uint64_t{n});
  for (size_t i = 64; i < image.size(); ++i) image[i] = static_cast<uint8_t>(i * 37u);
  const uint32_t desc[16] = {1, 1, 1, n, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0};
  std::memcpy(image.data(), desc, sizeof(desc));
  return image;
}

}  // namespace

int main() {
  try {
    Trainer t;
    t.harness.reset();
    bool ok = t.run("counter loop", counterLoop(200000), std::vector<uint8_t>(64, 0));
    ok = t.run("memory loop", memoryLoop(20000), std::vector<uint8_t>(64, 0)) && ok;
    for (uint32_t fn : {isa::kFnADD, isa::kFnMUL, isa::kFnMAX}) {
      ok = t.run("tensor", tensorAdd(8192, fn), tensorImage(8192)) && ok;
    }
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sim_pgo_train: %s\n", e.what());
    return 1;
  }
}
