// The cycle model (docs/isa.md "Cycle model") as the hls device reports it:
// each formula checked against values computed by hand from the doc, the
// counter loop's cycles per iteration, and an elementwise ADD of 1M INT32.
#include <gtest/gtest.h>

#include "isa/cycle_model.h"
#include "hls/tensor_test_util.h"

namespace nnfab::fabric::test {
namespace {

// Cycles of [li r1..r4, one instruction, halt] minus everything but that
// instruction.
uint64_t cyclesOf(uint64_t insn, const std::vector<uint8_t>& image, HlsBackendOptions options = smallDevice()) {
  Asm a;
  a.emit(insn::li(1, 16 * 1024));
  a.emit(insn::li(2, 32 * 1024));
  a.emit(insn::li(3, 48 * 1024));
  a.emit(insn::li(4, 7));
  a.emit(insn);
  a.emit(insn::halt());
  const Outcome out = run(a, image, image.size(), {}, options);
  EXPECT_CORE_STATUS(out, isa::kStatusDONE);
  return out.report.cycles - programLoadCycles(a.code.size(), options.memLatency) - 4 - 1;
}

TEST(HlsCycleModel, CounterLoopTakesAtMostTwoCyclesPerIteration) {
  const Outcome small = run(counterLoop(100000), {}, 64);
  const Outcome large = run(counterLoop(1100000), {}, 64);
  EXPECT_CORE_STATUS(large, isa::kStatusDONE);
  const double perIteration = static_cast<double>(large.report.cycles - small.report.cycles) / 1000000.0;
  EXPECT_LE(perIteration, 2.0);
  EXPECT_EQ(perIteration, 2.0);  // add + blt, one cycle each, no bubble on the taken branch
  RecordProperty("counter_loop_cycles_per_iteration", std::to_string(perIteration));
}

TEST(HlsCycleModel, ScalarInstructions) {
  const std::vector<uint8_t> image(64 * 1024, 0);
  EXPECT_EQ(cyclesOf(insn::nop(), image), 1u);
  EXPECT_EQ(cyclesOf(insn::alu(isa::kFnMUL, 5, 1, 2), image), 1u);
  EXPECT_EQ(cyclesOf(insn::alu(isa::kFnDIV, 5, 1, 2), image), 34u);  // scalar_div
  EXPECT_EQ(cyclesOf(insn::ldw(5, 1, 0), image), 32u + 1);             // mem_latency + 1
  EXPECT_EQ(cyclesOf(insn::ldb(5, 1, 3), image), 32u + 1);
  EXPECT_EQ(cyclesOf(insn::stw(5, 1, 0), image), 1u);  // posted
  EXPECT_EQ(cyclesOf(insn::brcmp(isa::kFnLT, 1, 2, 5), image), 1u);
  HlsBackendOptions slowMemory = smallDevice();
  slowMemory.memLatency = 100;
  EXPECT_EQ(cyclesOf(insn::ldw(5, 1, 0), image, slowMemory), 101u);
}

TEST(HlsCycleModel, ProgramLoad) {
  // 9 instructions = 72 bytes = 2 beats: 32 + 2 cycles before the first.
  Asm a;
  for (int i = 0; i < 8; ++i) a.emit(insn::nop());
  a.emit(insn::halt());
  const Outcome out = run(a, {}, 64);
  EXPECT_EQ(out.report.cycles, 32u + 2 + 9);
}

TEST(HlsCycleModel, TensorFormulas) {
  // ADD over [1,1,16,64] INT32: 4096 bytes = 64 beats on each data port (A
  // on m_axi_data, B on m_axi_srcb, the result on m_axi_dst), in parallel.
  Descriptor d;
  d.dim = {1, 1, 16, 64};
  d.stride[0] = {0, 0, 64, 1};
  d.stride[1] = {0, 0, 64, 1};
  d.stride[2] = {0, 0, 64, 1};
  std::vector<uint8_t> image(64 * 1024, 0);
  put(image, 0, d.words());
  EXPECT_EQ(cyclesOf(insn::tensor(isa::kFnADD, isa::kTypeINT32, 1, 2, 3, 0, 0), image), 2u + 32 + 64);
  // SEL (BOOL8): A and C share m_axi_data: 2 * 1024 bytes = 32 beats there,
  // 16 on each other port.
  EXPECT_EQ(cyclesOf(insn::tensor(isa::kFnSEL, isa::kTypeBOOL8, 1, 2, 3, 4, 0), image), 2u + 32 + 32);
  // A comparison writes BOOL8 from INT32 sources: the element engine
  // (tensor_elem), one element per cycle. Every 16th element needs a new beat
  // of A and one of B: 128 beats read, which would take ceil(128 * 35 / 8) =
  // 560 cycles if latency-bound.
  EXPECT_EQ(cyclesOf(insn::tensor(isa::kFnLT, isa::kTypeINT32, 1, 2, 3, 0, 0), image), 2u + 32 + 1024);
  // B broadcast along the innermost dimension: B[i2], its 16 elements in one
  // beat. Wide mode (elem_lanes = 16, every base beat-aligned): groups of
  // 16, 4 per row, 64 groups; A's rows are 4 beats each, one burst per row
  // (bursts stop at the row's last beat: 16 reads, 64 beats), B one
  // single-beat read: the memory's 8 read slots bind, ceil((17 * 32 + 65) /
  // 8) = 77 cycles (tensor_elem_wide), more than the 64 groups and the 65
  // beats.
  d.stride[1] = {0, 0, 1, 0};
  put(image, 0, d.words());
  EXPECT_EQ(cyclesOf(insn::tensor(isa::kFnADD, isa::kTypeINT32, 1, 2, 3, 0, 0), image), 2u + 32 + 77);
  // B [64] broadcast along the rows: B's 4 beats again every row, one burst
  // each row; 32 bursts of 4 beats: ceil((32 * 32 + 128) / 8) = 144 cycles,
  // slot-bound (64 groups, 128 beats).
  d.stride[1] = {0, 0, 0, 1};
  put(image, 0, d.words());
  EXPECT_EQ(cyclesOf(insn::tensor(isa::kFnADD, isa::kTypeINT32, 1, 2, 3, 0, 0), image), 2u + 32 + 144);
  // The same with A starting one word into its beat (r2 = 32 KB + 4): A's
  // row spans 5 beats, and its groups end at A's beat ends too: A's beats
  // end after elements 14, 30, 46, 62 of a row, the output's and B's after
  // 15, 31, 47, 63: groups of 15 and 1 four times, 8 per row, 128 groups.
  // A's rows follow each other, so a row's last element shares its beat with
  // the next row's first 15: 65 beats; A reads one burst per row to the
  // row's last beat (5 beats in row 0, 4 after), plus one more where row
  // 15's burst meets the 4 KB page at 36 KB (17 reads); B a burst of 4 per
  // row (16 reads, 64 beats): ceil((33 * 32 + 129) / 8) = 149 cycles,
  // slot-bound (128 groups, 129 beats).
  Asm skewed;
  skewed.emit(insn::li(1, 16 * 1024));
  skewed.emit(insn::li(2, 32 * 1024 + 4));
  skewed.emit(insn::li(3, 48 * 1024));
  skewed.emit(insn::tensor(isa::kFnADD, isa::kTypeINT32, 1, 2, 3, 0, 0));
  skewed.emit(insn::halt());
  const Outcome out = run(skewed, image, image.size());
  EXPECT_CORE_STATUS(out, isa::kStatusDONE);
  EXPECT_EQ(out.report.cycles - programLoadCycles(skewed.code.size(), smallDevice().memLatency) - 3 - 1, 2u + 32 + 149);
  // DIV: the element engine waits scalar_div cycles for each element.
  EXPECT_EQ(cyclesOf(insn::tensor(isa::kFnDIV, isa::kTypeINT32, 1, 2, 3, 0, 0), image), 2u + 32 + 34 * 1024);
  d.stride[1] = {0, 0, 1, 0};
  // A transposed: a stride of 16 elements (64 bytes) along the innermost
  // dimension, a new beat for every element; B[i2] a new beat every 16 rows.
  // 1024 + 4 beats at 8 per 32 + 3 cycles: ceil(1028 * 35 / 8) = 4498 cycles
  // for 1024 elements.
  d.dim = {1, 1, 64, 16};
  d.stride[0] = {0, 0, 1, 16};
  put(image, 0, d.words());
  EXPECT_EQ(cyclesOf(insn::tensor(isa::kFnADD, isa::kTypeINT32, 1, 2, 3, 0, 0), image), 2u + 32 + 4498);
  // A zero dimension still fetches the descriptor.
  d.dim = {0, 1, 16, 64};
  put(image, 0, d.words());
  EXPECT_EQ(cyclesOf(insn::tensor(isa::kFnADD, isa::kTypeINT32, 1, 2, 3, 0, 0), image), 2u + 32);
}

TEST(HlsCycleModel, FloatWideMode) {
  // FLOAT32 [16,64] op [16,64], every base beat-aligned. FLOAT32 wide mode
  // (elem_fp_lanes = 8): groups of 8, 128 groups; each source reads one
  // burst of 4 beats per row (16 reads, 64 beats each): the memory's 8 read
  // slots bind, ceil((32 * 32 + 128) / 8) = 144 cycles, plus the FP lanes'
  // fill fp_latency = 8 (tensor_float_wide).
  static_assert(isa::kCycle_elem_fp_lanes == 8);
  Descriptor d;
  d.dim = {1, 1, 16, 64};
  d.stride[0] = {0, 0, 64, 1};
  d.stride[1] = {0, 0, 64, 1};
  std::vector<uint8_t> image(64 * 1024, 0);
  put(image, 0, d.words());
  for (uint32_t fn : {isa::kFnADD, isa::kFnSUB, isa::kFnMUL, isa::kFnMAX}) {
    EXPECT_EQ(cyclesOf(insn::tensor(fn, isa::kTypeFLOAT32, 1, 2, 3, 0, 0), image), 2u + 32 + 8 + 144) << fn;
  }
  // A fused activation (RC = 1: RELU) changes nothing.
  EXPECT_EQ(cyclesOf(insn::tensor(isa::kFnADD, isa::kTypeFLOAT32, 1, 2, 3, 1, 0), image), 2u + 32 + 8 + 144);
  // ABS, one source: 16 reads, 64 beats: ceil((16 * 32 + 64) / 8) = 72 cycles,
  // fewer than the 128 groups.
  EXPECT_EQ(cyclesOf(insn::tensor(isa::kFnABS, isa::kTypeFLOAT32, 1, 2, 0, 0, 0), image), 2u + 32 + 8 + 128);
  // B a scalar (strides 0): one single-beat read; A's 16 bursts: ceil((17 *
  // 32 + 65) / 8) = 77, fewer than the 128 groups.
  d.stride[1] = {0, 0, 0, 0};
  put(image, 0, d.words());
  EXPECT_EQ(cyclesOf(insn::tensor(isa::kFnMUL, isa::kTypeFLOAT32, 1, 2, 3, 0, 0), image), 2u + 32 + 8 + 128);
  // DIV, CVT and comparisons (BOOL8 results) keep the one-element path:
  // 1024 elements, 128 single-beat reads (ceil(128 * 35 / 8) = 560).
  d.stride[1] = {0, 0, 64, 1};
  put(image, 0, d.words());
  EXPECT_EQ(cyclesOf(insn::tensor(isa::kFnDIV, isa::kTypeFLOAT32, 1, 2, 3, 0, 0), image), 2u + 32 + 32 + 1024);
  EXPECT_EQ(cyclesOf(insn::tensor(isa::kFnLT, isa::kTypeFLOAT32, 1, 2, 3, 0, 0), image), 2u + 32 + 8 + 1024);
  EXPECT_EQ(cyclesOf(insn::tensor(isa::kFnCVT, isa::kTypeFLOAT32, 1, 2, 0, 0, 0), image), 2u + 32 + 8 + 1024);
}

TEST(HlsCycleModel, ElementwiseAddOfOneMillionInt32) {
  constexpr uint32_t kElements = 1u << 20;
  Descriptor d;
  d.dim = {1, 1, 1, kElements};
  d.stride[0] = {0, 0, 0, 1};
  d.stride[1] = {0, 0, 0, 1};
  std::vector<uint8_t> image(64 + 3 * 4 * kElements, 0);
  put(image, 0, d.words());
  std::vector<int32_t> a(kElements), b(kElements);
  for (uint32_t i = 0; i < kElements; ++i) {
    a[i] = static_cast<int32_t>(i * 2654435761u);
    b[i] = static_cast<int32_t>(i) - 5;
  }
  const uint32_t offA = 64, offB = 64 + 4 * kElements, offD = 64 + 8 * kElements;
  put(image, offA, a);
  put(image, offB, b);
  Asm p;
  p.emit(insn::li(1, offD));
  p.emit(insn::li(2, offA));
  p.emit(insn::li(3, offB));
  p.emit(insn::tensor(isa::kFnADD, isa::kTypeINT32, 1, 2, 3, 0, 0));
  p.emit(insn::halt());
  const Outcome out = run(p, image, image.size());
  EXPECT_CORE_STATUS(out, isa::kStatusDONE);
  const std::vector<int32_t> sum = get<int32_t>(out.data, offD, kElements);
  for (uint32_t i = 0; i < kElements; i += 4099) EXPECT_EQ(sum[i], int32_math::wrapAdd(a[i], b[i]));
  // 4 MiB through each of the three data ports, in parallel: 65536 beats.
  const uint64_t tensorCycles = out.report.cycles - programLoadCycles(5) - 3 - 1;
  EXPECT_EQ(tensorCycles, 2u + 32 + 65536);
  RecordProperty("add_1m_int32_cycles", std::to_string(tensorCycles));
  RecordProperty("add_1m_int32_cycles_per_element", std::to_string(tensorCycles / double(kElements)));
}

TEST(HlsCycleModel, ResumeOverheadIsNotPartOfCycles) {
  // What a scheduler pays per preemption, beyond CYCLES: save, reload, restore.
  EXPECT_EQ(hls::resumeOverheadCycles(hls::kDefaultCycleParams, 64), 2 * (32u + 4) + 32 + 1);
}

}  // namespace
}  // namespace nnfab::fabric::test
