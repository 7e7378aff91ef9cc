// FLOAT32 on the RTL core (the tensor unit's FP pipe and FC engine,
// docs/rtl.md "FLOAT32 in the tensor unit") against the hls device, which
// is bit-exact with the CPU executor (tests/hls/test_float.cpp): every
// FLOAT32 function, CVT and FC on the edge values (±0, subnormals, ±inf,
// NaN, overflow, halfway cases), contiguous and broadcast, bit for bit
// except that any NaN equals any NaN (payloads may differ: the RTL's
// arithmetic returns the canonical quiet NaN). Plus FC's illegal
// descriptors and region faults, and the activation code's legality.
#include <array>
#include <bit>
#include <cmath>
#include <limits>
#include <random>

#include "isa/cycle_model.h"
#include "nnfab_isa_names.h"
#include "sim/sim_test_util.h"

namespace nnfab::fabric::test {
namespace {

uint32_t bitsOf(float f) { return std::bit_cast<uint32_t>(f); }

const std::vector<uint32_t>& edgeBits() {
  static const std::vector<uint32_t> v = {
      0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007FFFFF, 0x00800000, 0x80800000, 0x7F800000,
      0xFF800000, 0x7FC00000, 0xFFC00001, 0x7F800001, 0x7F7FFFFF, 0xFF7FFFFF, 0x3F800000, 0xBF800000,
      0x3F800001, 0x33800000, 0x33C00000, 0x3F000000, 0x40C00000, 0x40400000, 0xC0E80000, 0x0DA24260};
  return v;
}

// Words equal bit for bit, or both NaN.
void expectSameWords(const std::vector<uint8_t>& hls, const std::vector<uint8_t>& sim, const std::string& what) {
  ASSERT_EQ(hls.size(), sim.size()) << what;
  for (size_t i = 0; i + 4 <= hls.size(); i += 4) {
    uint32_t h, s;
    std::memcpy(&h, hls.data() + i, 4);
    std::memcpy(&s, sim.data() + i, 4);
    if (std::isnan(std::bit_cast<float>(h)) && std::isnan(std::bit_cast<float>(s))) continue;
    ASSERT_EQ(s, h) << what << ": byte offset " << i << " sim 0x" << std::hex << s << ", hls 0x" << h;
  }
}

void expectSameOnBoth(const Asm& a, const std::vector<uint8_t>& image, uint32_t status, const std::string& what) {
  const Outcome h = run(a, image, image.size());
  const Outcome s = runSim(a, image, image.size());
  EXPECT_CORE_STATUS(h, status);
  EXPECT_CORE_STATUS(s, status);
  EXPECT_EQ(s.report.haltPc, h.report.haltPc) << what;
  EXPECT_EQ(s.report.faultInfo, h.report.faultInfo) << what;
  EXPECT_EQ(s.report.instret, h.report.instret) << what;
  expectSameWords(h.data, s.data, what);
}

// Data region: descriptor at 0, A at 64, B at kB, C at kC, the result at kD.
constexpr uint32_t kA = 64, kB = 4096, kC = 8192, kD = 12288, kBytes = 16384;
constexpr uint32_t kN = 24;  // kN x kN elements: every pair of edge values

Asm tensorProgram(uint32_t fn, uint32_t type, uint32_t rc) {
  Asm a;
  a.emit(insn::li(1, kD));
  a.emit(insn::li(2, kA));
  a.emit(insn::li(3, kB));
  a.emit(insn::li(4, kC));
  a.emit(insn::tensor(fn, type, 1, 2, isa::fnOperands(fn) >= 2 ? 3 : 0, rc == 99 ? 4 : rc, 0));
  a.emit(insn::halt());
  return a;
}

// A[i][j] = e[i], B[i][j] = e[j] (contiguous), or B broadcast along rows
// (B[j], innermost stride 1, outer stride 0).
std::vector<uint8_t> pairsImage(bool broadcastB, const std::vector<uint32_t>& extraA = {}) {
  std::vector<uint8_t> image(kBytes, 0xA5);
  const auto& e = edgeBits();
  const uint32_t rowB = broadcastB ? 0 : kN;
  put<uint32_t>(image, 0, {1, 1, kN, kN, 0, 0, kN, 1, 0, 0, rowB, 1, 0, 0, kN, 1});
  std::vector<uint32_t> va, vb, vc, mask;
  for (uint32_t i = 0; i < kN; ++i)
    for (uint32_t j = 0; j < kN; ++j) {
      va.push_back(extraA.empty() ? e[i] : extraA[(i * kN + j) % extraA.size()]);
      vb.push_back(e[j]);
      vc.push_back(e[(i + j) % kN]);
    }
  put<uint32_t>(image, kA, va);
  put<uint32_t>(image, kB, vb);
  put<uint32_t>(image, kC, vc);
  return image;
}

TEST(SimFloat, CoreReportsFloat32AndFc) {
  SimBackend backend(smallSim());
  EXPECT_EQ(backend.readRegister(isa::kRegFEATURES), isa::kRtlFeatures);
  EXPECT_EQ(isa::kRtlFeatures,
            isa::kFEATURE_FLOAT32 | isa::kFEATURE_FC | isa::kFEATURE_TRACE | isa::kFEATURE_TRACE_DMA |
                isa::kFEATURE_TRACE_HEADER);
}

TEST(SimFloat, ElementwiseFunctionsOnEveryPairOfEdgeValuesMatchTheHlsCore) {
  for (bool broadcast : {false, true}) {
    const std::vector<uint8_t> image = pairsImage(broadcast);
    for (uint32_t fn = 0; fn < isa::kNumAluFns; ++fn) {
      if (isa::fnTensorOnly(fn) || ((isa::fnTypeMask(fn) >> isa::kTypeFLOAT32) & 1u) == 0 || fn == isa::kFnSEL) continue;
      const uint32_t acts = isa::fnFloatActivation(fn) ? 4 : 1;
      for (uint32_t act = 0; act < acts; ++act) {
        expectSameOnBoth(tensorProgram(fn, isa::kTypeFLOAT32, act), image, isa::kStatusDONE,
                         std::string(isa::aluFnName(fn)) + " act " + std::to_string(act) +
                             (broadcast ? " broadcast" : ""));
      }
    }
  }
}

TEST(SimFloat, SelectTakesABool8MaskAndCopiesFloatBits) {
  std::vector<uint8_t> image = pairsImage(false);
  std::vector<uint8_t> mask(kN * kN);
  for (uint32_t i = 0; i < mask.size(); ++i) mask[i] = static_cast<uint8_t>((i * 7) % 3);  // 0, 1, 2: non-zero is true
  put<uint8_t>(image, kA, mask);
  expectSameOnBoth(tensorProgram(isa::kFnSEL, isa::kTypeFLOAT32, 99), image, isa::kStatusDONE, "SEL");
}

TEST(SimFloat, ConversionsBothWaysMatchTheHlsCore) {
  std::mt19937 rng(5);
  std::vector<uint32_t> ints = {0x80000000u, 0x7FFFFFFFu, 16777217u, 16777219u, 0xFEFFFFFFu, 33554435u, 1u, 0u};
  for (int i = 0; i < 200; ++i) ints.push_back(rng() >> (rng() % 32));
  for (int i = 0; i < 200; ++i) ints.push_back(static_cast<uint32_t>(-static_cast<int32_t>(rng() >> (rng() % 32))));
  std::vector<uint32_t> floats = edgeBits();
  for (float v : {2147483648.0f, -2147483648.0f, 2147483520.0f, -2147483904.0f, 0.99999994f, -1.5f, 1e10f}) {
    floats.push_back(bitsOf(v));
  }
  for (int i = 0; i < 200; ++i) floats.push_back(rng());
  expectSameOnBoth(tensorProgram(isa::kFnCVT, isa::kTypeINT32, 0), pairsImage(false, ints), isa::kStatusDONE,
                   "CVT INT32 -> FLOAT32");
  expectSameOnBoth(tensorProgram(isa::kFnCVT, isa::kTypeFLOAT32, 0), pairsImage(false, floats), isa::kStatusDONE,
                   "CVT FLOAT32 -> INT32");
}

TEST(SimFloat, ActivationCodesAboveRelu6AreIllegal) {
  const std::vector<uint8_t> image = pairsImage(false);
  for (uint32_t rc : {4u, 31u}) {
    expectSameOnBoth(tensorProgram(isa::kFnADD, isa::kTypeFLOAT32, rc), image, isa::kStatusILLEGAL_INSTRUCTION,
                     "ADD rc " + std::to_string(rc));
  }
  // MAX has no activation: RC must be 0.
  expectSameOnBoth(tensorProgram(isa::kFnMAX, isa::kTypeFLOAT32, 1), image, isa::kStatusILLEGAL_INSTRUCTION, "MAX rc 1");
}

// FC: x at kA [batch, in], w at kB [units, in], bias at kC [units], out at kD.
TEST(SimFloat, FullyConnectedMatchesTheHlsCore) {
  std::mt19937 rng(12);
  const auto& e = edgeBits();
  struct Shape {
    uint32_t batch, units, in;
  };
  for (const Shape s : {Shape{1, 2, 2}, Shape{1, 1, 1}, Shape{3, 5, 7}, Shape{2, 30, 3}, Shape{4, 17, 33},
                        Shape{2, 9, 40}}) {
    for (uint32_t act = 0; act < 4; ++act) {
      auto fill = [&](size_t n, bool edges) {
        std::vector<uint32_t> v(n);
        std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
        for (auto& x : v) x = edges && rng() % 4 == 0 ? e[rng() % e.size()] : bitsOf(dist(rng));
        return v;
      };
      std::vector<uint8_t> image(kBytes, 0xA5);
      put<uint32_t>(image, 0, {s.batch, s.units, s.in, act, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
      put<uint32_t>(image, kA, fill(size_t{s.batch} * s.in, act % 2 == 1));
      put<uint32_t>(image, kB, fill(size_t{s.units} * s.in, act >= 2));
      put<uint32_t>(image, kC, fill(s.units, act == 3));
      expectSameOnBoth(tensorProgram(isa::kFnFC, isa::kTypeFLOAT32, 99), image, isa::kStatusDONE,
                       "FC " + std::to_string(s.batch) + "x" + std::to_string(s.units) + "x" + std::to_string(s.in) +
                           " act " + std::to_string(act));
    }
  }
}

// FC layers larger than one wave of the FC engine and than the lane's
// interleave, with rows that are not whole 64-byte beats: units above 128
// (FC_LANES * FC_INTERLEAVE), input sizes that are not a multiple of 16
// (rows start inside a beat), weights and bias at offsets that are not
// beat-aligned, batch 3, every activation. Returns the image and the
// program; x, w, bias and the output are laid out one after the other.
struct FcLayout {
  uint32_t x, w, bias, out, bytes;
};
FcLayout fcLayout(uint32_t batch, uint32_t units, uint32_t in, uint32_t skew) {
  auto up = [](uint32_t v) { return (v + 63u) & ~63u; };
  FcLayout l{};
  l.x = 64;
  l.w = up(l.x + 4 * batch * in) + skew;
  l.bias = up(l.w + 4 * units * in) + skew;
  l.out = up(l.bias + 4 * units);
  l.bytes = up(l.out + 4 * batch * units);
  return l;
}
Asm fcProgram(const FcLayout& l, bool withFc = true) {
  Asm a;
  a.emit(insn::li(1, static_cast<int32_t>(l.out)));
  a.emit(insn::li(2, static_cast<int32_t>(l.x)));
  a.emit(insn::li(3, static_cast<int32_t>(l.w)));
  a.emit(insn::li(4, static_cast<int32_t>(l.bias)));
  a.emit(withFc ? insn::tensor(isa::kFnFC, isa::kTypeFLOAT32, 1, 2, 3, 4, 0) : insn::nop());
  a.emit(insn::halt());
  return a;
}
std::vector<uint8_t> fcImage(const FcLayout& l, uint32_t batch, uint32_t units, uint32_t in, uint32_t act,
                             std::mt19937& rng, bool edges) {
  const auto& e = edgeBits();
  auto fill = [&](size_t n) {
    std::vector<uint32_t> v(n);
    std::uniform_real_distribution<float> dist(-2.0f, 2.0f);
    for (auto& x : v) x = edges && rng() % 8 == 0 ? e[rng() % e.size()] : bitsOf(dist(rng));
    return v;
  };
  std::vector<uint8_t> image(l.bytes, 0xA5);
  put<uint32_t>(image, 0, {batch, units, in, act, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
  put<uint32_t>(image, l.x, fill(size_t{batch} * in));
  put<uint32_t>(image, l.w, fill(size_t{units} * in));
  put<uint32_t>(image, l.bias, fill(units));
  return image;
}

TEST(SimFloat, FullyConnectedLargerThanAWaveWithUnalignedRowsMatchesTheHlsCore) {
  std::mt19937 rng(1212);
  struct Shape {
    uint32_t batch, units, in, skew;
  };
  for (const Shape s : {Shape{1, 130, 20, 0}, Shape{3, 129, 17, 4}, Shape{3, 136, 48, 12}, Shape{2, 257, 5, 60}}) {
    for (uint32_t act = 0; act < 4; ++act) {
      const FcLayout l = fcLayout(s.batch, s.units, s.in, s.skew);
      const std::vector<uint8_t> image = fcImage(l, s.batch, s.units, s.in, act, rng, act % 2 == 1);
      expectSameOnBoth(fcProgram(l), image, isa::kStatusDONE,
                       "FC " + std::to_string(s.batch) + "x" + std::to_string(s.units) + "x" + std::to_string(s.in) +
                           " skew " + std::to_string(s.skew) + " act " + std::to_string(act));
    }
  }
}

// FC's cycles on sim against the cycle model's `fc` formula (the hls
// device's figure, docs/isa.md "Cycle model"): they agree within
// kFcCycleBound per instruction over batch 1/3/4, few and many units (one,
// two and three waves), short, unaligned and multi-chunk rows, and unaligned
// input, weights, bias and output.
// The bound docs/isa.md gives (`fc`): the model plays the engine burst by
// burst but not its write port (write stalls) or every handshake; measured
// differences are within 12 cycles (docs/performance.md).
constexpr int64_t kFcCycleBound = 32;

TEST(SimFloat, FullyConnectedCyclesAgreeWithTheCycleModel) {
  std::mt19937 rng(7);
  const uint32_t batches[] = {1, 3, 4};
  const uint32_t unitCounts[] = {1, 5, 16, 129, 200, 257};
  const uint32_t inputSizes[] = {5, 17, 48, 256};
  uint32_t index = 0;
  for (const uint32_t batch : batches) {
    for (const uint32_t units : unitCounts) {
      for (const uint32_t in : inputSizes) {
        // Every other shape with every base off its beat alignment.
        ++index;
        const uint32_t skew = (index % 2) * 4 * (1 + index % 15);
        auto up = [](uint32_t v) { return (v + 63u) & ~63u; };
        FcLayout l{};
        l.x = 64 + (skew / 2 & ~3u);
        l.w = up(l.x + 4 * batch * in) + skew;
        l.bias = up(l.w + 4 * units * in) + skew;
        l.out = up(l.bias + 4 * units) + skew;
        l.bytes = up(l.out + 4 * batch * units);
        const std::vector<uint8_t> image = fcImage(l, batch, units, in, 0, rng, false);
        const Outcome with = runSim(fcProgram(l, true), image, image.size());
        const Outcome without = runSim(fcProgram(l, false), image, image.size());
        EXPECT_CORE_STATUS(with, isa::kStatusDONE);
        // The instruction's own cycles (the NOP it replaces costs 1).
        const uint64_t cycles = with.report.cycles - without.report.cycles + 1;
        const uint64_t model =
            hls::cycleCost(hls::kDefaultCycleParams,
                           hls::CycleQuery{hls::kCycleFc, batch, units, in, hls::fcAlignment(l.x, l.w, l.bias, l.out)});
        const int64_t diff = static_cast<int64_t>(cycles) - static_cast<int64_t>(model);
        EXPECT_LE(diff < 0 ? -diff : diff, kFcCycleBound)
            << batch << "x" << units << "x" << in << " skew " << skew << ": sim " << cycles << ", model " << model;
      }
    }
  }
}

TEST(SimFloat, FullyConnectedIllegalDescriptorsAndRegionFaultsMatchTheHlsCore) {
  struct Case {
    std::array<uint32_t, 4> dim;
    uint32_t stride_word;  // a non-zero stride word, or 0
    uint32_t dst, a, b, c, status;
  };
  const Case cases[] = {
      {{1, 1, 1, 4}, 0, kD, kA, kB, kC, isa::kStatusILLEGAL_INSTRUCTION},   // activation 4
      {{1, 1, 1, 0}, 7, kD, kA, kB, kC, isa::kStatusILLEGAL_INSTRUCTION},   // STRIDE_B[3] = 1
      {{1, 1, 1, 0}, 15, kD, kA, kB, kC, isa::kStatusILLEGAL_INSTRUCTION},  // STRIDE_C[3] = 1
      {{0, 1, 1, 0}, 0, kBytes, kA, kB, kC, isa::kStatusDONE},              // zero batch: a no-op
      {{1, 2, 4, 0}, 0, kBytes - 4, kA, kB, kC, isa::kStatusACCESS_FAULT},  // destination outside
      {{1, 2, 4, 0}, 0, kD + 2, kA, kB, kC, isa::kStatusACCESS_FAULT},      // destination misaligned
      {{2, 2, 4, 0}, 0, kD, kBytes - 16, kB, kC, isa::kStatusACCESS_FAULT}, // A outside
      {{1, 2, 4, 0}, 0, kD, kA, kBytes - 16, kC, isa::kStatusACCESS_FAULT}, // B outside
      {{1, 2, 4, 0}, 0, kD, kA, kB, kBytes - 4, isa::kStatusACCESS_FAULT},  // C outside
      {{1, 2, 4, 0}, 0, kD, kA, kB, kC + 1, isa::kStatusACCESS_FAULT},      // C misaligned
      {{65536, 65536, 4, 0}, 0, kD, kA, kB, kC, isa::kStatusACCESS_FAULT},  // batch * units overflows
  };
  for (const Case& c : cases) {
    std::vector<uint8_t> image(kBytes, 0xA5);
    std::vector<uint32_t> desc(16, 0);
    for (int k = 0; k < 4; ++k) desc[k] = c.dim[k];
    if (c.stride_word != 0) desc[c.stride_word] = 1;
    put<uint32_t>(image, 0, desc);
    Asm a;
    a.emit(insn::li(1, static_cast<int32_t>(c.dst)));
    a.emit(insn::li(2, static_cast<int32_t>(c.a)));
    a.emit(insn::li(3, static_cast<int32_t>(c.b)));
    a.emit(insn::li(4, static_cast<int32_t>(c.c)));
    a.emit(insn::tensor(isa::kFnFC, isa::kTypeFLOAT32, 1, 2, 3, 4, 0));
    a.emit(insn::halt());
    const Outcome h = run(a, image, image.size());
    const Outcome s = runSim(a, image, image.size());
    EXPECT_CORE_STATUS(s, c.status);
    expectSameArchitecture(h, s, "FC fault case");
  }
}

}  // namespace
}  // namespace nnfab::fabric::test
