// FLOAT32 on the hls device (ISA version 2): every FLOAT32 function, CVT and
// FC against the CPU executor's kernels, bit for bit (any NaN equals any
// NaN), on the edge values of docs/isa.md "FLOAT32 numerics": ±0,
// subnormals, ±inf, NaN, overflow and values that round at the halfway
// point. Plus FC's illegal descriptors and the cycle model's formulas.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <random>

#include "hls/tensor_test_util.h"
#include "isa/cycle_model.h"
#include "kernels/kernel_test_util.h"
#include "nnfab_isa_names.h"

namespace nnfab::fabric::test {
namespace {

namespace ct = cpu::test;
using OT = OperationType;

float f(uint32_t bits) { return std::bit_cast<float>(bits); }

// The edge values: signed zeros, the smallest and largest subnormals,
// the smallest normal, ±inf, quiet and signalling NaNs with payloads, the
// largest finite values (their sums and products overflow), 1 and values
// whose sums and quotients fall on halfway points (1 + 2^-24, 3 * 2^-25).
const std::vector<float>& edgeValues() {
  static const std::vector<float> v = {
      0.0f, -0.0f, f(0x00000001), f(0x80000001), f(0x007FFFFF), f(0x00800000), f(0x80800000),
      std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(), f(0x7FC00000),
      f(0xFFC00001), f(0x7F800001), f(0x7F7FFFFF), f(0xFF7FFFFF), 1.0f, -1.0f, f(0x3F800001),
      f(0x33800000), f(0x33C00000), 0.5f, 6.0f, 3.0f, -7.25f, 1e-30f};
  return v;
}

std::vector<uint8_t> bytesOf(const std::vector<float>& v) {
  std::vector<uint8_t> b(v.size() * 4);
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

// Bit for bit, except that any NaN equals any NaN (docs/isa.md: payloads
// may differ between devices).
void expectSameFloats(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i + 4 <= got.size(); i += 4) {
    uint32_t g, w;
    std::memcpy(&g, got.data() + i, 4);
    std::memcpy(&w, want.data() + i, 4);
    if (std::isnan(f(g)) && std::isnan(f(w))) continue;
    ASSERT_EQ(g, w) << what << ": element " << i / 4 << " is 0x" << std::hex << g << ", CPU 0x" << w;
  }
}

struct FloatOp {
  uint32_t fn;
  OT op;
  bool activation;
};

const std::vector<FloatOp>& binaryOps() {
  static const std::vector<FloatOp> ops = {
      {isa::kFnADD, OT::ADD, true},         {isa::kFnSUB, OT::SUB, true},
      {isa::kFnMUL, OT::MUL, true},         {isa::kFnDIV, OT::DIV, true},
      {isa::kFnMAX, OT::MAXIMUM, false},    {isa::kFnMIN, OT::MINIMUM, false},
      {isa::kFnEQ, OT::EQUAL, false},       {isa::kFnNE, OT::NOT_EQUAL, false},
      {isa::kFnLT, OT::LESS, false},        {isa::kFnLE, OT::LESS_EQUAL, false},
      {isa::kFnGT, OT::GREATER, false},     {isa::kFnGE, OT::GREATER_EQUAL, false}};
  return ops;
}

TEST(HlsFloat, CoreReportsFeatureFloat32) {
  HlsBackend backend(smallDevice());
  EXPECT_EQ(backend.readRegister(isa::kRegFEATURES) & isa::kFEATURE_FLOAT32, isa::kFEATURE_FLOAT32);
}

// Every pair of edge values (a [n,1] x b [1,n] broadcast), every activation.
TEST(HlsFloat, BinaryFunctionsMatchCpuKernelsOnEveryPairOfEdgeValues) {
  const std::vector<float>& v = edgeValues();
  const uint32_t n = static_cast<uint32_t>(v.size());
  const Dimensions a = {n, 1}, b = {1, n}, out = {n, n};
  for (const FloatOp& op : binaryOps()) {
    for (int32_t act = 0; act < (op.activation ? 4 : 1); ++act) {
      std::vector<ct::Tensor> inputs = {ct::f32(a, v), ct::f32(b, v)};
      if (op.activation) inputs.push_back(ct::scalar(act));
      const OperandType resultType =
          isa::fnResultIsBool(op.fn) ? OperandType::TENSOR_BOOL8 : OperandType::TENSOR_FLOAT32;
      const ct::Outcome expected = ct::run(op.op, inputs, resultType);
      ASSERT_TRUE(expected.status.isOk()) << expected.status.message();
      const TensorOutcome got = runTensor(op.fn, isa::kTypeFLOAT32, broadcastDescriptor(out, {a, b}),
                                          {bytesOf(v), bytesOf(v)}, 0, smallDevice(), op.activation ? act : 0);
      EXPECT_CORE_STATUS(got.run, isa::kStatusDONE);
      const std::string what = std::string(isa::aluFnName(op.fn)) + " act " + std::to_string(act);
      if (resultType == OperandType::TENSOR_BOOL8) {
        EXPECT_EQ(got.result, expected.bytes) << what;
      } else {
        expectSameFloats(got.result, expected.bytes, what);
      }
    }
  }
}

TEST(HlsFloat, UnaryFunctionsOnlyTouchTheSignBit) {
  const std::vector<float>& v = edgeValues();
  const Dimensions d = {static_cast<uint32_t>(v.size())};
  for (auto [fn, op] : {std::pair{isa::kFnABS, OT::ABS}, std::pair{isa::kFnNEG, OT::NEG}}) {
    const ct::Outcome expected = ct::run(op, {ct::f32(d, v)});
    ASSERT_TRUE(expected.status.isOk());
    const TensorOutcome got = runTensor(fn, isa::kTypeFLOAT32, broadcastDescriptor(d, {d}), {bytesOf(v)});
    EXPECT_CORE_STATUS(got.run, isa::kStatusDONE);
    // Exactly, NaNs included: only the sign bit changes.
    EXPECT_EQ(got.result, expected.bytes) << isa::aluFnName(fn);
  }
}

TEST(HlsFloat, SelectCopiesBitsAndMovCopies) {
  const std::vector<float>& v = edgeValues();
  const uint32_t n = static_cast<uint32_t>(v.size());
  std::vector<uint8_t> mask(n);
  for (uint32_t i = 0; i < n; ++i) mask[i] = static_cast<uint8_t>(i % 3 == 0 ? 0 : i);
  std::vector<float> other(v.rbegin(), v.rend());
  const Dimensions d = {n};
  const ct::Outcome expected = ct::run(OT::SELECT, {ct::b8(d, mask), ct::f32(d, v), ct::f32(d, other)});
  ASSERT_TRUE(expected.status.isOk());
  const TensorOutcome got =
      runTensor(isa::kFnSEL, isa::kTypeFLOAT32, broadcastDescriptor(d, {d, d, d}), {mask, bytesOf(v), bytesOf(other)});
  EXPECT_CORE_STATUS(got.run, isa::kStatusDONE);
  EXPECT_EQ(got.result, expected.bytes);
  const TensorOutcome moved = runTensor(isa::kFnMOV, isa::kTypeFLOAT32, broadcastDescriptor(d, {d}), {bytesOf(v)});
  EXPECT_EQ(moved.result, bytesOf(v));
}

TEST(HlsFloat, ConversionsMatchCpuCast) {
  // FLOAT32 -> INT32: truncation, NaN -> 0, saturation; halfway values.
  std::vector<float> floats = edgeValues();
  for (float x : {2147483520.0f, 2147483648.0f, -2147483648.0f, -2147483904.0f, 2.5f, -2.5f, 0.9999999f, -0.5f})
    floats.push_back(x);
  const Dimensions fd = {static_cast<uint32_t>(floats.size())};
  const ct::Outcome toInt = ct::run(OT::CAST, {ct::f32(fd, floats)}, OperandType::TENSOR_INT32);
  ASSERT_TRUE(toInt.status.isOk());
  const TensorOutcome gotInt = runTensor(isa::kFnCVT, isa::kTypeFLOAT32, broadcastDescriptor(fd, {fd}), {bytesOf(floats)});
  EXPECT_CORE_STATUS(gotInt.run, isa::kStatusDONE);
  EXPECT_EQ(gotInt.result, toInt.bytes);
  // INT32 -> FLOAT32: round to nearest even (16777217 -> 16777216).
  const std::vector<int32_t> ints = {0, 1, -1, 16777216, 16777217, 16777219, -16777217, 2147483647,
                                     std::numeric_limits<int32_t>::min(), 33554435, 123456789};
  const Dimensions id = {static_cast<uint32_t>(ints.size())};
  const ct::Outcome toFloat = ct::run(OT::CAST, {ct::i32(id, ints)}, OperandType::TENSOR_FLOAT32);
  ASSERT_TRUE(toFloat.status.isOk());
  std::vector<uint8_t> intBytes(ints.size() * 4);
  std::memcpy(intBytes.data(), ints.data(), intBytes.size());
  const TensorOutcome gotFloat = runTensor(isa::kFnCVT, isa::kTypeINT32, broadcastDescriptor(id, {id}), {intBytes});
  EXPECT_CORE_STATUS(gotFloat.run, isa::kStatusDONE);
  EXPECT_EQ(gotFloat.result, toFloat.bytes);
}

// One FC instruction: input at A, weights at B, bias at C.
TensorOutcome runFc(uint32_t batch, uint32_t units, uint32_t inputSize, uint32_t act, const std::vector<float>& x,
                    const std::vector<float>& w, const std::vector<float>& bias, uint64_t* fcAlignment = nullptr) {
  Descriptor d;
  d.dim = {batch, units, inputSize, act};
  // runTensor sizes the destination from DIM's product: FC's is batch * units.
  TensorOutcome out;
  uint64_t at = isa::kDESCRIPTOR_BYTES;
  const std::vector<std::vector<uint8_t>> sources = {bytesOf(x), bytesOf(w), bytesOf(bias)};
  uint32_t src[3];
  for (int s = 0; s < 3; ++s) {
    src[s] = static_cast<uint32_t>(at);
    at = align64(at + sources[s].size() + 1);
  }
  const uint32_t dst = static_cast<uint32_t>(at);
  if (fcAlignment != nullptr) *fcAlignment = hls::fcAlignment(src[0], src[1], src[2], dst);
  const uint64_t dstBytes = uint64_t{batch} * units * 4;
  const uint64_t total = align64(dst + dstBytes + 64);
  std::vector<uint8_t> image(total, kPoison);
  put(image, 0, d.words());
  for (int s = 0; s < 3; ++s) put(image, src[s], sources[s]);
  Asm a;
  a.emit(insn::li(1, static_cast<int32_t>(dst)));
  for (int s = 0; s < 3; ++s) a.emit(insn::li(2 + s, static_cast<int32_t>(src[s])));
  a.emit(insn::tensor(isa::kFnFC, isa::kTypeFLOAT32, 1, 2, 3, 4, 0));
  a.emit(insn::halt());
  out.run = run(a, image, total);
  if (out.run.data.size() != total) return out;
  out.result.assign(out.run.data.begin() + dst, out.run.data.begin() + dst + dstBytes);
  for (uint64_t i = 0; i < total; ++i) {
    if ((i < dst || i >= dst + dstBytes) && out.run.data[i] != image[i]) {
      ADD_FAILURE() << "byte " << i << " outside the destination changed";
      break;
    }
  }
  return out;
}

TEST(HlsFloat, FullyConnectedMatchesTheCpuKernelBitForBit) {
  std::mt19937 rng(12);
  const std::vector<float>& edge = edgeValues();
  struct Shape {
    uint32_t batch, units, inputSize;
  };
  for (const Shape s : {Shape{1, 2, 2}, Shape{1, 1, 1}, Shape{3, 5, 7}, Shape{2, 130, 3}, Shape{4, 17, 33}}) {
    for (uint32_t act = 0; act < 4; ++act) {
      auto fill = [&](size_t n, bool edges) {
        std::vector<float> v(n);
        std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
        for (auto& x : v) x = edges && rng() % 4 == 0 ? edge[rng() % edge.size()] : dist(rng);
        return v;
      };
      const auto x = fill(size_t{s.batch} * s.inputSize, act % 2 == 1);
      const auto w = fill(size_t{s.units} * s.inputSize, act >= 2);
      const auto bias = fill(s.units, act == 3);
      const ct::Outcome expected =
          ct::run(OT::FULLY_CONNECTED, {ct::f32({s.batch, s.inputSize}, x), ct::f32({s.units, s.inputSize}, w),
                                        ct::f32({s.units}, bias), ct::scalar(static_cast<int32_t>(act))});
      ASSERT_TRUE(expected.status.isOk()) << expected.status.message();
      uint64_t alignment = 0;
      const TensorOutcome got = runFc(s.batch, s.units, s.inputSize, act, x, w, bias, &alignment);
      EXPECT_CORE_STATUS(got.run, isa::kStatusDONE);
      expectSameFloats(got.result, expected.bytes,
                       "FC " + std::to_string(s.batch) + "x" + std::to_string(s.units) + "x" +
                           std::to_string(s.inputSize) + " act " + std::to_string(act));
      // The cycle model's fc formula (docs/isa.md), after 5 one-cycle
      // instructions and the program load; HALT costs 1.
      const uint64_t fc = hls::cycleCost(hls::kDefaultCycleParams,
                                         hls::CycleQuery{hls::kCycleFc, s.batch, s.units, s.inputSize, alignment});
      EXPECT_EQ(got.run.report.cycles, programLoadCycles(6) + 4 + fc + 1);
    }
  }
}

TEST(HlsFloat, FullyConnectedRejectsStridesAndUnknownActivations) {
  for (int bad = 0; bad < 2; ++bad) {
    Descriptor d;
    d.dim = {1, 1, 1, bad == 0 ? 4u : 0u};
    if (bad == 1) d.stride[1][3] = 1;
    std::vector<uint8_t> image(256, 0);
    put(image, 0, d.words());
    Asm a;
    a.emit(insn::li(1, 64));
    a.emit(insn::li(2, 128));
    a.emit(insn::li(3, 192));
    a.emit(insn::li(4, 196));
    const uint64_t fc = insn::tensor(isa::kFnFC, isa::kTypeFLOAT32, 1, 2, 3, 4, 0);
    a.emit(fc);
    a.emit(insn::halt());
    const Outcome o = run(a, image, image.size());
    EXPECT_CORE_STATUS(o, isa::kStatusILLEGAL_INSTRUCTION);
    EXPECT_EQ(o.report.faultInfo, static_cast<uint32_t>(fc)) << bad;
  }
}

TEST(HlsFloat, FullyConnectedChecksEveryRegionBeforeWriting) {
  Descriptor d;
  d.dim = {1, 2, 4, 0};
  std::vector<uint8_t> image(256, kPoison);
  put(image, 0, d.words());
  Asm a;
  a.emit(insn::li(1, 64));
  a.emit(insn::li(2, 128));
  a.emit(insn::li(3, 240));  // weights: 32 bytes from 240 leave the 256-byte region
  a.emit(insn::li(4, 160));
  a.emit(insn::tensor(isa::kFnFC, isa::kTypeFLOAT32, 1, 2, 3, 4, 0));
  a.emit(insn::halt());
  const Outcome o = run(a, image, image.size());
  EXPECT_CORE_STATUS(o, isa::kStatusACCESS_FAULT);
  EXPECT_EQ(o.report.faultInfo, 240u);
  EXPECT_EQ(o.data, image);  // nothing written
}

TEST(HlsFloat, FloatTensorCyclesFollowTheModel) {
  // 100-element FLOAT32 ADD in FLOAT32 wide mode (tensor_float_wide): 13
  // groups of up to elem_fp_lanes = 8 after the FP fill, but each source's
  // 7 beats (one burst each) cross the one read port, one beat per cycle:
  // 14 cycles. FLOAT32 NEG goes through the FP lanes too: 13 groups, 7
  // beats. DIV keeps the one-element path: one element per cycle.
  const uint32_t n = 100;
  std::vector<float> v(n, 1.5f);
  const Dimensions d = {n};
  const uint64_t load = programLoadCycles(6) + 4 + 1;
  const TensorOutcome add = runTensor(isa::kFnADD, isa::kTypeFLOAT32, broadcastDescriptor(d, {d, d}), {bytesOf(v), bytesOf(v)});
  static_assert(isa::kCycle_elem_fp_lanes == 8);
  EXPECT_EQ(add.run.report.cycles, load + 2 + isa::kCycle_mem_latency + isa::kCycle_fp_latency + 14);
  const TensorOutcome div = runTensor(isa::kFnDIV, isa::kTypeFLOAT32, broadcastDescriptor(d, {d, d}), {bytesOf(v), bytesOf(v)});
  EXPECT_EQ(div.run.report.cycles, load + 2 + isa::kCycle_mem_latency + isa::kCycle_fp_div_latency + n);
  const TensorOutcome neg = runTensor(isa::kFnNEG, isa::kTypeFLOAT32, broadcastDescriptor(d, {d}), {bytesOf(v)});
  EXPECT_EQ(neg.run.report.cycles, load + 2 + isa::kCycle_mem_latency + isa::kCycle_fp_latency + 13);
}

TEST(HlsFloat, FcCycleModelIsTheReadStreamPlusOneChunkOfRounds) {
  // batch 1, 256 x 256, aligned: the port streams every weight beat once
  // (fetch-bound: 128 rows of 8 beats per chunk against 128 rounds of
  // FC_INTERLEAVE cycles), then the last chunk's rounds and the drain,
  // with a few memory latencies (descriptor, first beat, ring stalls).
  const uint64_t beats = (4ull * (2 * 256 + 256 * 257) + 63) / 64;
  const uint64_t cycles = hls::cycleCost(hls::kDefaultCycleParams, hls::CycleQuery{hls::kCycleFc, 1, 256, 256, 0});
  const uint64_t tail = 129ull * isa::kFC_INTERLEAVE + isa::kCycle_fc_latency;
  EXPECT_GT(cycles, beats + tail);
  EXPECT_LT(cycles, beats + tail + 4 * isa::kCycle_mem_latency);
  // A tiny layer is bound by the latency: four streams (x, the two rows,
  // the bias) 3 cycles apart from cycle 2, mem_latency to the last beat,
  // 2 + 3 * FC_INTERLEAVE - 1 to the last round, fc_latency + 4 to the one
  // write, 10 around the engine.
  EXPECT_EQ(hls::cycleCost(hls::kDefaultCycleParams, hls::CycleQuery{hls::kCycleFc, 1, 2, 2, 0}),
            2 + isa::kCycle_mem_latency + 2 + 3 * 3 + isa::kCycle_mem_latency + 2 + 3 * isa::kFC_INTERLEAVE - 1 +
                isa::kCycle_fc_latency + 4 + 1 + 10);
}

}  // namespace
}  // namespace nnfab::fabric::test
