// The RTL's floating-point units (nnfab_fp_add, _mul, _div, _cmp, _cvt;
// docs/rtl.md "Floating-point units"), each Verilated alone, against the
// host's binary32 arithmetic (x86-64 SSE: round to nearest even, subnormals,
// no FTZ/DAZ — asserted on the MXCSR; this file is compiled with
// -ffp-contract=off), bit for bit except that any NaN matches any NaN:
//   - every pair of edge values (±0, subnormals, smallest normal, largest
//     finite, ±inf, quiet and signalling NaNs, 1 ± ulp, 2^24 ± 1, ...),
//   - constructed halfway cases (ties to even both ways) and over/underflow
//     boundaries,
//   - a few hundred thousand random operands (uniform bit patterns, close
//     exponents for cancellation, exponent sums near the underflow and
//     overflow boundaries),
// all issued back to back, one per cycle; each result must come out exactly
// the unit's latency after its operation, in order. A second run per unit
// puts idle cycles with junk operands between the operations (the stages
// load only behind a valid operation) and must give the same bits. Prints a coverage
// summary per unit (operand and result classes, ties, cancellations).
#include <gtest/gtest.h>
#include <verilated.h>
#include <xmmintrin.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "unit_context.h"
#include "Vnnfab_fp_add.h"
#include "Vnnfab_fp_cmp.h"
#include "Vnnfab_fp_cvt.h"
#include "Vnnfab_fp_div.h"
#include "Vnnfab_fp_fc_lane.h"
#include "Vnnfab_fp_mul.h"
#include "isa/int32_semantics.h"

namespace nnfab::fabric::test {
namespace {

// The units' documented latencies (docs/rtl.md).
constexpr int kAddLatency = 8;
constexpr int kMulLatency = 8;
constexpr int kDivLatency = 32;
constexpr int kCmpLatency = 2;
constexpr int kCvtLatency = 4;
constexpr int kLaneLatency = 18;  // last term to result
constexpr int kLaneSlots = 8;

float asFloat(uint32_t u) { return std::bit_cast<float>(u); }
uint32_t bits(float f) { return std::bit_cast<uint32_t>(f); }
bool isNan(uint32_t u) { return (u & 0x7F800000u) == 0x7F800000u && (u & 0x007FFFFFu) != 0; }

// ---- coverage
// Exact result of a sum/product lies exactly halfway between two floats.
bool isTie(double exact, float rounded) {
  if (!std::isfinite(rounded) || static_cast<double>(rounded) == exact) return false;
  const float next = std::nextafter(rounded, exact > rounded ? INFINITY : -INFINITY);
  return std::isfinite(next) && exact - double(rounded) == (double(next) - double(rounded)) / 2;
}

enum Class { kZero, kSubnormal, kNormal, kInf, kNan, kClasses };
const char* const kClassNames[kClasses] = {"zero", "subnormal", "normal", "inf", "NaN"};

Class classOf(uint32_t u) {
  const uint32_t e = (u >> 23) & 0xFF, f = u & 0x7FFFFF;
  if (e == 0) return f == 0 ? kZero : kSubnormal;
  if (e == 0xFF) return f == 0 ? kInf : kNan;
  return kNormal;
}

struct Coverage {
  explicit Coverage(std::string name) : unit(std::move(name)) {}
  std::string unit;
  std::array<std::array<long, kClasses>, 3> hits{};  // a, b, y
  long ties = 0, tiesAway = 0, cancellations = 0, total = 0;
  bool useB = true;

  // y's class only where y is a float
  void count(uint32_t a, uint32_t b, uint32_t y, bool floatY = true) {
    ++hits[0][classOf(a)];
    if (useB) ++hits[1][classOf(b)];
    if (floatY) ++hits[2][classOf(y)];
    ++total;
  }
  // A halfway case, and which way ties-to-even took it.
  void tie(double exact, float rounded) {
    if (!isTie(exact, rounded)) return;
    ++ties;
    tiesAway += std::fabs(double(rounded)) > std::fabs(exact);
  }
  // Ties to even went both ways.
  bool bothWays() const { return tiesAway > 0 && ties - tiesAway > 0; }
  // Every class must have been hit where it can be (checked by the tests).
  bool all(int which) const {
    return std::all_of(hits[which].begin(), hits[which].end(), [](long n) { return n > 0; });
  }
  void print() const {
    std::printf("[coverage %s] %ld operations, %ld ties (%ld rounded away from zero, %ld toward), %ld cancellations\n",
                unit.c_str(), total, ties, tiesAway, ties - tiesAway, cancellations);
    const char* names[3] = {"a", "b", "y"};
    for (int w = 0; w < 3; ++w) {
      if (w == 1 && !useB) continue;
      std::printf("  %s:", names[w]);
      for (int c = 0; c < kClasses; ++c) std::printf(" %s %ld", kClassNames[c], hits[w][c]);
      std::printf("\n");
    }
  }
};

// ---- operands
struct Op {
  uint32_t a = 0, b = 0;
  uint32_t fn = 0;  // sub / op / to_int
};

const std::vector<uint32_t>& edgeValues() {
  static const std::vector<uint32_t> v = [] {
    std::vector<uint32_t> pos = {
        0x00000000u,  // +0
        0x00000001u,  // smallest subnormal
        0x00000002u, 0x00000003u,
        0x00400000u,  // 2^-127
        0x007FFFFFu,  // largest subnormal
        0x00800000u,  // smallest normal
        0x00800001u, 0x00FFFFFFu,
        0x33800000u,  // 2^-24
        0x34000000u,  // 2^-23
        0x3F000000u,  // 0.5
        0x3F7FFFFFu,  // 1 - ulp
        0x3F800000u,  // 1
        0x3F800001u,  // 1 + ulp
        0x3FC00000u,  // 1.5
        0x40000000u,  // 2
        0x40400000u,  // 3
        0x40C00000u,  // 6
        0x40C00001u,  // 6 + ulp
        0x4B7FFFFFu,  // 2^24 - 1
        0x4B800000u,  // 2^24
        0x4B800001u,  // 2^24 + 2
        0x4EFFFFFFu,  // just below 2^31
        0x4F000000u,  // 2^31
        0x5F000000u,  // 2^63
        0x1F800000u,  // 2^-64
        0x7F000000u,  // 2^127
        0x7F7FFFFFu,  // largest finite
        0x7F800000u,  // inf
        0x7FC00000u,  // quiet NaN
        0x7F800001u,  // signalling NaN
        0x7FFFFFFFu,  // NaN, all payload bits
    };
    std::vector<uint32_t> all = pos;
    for (uint32_t p : pos) all.push_back(p | 0x80000000u);
    return all;
  }();
  return v;
}

uint32_t randomFinite(std::mt19937& rng, uint32_t exponent) {
  return (rng() & 0x807FFFFFu) | ((exponent & 0xFF) << 23);
}

// The random mix: uniform bit patterns, close exponents (cancellation), and
// exponents around the underflow/overflow boundaries of a product/quotient
// (`scale` = +1 for a product, -1 for a quotient, 0 for sums).
Op randomPair(std::mt19937& rng, int scale) {
  Op op;
  switch (rng() % 5) {
    case 0:
    case 1:
      op.a = rng();
      op.b = rng();
      break;
    case 2: {  // close exponents, either sign
      const uint32_t e = rng() % 256;
      op.a = randomFinite(rng, e);
      op.b = randomFinite(rng, std::clamp<int>(int(e) + int(rng() % 5) - 2, 0, 254));
      break;
    }
    case 3: {  // subnormals and tiny normals
      op.a = randomFinite(rng, rng() % 3);
      op.b = rng() % 2 ? randomFinite(rng, rng() % 3) : rng();
      break;
    }
    default: {  // result exponent near 0 or near 254
      const int ea = 1 + int(rng() % 254);
      const int target = rng() % 2 ? int(rng() % 40) - 25 : 240 + int(rng() % 30);
      // a*b: ea + eb - 127 ~ target; a/b: ea - eb + 127 ~ target
      int eb = scale >= 0 ? target + 127 - ea : ea + 127 - target;
      eb = std::clamp(eb, 0, 254);
      op.a = randomFinite(rng, uint32_t(ea));
      op.b = randomFinite(rng, uint32_t(eb));
      break;
    }
  }
  return op;
}

// ---- the pipelines
// Issues ops[i] in cycle i (set() drives the unit's function input) and
// returns the results; result i must appear `latency` cycles after its issue
// and only then.
template <class Model, class Set>
std::vector<uint32_t> runPipeline(const std::vector<Op>& ops, int latency, Set set) {
  nnfab::rtl_test::UnitContext context;
  Model m{&context};
  auto tick = [&] {
    m.clk = 0;
    m.eval();
    m.clk = 1;
    m.eval();
  };
  m.in_valid = 0;
  m.rst = 1;
  tick();
  tick();
  m.rst = 0;
  std::vector<uint32_t> out;
  out.reserve(ops.size());
  const size_t cycles = ops.size() + size_t(latency) + 4;
  for (size_t c = 0; c < cycles; ++c) {
    m.in_valid = c < ops.size();
    if (c < ops.size()) {
      m.a = ops[c].a;
      set(m, ops[c]);
    }
    tick();
    // the operation issued in cycle i is out after the edge of cycle i + latency - 1
    const bool expected = c + 1 >= size_t(latency) && c + 1 - size_t(latency) < ops.size();
    EXPECT_EQ(bool(m.out_valid), expected) << "cycle " << c;
    if (!expected || !m.out_valid) continue;
    out.push_back(m.y);
  }
  return out;
}

// Issues the same operations with idle cycles between them (runs of 0 to
// latency + 2 cycles: the pipe part full and fully drained), with random
// operands and functions on the inputs while in_valid is low, and returns
// the results. Each must come out exactly `latency` cycles after its issue
// and nothing else may come out: the units' stages load only behind a valid
// operation (docs/rtl.md "Floating-point units"), so a bubble must neither
// change nor delay a result.
template <class Model, class Set>
std::vector<uint32_t> runPipelineWithBubbles(const std::vector<Op>& ops, int latency, Set set, uint32_t seed) {
  nnfab::rtl_test::UnitContext context;
  Model m{&context};
  auto tick = [&] {
    m.clk = 0;
    m.eval();
    m.clk = 1;
    m.eval();
  };
  m.in_valid = 0;
  m.rst = 1;
  tick();
  tick();
  m.rst = 0;
  std::mt19937 rng(seed);
  std::vector<uint32_t> out;
  std::vector<size_t> issuedAt;  // tick of each issue
  size_t next = 0, gap = 0;
  const size_t limit = ops.size() * size_t(latency + 4) + 64;
  for (size_t c = 0; out.size() < ops.size() && c < limit; ++c) {
    const bool issue = next < ops.size() && gap == 0;
    if (gap > 0) --gap;
    m.in_valid = issue;
    if (issue) {
      m.a = ops[next].a;
      set(m, ops[next]);
      issuedAt.push_back(c);
      ++next;
      if (rng() % 3 == 0) gap = rng() % size_t(latency + 3);
    } else {
      const Op junk{uint32_t(rng()), uint32_t(rng()), ops[rng() % ops.size()].fn};
      m.a = junk.a;
      set(m, junk);
    }
    tick();
    // the operation issued in tick i is out after tick i + latency - 1
    const bool expected = out.size() < issuedAt.size() && issuedAt[out.size()] + size_t(latency) - 1 == c;
    EXPECT_EQ(bool(m.out_valid), expected) << "tick " << c;
    if (expected && m.out_valid) out.push_back(m.y);
    if (::testing::Test::HasFailure()) break;
  }
  return out;
}

bool sameFloat(uint32_t got, uint32_t want) { return got == want || (isNan(got) && isNan(want)); }

std::string hex(uint32_t u) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08X", u);
  return buf;
}

// Counts mismatches and reports the first few.
template <class Ref>
void compare(const char* unit, const std::vector<Op>& ops, const std::vector<uint32_t>& got, Ref ref,
             Coverage& cov) {
  ASSERT_EQ(got.size(), ops.size()) << unit;
  int bad = 0;
  for (size_t i = 0; i < ops.size(); ++i) {
    const uint32_t want = ref(ops[i]);
    cov.count(ops[i].a, ops[i].b, got[i]);
    const bool ok = sameFloat(got[i], want);
    if (!ok && ++bad <= 10)
      ADD_FAILURE() << unit << " fn " << ops[i].fn << " a " << hex(ops[i].a) << " b " << hex(ops[i].b) << ": got "
                    << hex(got[i]) << " want " << hex(want);
  }
  EXPECT_EQ(bad, 0) << unit << ": " << bad << " of " << ops.size() << " wrong";
}

void expectHostIeee() {
  // FTZ (bit 15) and DAZ (bit 6) clear: the reference computes subnormals.
  ASSERT_EQ(_mm_getcsr() & 0x8040u, 0u);
  // and the compiler did not flush either: the smallest subnormal halves to 0, doubles exactly
  volatile float tiny = asFloat(1);
  ASSERT_EQ(bits(tiny * 2.0f), 2u);
  ASSERT_EQ(bits(asFloat(0x00800000u) - asFloat(0x007FFFFFu)), 1u);
}

std::vector<Op> edgePairs(uint32_t fn) {
  std::vector<Op> ops;
  for (uint32_t a : edgeValues())
    for (uint32_t b : edgeValues()) ops.push_back({a, b, fn});
  return ops;
}

// ---------------------------------------------------------------- adder
uint32_t refAdd(const Op& op) {
  const float a = asFloat(op.a), b = asFloat(op.b);
  return bits(op.fn ? a - b : a + b);
}

TEST(RtlFpAdd, EdgesTiesCancellationAndRandomAtFullRate) {
  expectHostIeee();
  std::mt19937 rng(12);
  std::vector<Op> ops = edgePairs(0);
  for (Op op : edgePairs(1)) ops.push_back(op);
  // ties: a + half an ulp of a (and minus), over every binade; a's last bit
  // random, so both directions of ties-to-even
  for (int i = 0; i < 20000; ++i) {
    const uint32_t e = 2 + rng() % 253;
    const uint32_t a = randomFinite(rng, e);
    // half an ulp of a, 2^(e-151): a subnormal for e <= 24
    const uint32_t half = e > 24 ? (e - 24) << 23 : 1u << (e - 2);
    const uint32_t sign = (a & 0x80000000u) ^ (rng() % 2 ? 0x80000000u : 0u);
    ops.push_back({a, sign | half, uint32_t(rng() % 2)});
  }
  // cancellation: b within a few ulps of a, opposite effective sign
  for (int i = 0; i < 20000; ++i) {
    const uint32_t a = randomFinite(rng, rng() % 255);
    const uint32_t b = (a + (rng() % 9) - 4) ^ (rng() % 2 ? 0x80000000u : 0u);
    ops.push_back({a, b, (a ^ b) >> 31 ? 0u : 1u});
  }
  // overflow: largest finite plus increments around its half ulp (2^103)
  for (uint32_t d = 0x73000000u - 4; d < 0x73000000u + 4; ++d) {
    ops.push_back({0x7F7FFFFFu, d, 0});
    ops.push_back({0xFF7FFFFFu, d | 0x80000000u, 0});
  }
  for (int i = 0; i < 1000000; ++i) {
    Op op = randomPair(rng, 0);
    op.fn = rng() % 2;
    ops.push_back(op);
  }
  const auto got = runPipeline<Vnnfab_fp_add>(ops, kAddLatency, [](Vnnfab_fp_add& m, const Op& op) {
    m.b = op.b;
    m.sub = op.fn;
  });
  Coverage cov{"nnfab_fp_add"};
  compare("add", ops, got, refAdd, cov);
  for (const Op& op : ops) {
    const float a = asFloat(op.a), b = op.fn ? -asFloat(op.b) : asFloat(op.b);
    const float r = a + b;
    cov.tie(double(a) + double(b), r);
    // cancellation: opposite signs, result at least two binades below the larger operand
    if (std::signbit(a) != std::signbit(b) && std::isfinite(r) &&
        std::fabs(r) < std::max(std::fabs(a), std::fabs(b)) / 4)
      ++cov.cancellations;
  }
  cov.print();
  for (int w = 0; w < 3; ++w) EXPECT_TRUE(cov.all(w)) << w;
  EXPECT_GT(cov.ties, 10000);
  EXPECT_TRUE(cov.bothWays());
  EXPECT_GT(cov.cancellations, 10000);
}

// ---------------------------------------------------------------- multiplier
uint32_t refMul(const Op& op) { return bits(asFloat(op.a) * asFloat(op.b)); }

TEST(RtlFpMul, EdgesTiesUnderflowAndRandomAtFullRate) {
  expectHostIeee();
  std::mt19937 rng(13);
  std::vector<Op> ops = edgePairs(0);
  // ties: x (odd, 24 bits) * 3 has 25 significant bits and ends in 1; scaled
  // by random binades, down into the subnormal range
  for (int i = 0; i < 20000; ++i) {
    const uint32_t x = (5592406u + rng() % (11184810u - 5592406u)) | 1u;
    const int shift = int(rng() % 300) - 150;
    const float a = std::ldexp(float(x), shift / 2 - 23), b = std::ldexp(3.0f, shift - shift / 2);
    ops.push_back({bits(a) ^ (rng() % 2 ? 0x80000000u : 0), bits(b), 0});
  }
  for (int i = 0; i < 1000000; ++i) ops.push_back(randomPair(rng, 1));
  const auto got =
      runPipeline<Vnnfab_fp_mul>(ops, kMulLatency, [](Vnnfab_fp_mul& m, const Op& op) { m.b = op.b; });
  Coverage cov{"nnfab_fp_mul"};
  compare("mul", ops, got, refMul, cov);
  for (const Op& op : ops) {
    const float a = asFloat(op.a), b = asFloat(op.b);
    cov.tie(double(a) * double(b), a * b);  // the double product is exact
  }
  cov.print();
  for (int w = 0; w < 3; ++w) EXPECT_TRUE(cov.all(w)) << w;
  EXPECT_GT(cov.ties, 10000);
  EXPECT_TRUE(cov.bothWays());
}

// ---------------------------------------------------------------- divider
uint32_t refDiv(const Op& op) { return bits(asFloat(op.a) / asFloat(op.b)); }

TEST(RtlFpDiv, EdgesUnderflowOverflowAndRandomAtFullRate) {
  expectHostIeee();
  std::mt19937 rng(14);
  std::vector<Op> ops = edgePairs(0);
  // subnormal quotients that are exact ties: odd subnormals / 2^k
  for (uint32_t s = 1; s < 64; s += 2)
    for (int k = 1; k < 4; ++k) ops.push_back({s, bits(std::ldexp(1.0f, k)), 0});
  for (int i = 0; i < 500000; ++i) ops.push_back(randomPair(rng, -1));
  const auto got =
      runPipeline<Vnnfab_fp_div>(ops, kDivLatency, [](Vnnfab_fp_div& m, const Op& op) { m.b = op.b; });
  Coverage cov{"nnfab_fp_div"};
  compare("div", ops, got, refDiv, cov);
  for (const Op& op : ops) {
    const double a = asFloat(op.a), b = asFloat(op.b);
    const float r = asFloat(refDiv(op));
    // a tie needs an exact double quotient: only for a power-of-two divisor
    if ((op.b & 0x7FFFFFu) == 0) cov.tie(a / b, r);
  }
  cov.print();
  for (int w = 0; w < 3; ++w) EXPECT_TRUE(cov.all(w)) << w;
  EXPECT_GT(cov.ties, 30);
  EXPECT_TRUE(cov.bothWays());
}

// ---------------------------------------------------------------- comparator
enum CmpOp : uint32_t { kEq, kNe, kLt, kLe, kGt, kGe, kMax, kMin, kRelu, kRelu1, kRelu6, kAbs, kNeg, kCmpOps };

uint32_t refCmp(const Op& op) {
  const float a = asFloat(op.a), b = asFloat(op.b);
  switch (op.fn) {
    case kEq: return a == b;
    case kNe: return a != b;
    case kLt: return a < b;
    case kLe: return a <= b;
    case kGt: return a > b;
    case kGe: return a >= b;
    case kMax: return bits(std::max(a, b));
    case kMin: return bits(std::min(a, b));
    case kRelu: return bits(std::max(a, 0.0f));
    case kRelu1: return bits(std::min(std::max(a, -1.0f), 1.0f));
    case kRelu6: return bits(std::min(std::max(a, 0.0f), 6.0f));
    case kAbs: return bits(std::fabs(a));
    default: return bits(-a);
  }
}

TEST(RtlFpCmp, EveryFunctionOnEdgesAndRandomAtFullRate) {
  expectHostIeee();
  std::mt19937 rng(15);
  std::vector<Op> ops;
  for (uint32_t fn = 0; fn < kCmpOps; ++fn)
    for (Op op : edgePairs(fn)) ops.push_back(op);
  for (int i = 0; i < 500000; ++i) {
    Op op = randomPair(rng, 0);
    if (rng() % 4 == 0) op.b = op.a ^ (rng() % 2 ? 0x80000000u : 0);  // equal magnitudes
    op.fn = rng() % kCmpOps;
    ops.push_back(op);
  }
  // the activations' constants and their neighbours
  for (uint32_t c : {0x3F800000u, 0x40C00000u, 0u})
    for (uint32_t d = c - 2; d != c + 3; ++d)
      for (uint32_t fn : {kRelu, kRelu1, kRelu6}) {
        ops.push_back({d, 0, fn});
        ops.push_back({d | 0x80000000u, 0, fn});
      }
  const auto got = runPipeline<Vnnfab_fp_cmp>(ops, kCmpLatency, [](Vnnfab_fp_cmp& m, const Op& op) {
    m.b = op.b;
    m.op = op.fn;
  });
  Coverage cov{"nnfab_fp_cmp"};
  ASSERT_EQ(got.size(), ops.size());
  int bad = 0;
  for (size_t i = 0; i < ops.size(); ++i) {
    const Op& op = ops[i];
    const uint32_t want = refCmp(op);
    const bool boolOut = op.fn <= kGe;
    cov.count(op.a, op.b, got[i], !boolOut);
    const bool ok = boolOut ? got[i] == want : sameFloat(got[i], want);
    if (!ok && ++bad <= 10)
      ADD_FAILURE() << "cmp fn " << op.fn << " a " << hex(op.a) << " b " << hex(op.b) << ": got " << hex(got[i])
                    << " want " << hex(want);
  }
  EXPECT_EQ(bad, 0);
  cov.print();
  for (int w = 0; w < 3; ++w) EXPECT_TRUE(cov.all(w)) << w;
}

// ---------------------------------------------------------------- converter
uint32_t refCvt(const Op& op) {
  if (op.fn) return uint32_t(int32_math::saturatingFloatToInt32(asFloat(op.a)));
  return bits(static_cast<float>(int32_t(op.a)));
}

TEST(RtlFpCvt, BothDirectionsOnEdgesTiesAndRandomAtFullRate) {
  expectHostIeee();
  std::mt19937 rng(16);
  std::vector<Op> ops;
  // INT32 -> FLOAT32 edges: 0, ±1, 2^24 ± 1, INT32_MIN/MAX and neighbours
  for (int64_t base : {0LL, 1LL << 24, 1LL << 25, 1LL << 30, (1LL << 31) - 1, -(1LL << 31), -(1LL << 24)})
    for (int64_t d = -3; d <= 3; ++d) {
      const int64_t v = std::clamp<int64_t>(base + d, INT32_MIN, INT32_MAX);
      ops.push_back({uint32_t(int32_t(v)), 0, 0});
      ops.push_back({uint32_t(-int32_t(std::max<int64_t>(v, INT32_MIN + 1))), 0, 0});
    }
  // ties: odd multiples of half the spacing, every binade above 2^24
  for (int i = 0; i < 20000; ++i) {
    const int k = 25 + int(rng() % 7);          // value in [2^(k-1), 2^k): spacing 2^(k-24)
    const uint32_t m = (rng() % (1u << 23)) | (1u << 23);  // 24-bit significand
    const uint32_t v = (m << (k - 24)) | (1u << (k - 25));  // plus half the spacing
    ops.push_back({rng() % 2 ? v : 0u - v, 0, 0});
  }
  // FLOAT32 -> INT32 edges: all the float edges, and around ±2^31
  for (uint32_t e : edgeValues()) ops.push_back({e, 0, 1});
  for (uint32_t d = 0x4EFFFFFDu; d < 0x4F000003u; ++d) {
    ops.push_back({d, 0, 1});
    ops.push_back({d | 0x80000000u, 0, 1});
  }
  for (int i = 0; i < 500000; ++i) {
    Op op;
    op.fn = rng() % 2;
    op.a = rng();
    if (op.fn && rng() % 2) op.a = randomFinite(rng, 120 + rng() % 40);  // the integer range
    if (!op.fn && rng() % 2) op.a >>= rng() % 32;                        // every magnitude
    ops.push_back(op);
  }
  const auto got =
      runPipeline<Vnnfab_fp_cvt>(ops, kCvtLatency, [](Vnnfab_fp_cvt& m, const Op& op) { m.to_int = op.fn; });
  Coverage cov{"nnfab_fp_cvt"};  // a: the FLOAT32 operands, y: the FLOAT32 results
  cov.useB = false;
  ASSERT_EQ(got.size(), ops.size());
  int bad = 0;
  long intSat = 0;
  for (size_t i = 0; i < ops.size(); ++i) {
    const Op& op = ops[i];
    const uint32_t want = refCvt(op);
    if (op.fn) {
      ++cov.hits[0][classOf(op.a)];
      ++cov.total;
      if (want == 0x80000000u || want == 0x7FFFFFFFu) ++intSat;
    } else {
      ++cov.hits[2][classOf(got[i])];
      ++cov.total;
      const float r = asFloat(want);
      cov.tie(double(int32_t(op.a)), r);
    }
    if (got[i] != want && ++bad <= 10)
      ADD_FAILURE() << "cvt to_int " << op.fn << " a " << hex(op.a) << ": got " << hex(got[i]) << " want "
                    << hex(want);
  }
  EXPECT_EQ(bad, 0);
  cov.print();
  std::printf("  FLOAT32 -> INT32 saturated: %ld\n", intSat);
  EXPECT_TRUE(cov.all(0));
  EXPECT_GT(cov.ties, 10000);
  EXPECT_TRUE(cov.bothWays());
  EXPECT_GT(intSat, 100);
}

// ---------------------------------------------------------------- bubbles
// Bit for bit the results of the full-rate runs above (which are checked
// against the host), with idle cycles and junk operands between operations.
std::vector<Op> bubbleOps(uint32_t seed, uint32_t fns, int scale) {
  std::mt19937 rng(seed);
  std::vector<Op> ops;
  for (Op op : edgePairs(0)) {
    op.fn = rng() % fns;
    ops.push_back(op);
  }
  for (int i = 0; i < 20000; ++i) {
    Op op = randomPair(rng, scale);
    op.fn = rng() % fns;
    ops.push_back(op);
  }
  return ops;
}

template <class Model, class Set>
void expectBubblesChangeNothing(const std::vector<Op>& ops, int latency, Set set) {
  const auto full = runPipeline<Model>(ops, latency, set);
  const auto bubbly = runPipelineWithBubbles<Model>(ops, latency, set, 99);
  ASSERT_EQ(bubbly.size(), ops.size());
  EXPECT_TRUE(bubbly == full);
}

TEST(RtlFpAdd, IdleCyclesBetweenOperationsChangeNoResult) {
  expectBubblesChangeNothing<Vnnfab_fp_add>(bubbleOps(21, 2, 0), kAddLatency, [](Vnnfab_fp_add& m, const Op& op) {
    m.b = op.b;
    m.sub = op.fn;
  });
}

TEST(RtlFpMul, IdleCyclesBetweenOperationsChangeNoResult) {
  expectBubblesChangeNothing<Vnnfab_fp_mul>(bubbleOps(22, 1, 1), kMulLatency,
                                            [](Vnnfab_fp_mul& m, const Op& op) { m.b = op.b; });
}

TEST(RtlFpDiv, IdleCyclesBetweenOperationsChangeNoResult) {
  expectBubblesChangeNothing<Vnnfab_fp_div>(bubbleOps(23, 1, -1), kDivLatency,
                                            [](Vnnfab_fp_div& m, const Op& op) { m.b = op.b; });
}

TEST(RtlFpCmp, IdleCyclesBetweenOperationsChangeNoResult) {
  expectBubblesChangeNothing<Vnnfab_fp_cmp>(bubbleOps(24, kCmpOps, 0), kCmpLatency,
                                            [](Vnnfab_fp_cmp& m, const Op& op) {
                                              m.b = op.b;
                                              m.op = op.fn;
                                            });
}

TEST(RtlFpCvt, IdleCyclesBetweenOperationsChangeNoResult) {
  expectBubblesChangeNothing<Vnnfab_fp_cvt>(bubbleOps(25, 2, 0), kCvtLatency,
                                            [](Vnnfab_fp_cvt& m, const Op& op) { m.to_int = op.fn; });
}

// ---------------------------------------------------------------- FC lane
// Dot products the CPU executor's way (the FLOAT32 contract):
// acc = +0; acc = acc + x[i] * w[i] (each product rounded); out = act(acc + bias).
struct DotJob {
  std::vector<uint32_t> x, w;
  uint32_t bias = 0, act = 0;
  uint32_t expected() const {
    float acc = 0.0f;
    for (size_t i = 0; i < x.size(); ++i) acc = acc + asFloat(x[i]) * asFloat(w[i]);
    acc = acc + asFloat(bias);
    const uint32_t fn[4] = {kMax, kRelu, kRelu1, kRelu6};  // NONE: MAX(acc, acc) = acc
    return refCmp({bits(acc), bits(acc), fn[act]});
  }
};

uint32_t randomTerm(std::mt19937& rng) {
  if (rng() % 64 == 0) return edgeValues()[rng() % edgeValues().size()];
  return randomFinite(rng, 110 + rng() % 35);  // 2^-17 .. 2^17: sums that cancel and round
}

// One lane after a reset, in an FC instruction (`active`) with a unit in
// each of its 8 slots (`slots`), no term offered. tick() clocks it once and
// steps the slot count the FC engine keeps for its lanes: free-running mod
// 8, 0 after a reset.
struct LaneBench {
  nnfab::rtl_test::UnitContext context;
  Vnnfab_fp_fc_lane m{&context};
  LaneBench() {
    m.in_valid = 0;
    m.active = 1;
    m.slots = kLaneSlots;
    m.rst = 1;
    m.slot = 0;
    tick();
    m.rst = 0;
  }
  void tick() {
    m.clk = 0;
    m.eval();
    m.clk = 1;
    m.eval();
    m.slot = static_cast<uint8_t>(m.rst ? 0 : (m.slot + 1) % kLaneSlots);
  }
};

TEST(RtlFpFcLane, InterleavedDotProductsInTheContractsOrderWithStalls) {
  expectHostIeee();
  std::mt19937 rng(17);
  std::vector<DotJob> jobs(4000);
  long terms = 0;
  for (DotJob& j : jobs) {
    const size_t n = 1 + rng() % 48;
    for (size_t i = 0; i < n; ++i) {
      j.x.push_back(randomTerm(rng));
      j.w.push_back(randomTerm(rng));
    }
    j.bias = rng() % 8 == 0 ? 0u : randomTerm(rng);
    j.act = rng() % 4;
    terms += long(n) + 1;
  }
  LaneBench bench;
  Vnnfab_fp_fc_lane& m = bench.m;
  auto tick = [&] { bench.tick(); };
  // Per slot: the job being fed and its next term (the bias is term n), and
  // the jobs whose last term went in, in order.
  std::array<long, kLaneSlots> feeding;
  feeding.fill(-1);
  std::array<size_t, kLaneSlots> pos{};
  std::array<std::vector<std::pair<long, long>>, kLaneSlots> pending;  // job, cycle of its last term
  size_t nextJob = 0, done = 0;
  long stalls = 0, cycles = 0, nanResults = 0;
  std::array<long, 4> acts{};
  int bad = 0;
  while (done < jobs.size() && cycles < 10 * terms) {
    const uint32_t s = m.slot;
    if (feeding[s] < 0 && nextJob < jobs.size()) {
      feeding[s] = long(nextJob++);
      pos[s] = 0;
    }
    m.in_valid = 0;
    if (feeding[s] >= 0 && rng() % 8 == 0) {
      ++stalls;  // the weights are late: this turn adds -0
    } else if (feeding[s] >= 0) {
      const DotJob& j = jobs[size_t(feeding[s])];
      const bool bias = pos[s] == j.x.size();
      m.in_valid = 1;
      m.x = bias ? j.bias : j.x[pos[s]];
      m.w = bias ? 0x3F800000u : j.w[pos[s]];
      m.first = pos[s] == 0;
      m.last = bias;
      m.act = j.act;
      if (bias) {
        pending[s].emplace_back(feeding[s], cycles);
        feeding[s] = -1;
      } else {
        ++pos[s];
      }
    }
    tick();
    ++cycles;
    if (m.out_valid) {
      const uint32_t os = m.out_slot;
      if (pending[os].empty()) {
        ADD_FAILURE() << "result for idle slot " << os << " in cycle " << cycles;
        break;
      }
      const auto [job, issued] = pending[os].front();
      const DotJob& j = jobs[size_t(job)];
      // the result leaves exactly kLaneLatency cycles after the last term
      EXPECT_EQ(cycles - 1 - issued, kLaneLatency - 1) << "slot " << os;
      const uint32_t want = j.expected();
      if (!sameFloat(m.y, want) && ++bad <= 10)
        ADD_FAILURE() << "job " << job << " (" << j.x.size() << " terms, act " << j.act
                      << "): got " << hex(m.y) << " want " << hex(want);
      nanResults += isNan(want);
      ++acts[j.act];
      pending[os].erase(pending[os].begin());
      ++done;
    }
  }
  EXPECT_EQ(done, jobs.size());
  EXPECT_EQ(bad, 0);
  std::printf("[coverage nnfab_fp_fc_lane] %zu dot products, %ld terms in %ld cycles (%.3f MAC/cycle), %ld stalled "
              "turns, %ld NaN results, activations NONE %ld RELU %ld RELU1 %ld RELU6 %ld\n",
              done, terms, cycles, double(terms) / double(cycles), stalls, nanResults, acts[0], acts[1], acts[2],
              acts[3]);
  EXPECT_GT(stalls, 1000);
  EXPECT_GT(nanResults, 10);
}

// A lane the wave has no unit on (the FC engine's lane_slots 0)
// while the others compute: it takes the terms the engine offers every lane
// and gives nothing, and its output holds its last result, so a write's
// unstrobed words are all it could reach.
TEST(RtlFpFcLane, ALaneWithoutAUnitGivesNoResultAndHoldsItsOutput) {
  LaneBench bench;
  Vnnfab_fp_fc_lane& m = bench.m;
  auto tick = [&] { bench.tick(); };
  // Slot 0's sum of first_x · 2 + 1 · 1, then the bias term 1 · 1, one
  // term per turn of the slot; returns the cycles it took.
  auto feedSlot0 = [&](uint32_t first_x) {
    const uint32_t terms[3][2] = {{first_x, 0x40000000u}, {0x3F800000u, 0x3F800000u}, {0x3F800000u, 0x3F800000u}};
    long cycles = 0;
    for (int t = 0; t < 3; ++t) {
      while (m.slot != 0) tick(), ++cycles;
      m.in_valid = 1;
      m.x = terms[t][0];
      m.w = terms[t][1];
      m.first = t == 0;
      m.last = t == 2;
      m.act = 0;
      tick(), ++cycles;
      m.in_valid = 0;
    }
    return cycles;
  };
  // Used: 3 · 2 + 1 + 1 = 8.
  long cycles = feedSlot0(0x40400000u), results = 0;
  while (!m.out_valid && cycles < 100) tick(), ++cycles;
  ASSERT_TRUE(m.out_valid);
  EXPECT_EQ(m.y, 0x41000000u);  // 8.0
  const uint32_t held = m.y;
  for (int i = 0; i < 40; ++i) tick();
  // The same stream with the lane unused: no result, the output held
  // (8 · 2 + 1 + 1 would differ from the held 8).
  m.slots = 0;
  feedSlot0(0x41000000u);
  for (int i = 0; i < 60; ++i) {
    tick();
    results += m.out_valid;
    EXPECT_EQ(m.y, held) << "cycle " << i;
  }
  EXPECT_EQ(results, 0);
}

// A lane with units in its first k slots only (a wave of fewer than 8 · 16
// units), fed as the FC engine feeds every lane: a term for each of the 8
// slots in every round. Slots 0 .. k-1 give their sums. The others are not
// added: each still gives a result (the engine counts lane 0's), the
// activation of the adder's last sum, so a sum of a slot with a unit and
// never its own.
TEST(RtlFpFcLane, SlotsWithoutAUnitAreNotAdded) {
  expectHostIeee();
  std::mt19937 rng(19);
  for (uint32_t k = 1; k < kLaneSlots; ++k) {
    LaneBench bench;
    Vnnfab_fp_fc_lane& m = bench.m;
    m.slots = static_cast<uint8_t>(k);
    // One job per slot, all of the same length, activation NONE.
    const size_t n = 1 + rng() % 6;
    std::array<DotJob, kLaneSlots> jobs;
    for (DotJob& j : jobs) {
      for (size_t i = 0; i < n; ++i) {
        j.x.push_back(randomFinite(rng, 120 + rng() % 15));
        j.w.push_back(randomFinite(rng, 120 + rng() % 15));
      }
      j.bias = randomFinite(rng, 125);
    }
    while (m.slot != 0) bench.tick();
    // Round t gives every slot its term t (the bias is term n).
    for (size_t t = 0; t <= n; ++t)
      for (uint32_t s = 0; s < kLaneSlots; ++s) {
        const DotJob& j = jobs[s];
        const bool bias = t == n;
        m.in_valid = 1;
        m.x = bias ? j.bias : j.x[t];
        m.w = bias ? 0x3F800000u : j.w[t];
        m.first = t == 0;
        m.last = bias;
        m.act = 0;
        bench.tick();
      }
    m.in_valid = 0;
    std::array<uint32_t, kLaneSlots> got{};
    uint32_t results = 0;
    for (int c = 0; c < 4 * kLaneLatency && results < kLaneSlots; ++c) {
      bench.tick();
      if (m.out_valid) got[m.out_slot] = m.y, ++results;
    }
    ASSERT_EQ(results, kLaneSlots) << k << " slots";
    for (uint32_t s = 0; s < k; ++s)
      EXPECT_TRUE(sameFloat(got[s], jobs[s].expected()))
          << k << " slots, slot " << s << ": got " << hex(got[s]) << " want " << hex(jobs[s].expected());
    for (uint32_t s = k; s < kLaneSlots; ++s) {
      EXPECT_NE(got[s], jobs[s].expected()) << k << " slots: slot " << s << " without a unit was added";
      EXPECT_TRUE(std::any_of(got.begin(), got.begin() + k, [&](uint32_t y) { return y == got[s]; }))
          << k << " slots: slot " << s << " gave " << hex(got[s]) << ", no used slot's sum";
    }
  }
}

}  // namespace
}  // namespace nnfab::fabric::test
