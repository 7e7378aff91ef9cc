// Broadcast shapes and plans, and differential tests: the fast paths
// (collapsed General, Flat, ScalarA/B, Single) against the plain uncollapsed
// General path and against an index-by-index reference written here.
#include <random>

#include "cpu/kernels/broadcast.h"
#include "cpu/kernels/elementwise.h"
#include "isa/int32_semantics.h"
#include "kernel_test_util.h"

namespace nnfab::cpu::test {
namespace {

Dimensions shapeOf(std::span<const uint32_t> a, std::span<const uint32_t> b, Status* status) {
  Dimensions out;
  *status = broadcastShape(a, b, &out);
  return out;
}

TEST(BroadcastShape, Rules) {
  Status s;
  EXPECT_EQ(shapeOf(Dimensions{4, 1, 2}, Dimensions{5, 4, 3, 1}, &s), (Dimensions{5, 4, 3, 2}));
  EXPECT_TRUE(s.isOk());
  EXPECT_EQ(shapeOf(Dimensions{}, Dimensions{2, 3}, &s), (Dimensions{2, 3}));
  EXPECT_EQ(shapeOf(Dimensions{2, 3}, Dimensions{}, &s), (Dimensions{2, 3}));
  EXPECT_EQ(shapeOf(Dimensions{}, Dimensions{}, &s), (Dimensions{}));
  EXPECT_EQ(shapeOf(Dimensions{1}, Dimensions{0}, &s), (Dimensions{0}));
  EXPECT_TRUE(s.isOk());
  EXPECT_EQ(shapeOf(Dimensions{0, 1}, Dimensions{1, 5}, &s), (Dimensions{0, 5}));
  EXPECT_EQ(shapeOf(Dimensions{0}, Dimensions{0}, &s), (Dimensions{0}));
  shapeOf(Dimensions{0}, Dimensions{2}, &s);
  EXPECT_EQ(s.code(), ErrorStatus::GENERAL_FAILURE);
  shapeOf(Dimensions{2, 3}, Dimensions{3, 2}, &s);
  EXPECT_EQ(s.code(), ErrorStatus::GENERAL_FAILURE);
  EXPECT_NE(s.message().find("[2,3]"), std::string::npos) << s.message();
}

BroadcastKind kindOf(Dimensions a, Dimensions b) {
  Dimensions out;
  EXPECT_TRUE(broadcastShape(a, b, &out).isOk());
  return makeBroadcastPlan(a, b, out).kind;
}

TEST(BroadcastPlan, PicksFastPaths) {
  EXPECT_EQ(kindOf({1}, {1}), BroadcastKind::Single);
  EXPECT_EQ(kindOf({1, 1}, {}), BroadcastKind::Single);
  EXPECT_EQ(kindOf({2, 3}, {2, 3}), BroadcastKind::Flat);
  EXPECT_EQ(kindOf({1, 6}, {6}), BroadcastKind::Flat);
  EXPECT_EQ(kindOf({1, 2, 3}, {2, 3}), BroadcastKind::Flat);
  EXPECT_EQ(kindOf({2, 1, 3}, {2, 3}), BroadcastKind::General);  // -> [2,2,3]
  EXPECT_EQ(kindOf({1}, {4, 5}), BroadcastKind::ScalarA);
  EXPECT_EQ(kindOf({4, 5}, {}), BroadcastKind::ScalarB);
  EXPECT_EQ(kindOf({4, 5}, {5}), BroadcastKind::General);
  EXPECT_EQ(kindOf({0, 5}, {5}), BroadcastKind::Empty);
}

TEST(BroadcastPlan, CollapsesDimensions) {
  // [2,3,4] + [3,4]: a is contiguous, b repeats every 12: two runs.
  Dimensions out;
  ASSERT_TRUE(broadcastShape(Dimensions{2, 3, 4}, Dimensions{3, 4}, &out).isOk());
  BroadcastPlan p = makeBroadcastPlan(Dimensions{2, 3, 4}, Dimensions{3, 4}, out);
  EXPECT_EQ(p.kind, BroadcastKind::General);
  EXPECT_EQ(p.dims, (std::vector<size_t>{2, 12}));
  EXPECT_EQ(p.strideA, (std::vector<size_t>{12, 1}));
  EXPECT_EQ(p.strideB, (std::vector<size_t>{0, 1}));
  EXPECT_EQ(p.inner, InnerKind::Contiguous);
  // [5,1] vs [1,7]: outer product, inner loop repeats a.
  ASSERT_TRUE(broadcastShape(Dimensions{5, 1}, Dimensions{1, 7}, &out).isOk());
  p = makeBroadcastPlan(Dimensions{5, 1}, Dimensions{1, 7}, out);
  EXPECT_EQ(p.dims, (std::vector<size_t>{5, 7}));
  EXPECT_EQ(p.strideA, (std::vector<size_t>{1, 0}));
  EXPECT_EQ(p.strideB, (std::vector<size_t>{0, 1}));
  EXPECT_EQ(p.inner, InnerKind::ScalarA);
}

// A random pair of broadcast-compatible shapes (rank 0..maxRank, sizes
// 1..4), sometimes with a zero dimension.
std::pair<Dimensions, Dimensions> randomShapes(std::mt19937& rng, bool allowZero, int maxRank) {
  std::uniform_int_distribution<int> rankDist(0, maxRank), sizeDist(1, 4), coin(0, 3);
  const size_t rank = rankDist(rng);
  Dimensions out(rank);
  for (auto& d : out) d = sizeDist(rng);
  if (allowZero && rank > 0 && coin(rng) == 0) out[rng() % rank] = 0;
  Dimensions a = out, b = out;
  for (size_t i = 0; i < rank; ++i) {
    if (coin(rng) == 0) a[i] = 1;
    else if (coin(rng) == 0) b[i] = 1;
  }
  // Drop some leading dimensions (implicit 1s).
  a.erase(a.begin(), a.begin() + std::uniform_int_distribution<size_t>(0, rank)(rng) / 2);
  b.erase(b.begin(), b.begin() + std::uniform_int_distribution<size_t>(0, rank)(rng) / 2);
  return {a, b};
}

size_t count(const Dimensions& d) {
  size_t n = 1;
  for (uint32_t x : d) n *= x;
  return n;
}

// out[i] = a[ia] - b[ib] computed by unravelling each output index.
std::vector<int32_t> referenceSub(const Dimensions& a, const std::vector<int32_t>& av,
                                  const Dimensions& b, const std::vector<int32_t>& bv,
                                  const Dimensions& out) {
  std::vector<int32_t> result(count(out));
  const size_t rank = out.size();
  for (size_t flat = 0; flat < result.size(); ++flat) {
    std::vector<size_t> idx(rank);
    size_t rest = flat;
    for (size_t i = rank; i-- > 0;) {
      idx[i] = rest % out[i];
      rest /= out[i];
    }
    auto offset = [&](const Dimensions& dims) {
      size_t off = 0;
      const size_t pad = rank - dims.size();
      for (size_t i = 0; i < dims.size(); ++i) off = off * dims[i] + (dims[i] == 1 ? 0 : idx[pad + i]);
      return off;
    };
    result[flat] = int32_math::wrapSub(av[offset(a)], bv[offset(b)]);
  }
  return result;
}

std::vector<int32_t> randomInts(std::mt19937& rng, size_t n) {
  std::vector<int32_t> v(n);
  for (auto& x : v) x = static_cast<int32_t>(rng());
  return v;
}

TEST(BroadcastDifferential, FastPathsMatchGeneralAndReference) {
  std::mt19937 rng(20240611);
  int kinds[6] = {};
  for (int iter = 0; iter < 3000; ++iter) {
    auto [a, b] = randomShapes(rng, /*allowZero=*/iter % 5 == 0, /*maxRank=*/4);
    Dimensions out;
    ASSERT_TRUE(broadcastShape(a, b, &out).isOk())
        << dimsToString(a) << " vs " << dimsToString(b);
    const auto av = randomInts(rng, count(a));
    const auto bv = randomInts(rng, count(b));
    const auto expected = referenceSub(a, av, b, bv, out);

    BroadcastPlan fast = makeBroadcastPlan(a, b, out);
    BroadcastPlan general = makeBroadcastPlan(a, b, out, /*forceGeneral=*/true);
    ++kinds[static_cast<int>(fast.kind)];
    for (BroadcastPlan* plan : {&fast, &general}) {
      const bool isGeneral = plan == &general;
      auto kernel = makeBinaryKernel<ops::Sub, int32_t, int32_t>(*plan);
      std::vector<int32_t> got(expected.size() + 1, 0x5a5a5a5a);  // +1: overrun guard
      const uint8_t* in[2] = {reinterpret_cast<const uint8_t*>(av.data()),
                              reinterpret_cast<const uint8_t*>(bv.data())};
      uint8_t* o = reinterpret_cast<uint8_t*>(got.data());
      kernel->run(in, &o);
      EXPECT_EQ(got.back(), 0x5a5a5a5a);
      got.pop_back();
      EXPECT_EQ(got, expected) << (isGeneral ? "general " : "fast ") << dimsToString(a) << " - "
                               << dimsToString(b);
    }
    // The public path (prepareKernel) agrees too, and reports the shape.
    auto r = run(OperationType::SUB, {i32(a, av), i32(b, bv), scalar(0)});
    ASSERT_TRUE(r.status.isOk()) << r.status.message();
    EXPECT_EQ(r.shape.dims, out);
    EXPECT_EQ(r.i32(), expected);
  }
  // Every kind was exercised.
  for (int k = 0; k < 6; ++k) EXPECT_GT(kinds[k], 0) << "kind " << k;
}

// The same for a float comparison (different input/output element sizes).
TEST(BroadcastDifferential, ComparisonFloat) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> small(-3, 3);
  for (int iter = 0; iter < 1000; ++iter) {
    auto [a, b] = randomShapes(rng, false, /*maxRank=*/6);
    Dimensions out;
    ASSERT_TRUE(broadcastShape(a, b, &out).isOk());
    std::vector<float> av(count(a)), bv(count(b));
    for (auto& x : av) x = static_cast<float>(small(rng));
    for (auto& x : bv) x = static_cast<float>(small(rng));
    // Reference via the int32 reference: a - b < 0  <=>  a < b on small ints.
    std::vector<int32_t> ai(av.begin(), av.end()), bi(bv.begin(), bv.end());
    const auto diff = referenceSub(a, ai, b, bi, out);
    std::vector<uint8_t> expected;
    for (int32_t d : diff) expected.push_back(d < 0);
    auto general = makeBinaryKernel<ops::Less, float, uint8_t>(
        makeBroadcastPlan(a, b, out, /*forceGeneral=*/true));
    std::vector<uint8_t> got(expected.size());
    const uint8_t* in[2] = {reinterpret_cast<const uint8_t*>(av.data()),
                            reinterpret_cast<const uint8_t*>(bv.data())};
    uint8_t* o = got.data();
    general->run(in, &o);
    EXPECT_EQ(got, expected);
    auto r = run(OperationType::LESS, {f32(a, av), f32(b, bv)}, OperandType::TENSOR_BOOL8);
    ASSERT_TRUE(r.status.isOk()) << r.status.message();
    EXPECT_EQ(r.b8(), expected) << dimsToString(a) << " < " << dimsToString(b);
  }
}

}  // namespace
}  // namespace nnfab::cpu::test
