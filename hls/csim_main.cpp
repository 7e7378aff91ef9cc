// The C-simulation testbench Vitis HLS runs (csim_design, cosim_design): the
// counter loop of docs/isa.md and one broadcasting tensor ADD, checked by
// hand-computed values. Returns 0 when the core behaves. g++ builds it too
// (test hls_csim_testbench), so it cannot rot where Vitis is not installed.
#include <stdint.h>
#include <stdio.h>

#include "nnfab_core.h"
#include "nnfab_isa.h"

namespace {

using namespace nnfab::isa;

uint64_t encode(uint32_t opcode, uint32_t rd, uint32_t ra, uint32_t rb, uint32_t imm, uint32_t type = 0,
                uint32_t backedge = 0) {
  return encodeFields(Fields{opcode, rd, ra, rb, 0, type, backedge, 0, imm});
}

struct Outputs {
  uint32_t watchdog, status, haltPc, faultInfo, features, id, version, traceCount, traceDropped;
  uint64_t cycles, iterations, instret, classCycles[nnfab::isa::kNumTraceClasses];
  uint64_t trace[nnfab::isa::kTRACE_DEPTH];
};

Outputs run(const uint64_t* prog, uint32_t instructions, uint32_t* data, uint32_t dataBytes, uint32_t* ctx) {
  Outputs o = {};
  const uint32_t preempt = 0;
  nnfab_core(prog, data, ctx, instructions * kINSTRUCTION_BYTES, dataBytes, 0, 0, 0, 0, &preempt, &o.watchdog,
             &o.status, &o.haltPc, &o.faultInfo, &o.features, &o.cycles, &o.iterations, &o.instret, &o.id, &o.version,
             &o.traceCount, &o.traceDropped, &o.classCycles[0], &o.classCycles[1], &o.classCycles[2],
             &o.classCycles[3], &o.classCycles[4], nullptr, o.trace, data, data, kNoWindowStart, kNoWindowStart);
  return o;
}

int check(bool ok, const char* what) {
  printf("%s: %s\n", ok ? "pass" : "FAIL", what);
  return ok ? 0 : 1;
}

}  // namespace

int main() {
  int failures = 0;
  uint32_t ctx[kCONTEXT_BYTES / 4] = {};

  // while (i < 1000) i = i + 1; then store i at offset 0.
  const uint64_t loop[] = {
      encode(kOpLI, 1, 0, 0, 0),
      encode(kOpLI, 2, 0, 0, 1000),
      encode(kOpLI, 3, 0, 0, 1),
      encode(kClassBRCMP | kFnGE, 0, 1, 2, 6),
      encode(kClassSALU | kFnADD, 1, 1, 3, 0),
      encode(kClassBRCMP | kFnLT, 0, 1, 2, 4, 0, 1),
      encode(kOpSTW, 0, 0, 1, 0),
      encode(kOpHALT, 0, 0, 0, 0),
  };
  uint32_t data[64] = {};
  Outputs o = run(loop, 8, data, sizeof(data), ctx);
  failures += check(o.status == kStatusDONE && data[0] == 1000, "counter loop result");
  failures += check(o.iterations == 999 && o.instret == 2006, "counter loop counters");
  // program_load (32 + 1) + 3 li + bge + 1000 x (add, blt) + stw + halt
  failures += check(o.cycles == 33 + 3 + 1 + 2000 + 2, "counter loop cycles: 2 per iteration");
  failures += check(o.id == kCORE_ID && o.version == kIsaVersion, "ID and ISA_VERSION");

  // out[2][4] = a[2][4] + b[4] (b broadcast along the rows), descriptor at 0.
  uint32_t t[64] = {};
  const uint32_t desc[16] = {1, 1, 2, 4, 0, 0, 4, 1, 0, 0, 0, 1, 0, 0, 0, 0};
  for (int i = 0; i < 16; ++i) t[i] = desc[i];
  for (int i = 0; i < 8; ++i) t[16 + i] = static_cast<uint32_t>(i * 10);  // a at byte 64
  for (int i = 0; i < 4; ++i) t[32 + i] = static_cast<uint32_t>(i + 1);   // b at byte 128
  const uint64_t add[] = {
      encode(kOpLI, 1, 0, 0, 192), encode(kOpLI, 2, 0, 0, 64), encode(kOpLI, 3, 0, 0, 128),
      encode(kClassTENSOR | kFnADD, 1, 2, 3, 0, kTypeINT32), encode(kOpHALT, 0, 0, 0, 0)};
  o = run(add, 5, t, sizeof(t), ctx);
  bool sums = o.status == kStatusDONE;
  for (int i = 0; i < 8; ++i) sums = sums && t[48 + i] == static_cast<uint32_t>(i * 10 + i % 4 + 1);
  failures += check(sums, "broadcasting tensor ADD");

  // An access past the data region faults before writing.
  const uint64_t bad[] = {encode(kOpSTW, 0, 0, 3, 256), encode(kOpHALT, 0, 0, 0, 0)};
  o = run(bad, 2, data, sizeof(data), ctx);
  failures += check(o.status == kStatusACCESS_FAULT && o.faultInfo == 256, "ACCESS_FAULT");

  printf("%d failure(s)\n", failures);
  return failures == 0 ? 0 : 1;
}
