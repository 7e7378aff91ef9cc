// Test helpers for the fabric: hand-assembled programs (host/fabric/insn.h)
// run on an HlsBackend through CoreDriver, with the data region read back.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <vector>

#include "backends/hls_backend.h"
#include "fabric/core_driver.h"
#include "fabric/device_program.h"
#include "fabric/insn.h"
#include "fabric/registers.h"
#include "nnfab_isa.h"

namespace nnfab::fabric::test {

using backends::HlsBackend;
using backends::HlsBackendOptions;

// A program under construction; branch targets are instruction indexes.
struct Asm {
  std::vector<uint64_t> code;
  uint32_t here() const { return static_cast<uint32_t>(code.size()); }
  uint32_t emit(uint64_t insn) {
    code.push_back(insn);
    return here() - 1;
  }
  // Stores r1..r31 to data offsets base + 4 * r, then halts.
  void dumpRegistersAndHalt(uint32_t base) {
    for (uint32_t r = 1; r < isa::kNUM_SCALAR_REGS; ++r) emit(insn::stw(r, 0, base + 4 * r));
    emit(insn::halt());
  }
};

// The counter loop of docs/isa.md: r1 counts from 0 to n (in r2) by r3 = 1,
// then the result goes to data offset 0. With `watchdog`, the loop is armed.
inline Asm counterLoop(int32_t n, bool watchdog = false) {
  Asm a;
  a.emit(insn::li(1, 0));
  a.emit(insn::li(2, n));
  a.emit(insn::li(3, 1));
  if (watchdog) a.emit(insn::wdarm());
  const uint32_t test = a.emit(0);  // bge r1, r2, exit (patched)
  const uint32_t top = a.emit(insn::alu(isa::kFnADD, 1, 1, 3));
  a.emit(insn::brcmp(isa::kFnLT, 1, 2, top, /*backedge=*/true));
  const uint32_t exit = a.here();
  a.code[test] = insn::brcmp(isa::kFnGE, 1, 2, exit);
  if (watchdog) a.emit(insn::wdoff());
  a.emit(insn::stw(1, 0, 0));
  a.emit(insn::halt());
  return a;
}

// jmp-to-self with the loop watchdog armed: never ends by itself.
inline Asm infiniteLoop(bool watchdog = true) {
  Asm a;
  if (watchdog) a.emit(insn::wdarm());
  const uint32_t top = a.here();
  a.emit(insn::alu(isa::kFnADD, 1, 1, 2));
  a.emit(insn::jmp(top, /*backedge=*/true));
  return a;
}

// An armed infinite loop of in-place tensor ADDs over n INT32 at data
// offset 64 (descriptor at 0): in C-simulation it runs several times slower
// than the card would, so the host's wall-clock watchdog fires before the
// fabric's cycle budget does. Needs 64 + 4n data bytes, descriptor included.
inline Asm slowLoop(uint32_t n, std::vector<uint8_t>* image) {
  image->assign(64 + 4 * uint64_t{n}, 0);
  const uint32_t desc[16] = {1, 1, 1, n, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0};
  std::memcpy(image->data(), desc, sizeof(desc));
  Asm a;
  a.emit(insn::li(1, 64));
  a.emit(insn::wdarm());
  const uint32_t top = a.emit(insn::tensor(isa::kFnADD, isa::kTypeINT32, 1, 1, 1, 0, 0));
  a.emit(insn::jmp(top, /*backedge=*/true));
  return a;
}

template <typename T>
void put(std::vector<uint8_t>& image, uint64_t offset, const std::vector<T>& values) {
  if (image.size() < offset + values.size() * sizeof(T)) image.resize(offset + values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(image.data() + offset, values.data(), values.size() * sizeof(T));
}

template <typename T>
std::vector<T> get(const std::vector<uint8_t>& image, uint64_t offset, size_t count) {
  std::vector<T> v(count);
  if (count != 0) std::memcpy(v.data(), image.data() + offset, count * sizeof(T));
  return v;
}

inline int32_t word(const std::vector<uint8_t>& image, uint64_t offset) { return get<int32_t>(image, offset, 1)[0]; }

struct Outcome {
  RunReport report;
  std::vector<uint8_t> data;
};

// Loads and runs `code` on `backend` (one run, no resume) and reads the
// whole data region back.
// With `windows`, the region's windows B and D (docs/isa.md "Memory model")
// begin there; the whole region is read back by offset.
inline Outcome runOn(FabricBackend& backend, std::span<const uint64_t> code, const std::vector<uint8_t>& image,
                     uint64_t dataBytes, const RunLimits& limits = {}, WindowStarts windows = {}) {
  Outcome out;
  Result<DeviceProgram> program = DeviceProgram::load(backend, code, image, dataBytes, {}, windows);
  EXPECT_TRUE(program.isOk()) << program.status().message();
  if (!program) return out;
  CoreDriver driver(backend);
  Result<RunReport> report = driver.run(program->loaded(), limits);
  EXPECT_TRUE(report.isOk()) << report.status().message();
  if (!report) return out;
  out.report = *report;
  out.data.resize(dataBytes);
  EXPECT_TRUE(program->readData(0, out.data.data(), dataBytes).isOk());
  return out;
}

// A loaded program's regions into the core's registers (PROG, DATA, CTX),
// as a host does before AP_START; the caller sets the rest and starts.
inline void writeProgramRegisters(FabricBackend& backend, const LoadedProgram& l) {
  writeRegister64(backend, isa::kRegPROG_ADDR, l.program);
  backend.writeRegister(isa::kRegPROG_SIZE, l.programBytes);
  writeRegister64(backend, isa::kRegDATA_ADDR, l.data);
  backend.writeRegister(isa::kRegDATA_SIZE, l.dataBytes);
  writeRegister64(backend, isa::kRegCTX_ADDR, l.context);
}

inline HlsBackendOptions smallDevice(uint32_t slice = 1u << 20) {
  HlsBackendOptions o;
  o.memoryBytes = uint64_t{64} << 20;
  o.sliceInstructions = slice;
  return o;
}

inline Outcome run(const Asm& a, const std::vector<uint8_t>& image, uint64_t dataBytes,
                   const RunLimits& limits = {}, HlsBackendOptions options = smallDevice(),
                   WindowStarts windows = {}) {
  HlsBackend backend(options);
  return runOn(backend, a.code, image, dataBytes, limits, windows);
}

// docs/isa.md: program_load = mem_latency + ceil(PROG_SIZE / 64).
inline uint64_t programLoadCycles(size_t instructions, uint32_t memLatency = isa::kCycle_mem_latency) {
  return memLatency + (instructions * isa::kINSTRUCTION_BYTES + 63) / 64;
}

#define EXPECT_CORE_STATUS(outcome, expected)                                               \
  EXPECT_EQ((outcome).report.coreStatus, static_cast<uint32_t>(expected))                   \
      << "core stopped with " << (outcome).report.coreStatus << ": "                         \
      << (outcome).report.status.message()

}  // namespace nnfab::fabric::test
