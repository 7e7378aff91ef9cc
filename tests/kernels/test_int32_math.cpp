// nnfab's INT32 definitions (isa/int32_semantics.h), checked at compile time (they are
// constexpr, so a UB-free implementation is enforced by the compiler) and at
// run time.
#include "isa/int32_semantics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace nnfab::int32_math {
namespace {

static_assert(wrapAdd(kMax, 1) == kMin);
static_assert(wrapSub(kMin, 1) == kMax);
static_assert(wrapMul(65536, 65536) == 0);
static_assert(wrapMul(kMin, -1) == kMin);
static_assert(wrapNeg(kMin) == kMin);
static_assert(wrapAbs(kMin) == kMin);
static_assert(floorDiv(kMin, -1) == kMin);
static_assert(floorDiv(5, 0) == 0);
static_assert(floorDiv(-5, 2) == -3);
static_assert(saturatingFloatToInt32(2147483648.0f) == kMax);

TEST(Int32Math, WrapAroundAddSubMul) {
  EXPECT_EQ(wrapAdd(kMax, 1), kMin);
  EXPECT_EQ(wrapAdd(kMin, -1), kMax);
  EXPECT_EQ(wrapAdd(kMax, kMax), -2);
  EXPECT_EQ(wrapAdd(kMin, kMin), 0);
  EXPECT_EQ(wrapAdd(-3, 5), 2);
  EXPECT_EQ(wrapSub(kMin, 1), kMax);
  EXPECT_EQ(wrapSub(kMax, -1), kMin);
  EXPECT_EQ(wrapSub(0, kMin), kMin);
  EXPECT_EQ(wrapSub(3, 5), -2);
  EXPECT_EQ(wrapMul(kMax, 2), -2);
  EXPECT_EQ(wrapMul(kMin, -1), kMin);
  EXPECT_EQ(wrapMul(kMin, 2), 0);
  EXPECT_EQ(wrapMul(65537, 65537), 131073);  // 2^32 + 2^17 + 1 mod 2^32
  EXPECT_EQ(wrapMul(-7, 6), -42);
  EXPECT_EQ(wrapMul(46341, 46341), -2147479015);  // 2147488281 - 2^32
}

TEST(Int32Math, AbsNeg) {
  EXPECT_EQ(wrapNeg(5), -5);
  EXPECT_EQ(wrapNeg(-5), 5);
  EXPECT_EQ(wrapNeg(0), 0);
  EXPECT_EQ(wrapNeg(kMax), kMin + 1);
  EXPECT_EQ(wrapNeg(kMin), kMin);
  EXPECT_EQ(wrapAbs(-5), 5);
  EXPECT_EQ(wrapAbs(5), 5);
  EXPECT_EQ(wrapAbs(kMin + 1), kMax);
  EXPECT_EQ(wrapAbs(kMin), kMin);
}

TEST(Int32Math, FloorDivision) {
  EXPECT_EQ(floorDiv(5, 2), 2);
  EXPECT_EQ(floorDiv(-5, 2), -3);
  EXPECT_EQ(floorDiv(5, -2), -3);
  EXPECT_EQ(floorDiv(-5, -2), 2);
  EXPECT_EQ(floorDiv(6, 3), 2);
  EXPECT_EQ(floorDiv(-6, 3), -2);
  EXPECT_EQ(floorDiv(-6, -3), 2);
  EXPECT_EQ(floorDiv(0, -3), 0);
  EXPECT_EQ(floorDiv(-1, 3), -1);
  EXPECT_EQ(floorDiv(1, -3), -1);
  EXPECT_EQ(floorDiv(7, 0), 0);
  EXPECT_EQ(floorDiv(kMin, 0), 0);
  EXPECT_EQ(floorDiv(0, 0), 0);
  EXPECT_EQ(floorDiv(kMin, -1), kMin);
  EXPECT_EQ(floorDiv(kMax, -1), -kMax);
  EXPECT_EQ(floorDiv(kMin, 1), kMin);
  EXPECT_EQ(floorDiv(kMin, 2), -1073741824);
  EXPECT_EQ(floorDiv(kMin, -2), 1073741824);
  EXPECT_EQ(floorDiv(kMin, kMin), 1);
  EXPECT_EQ(floorDiv(kMax, kMin), -1);   // -0.99999... floors to -1
  EXPECT_EQ(floorDiv(kMin, kMax), -2);   // -1.0000000005 floors to -2
  EXPECT_EQ(floorDiv(kMax, kMax), 1);
  EXPECT_EQ(floorDiv(kMin + 1, -1), kMax);
}

// Exhaustive-ish: floorDiv equals floor(a / b) computed in exact 64-bit math.
TEST(Int32Math, FloorDivisionMatchesWideReference) {
  const int32_t values[] = {kMin, kMin + 1, -1000000007, -65536, -100, -7, -3, -2, -1, 0,
                            1, 2, 3, 7, 100, 65536, 999999937, kMax - 1, kMax};
  for (int32_t a : values) {
    for (int32_t b : values) {
      if (b == 0) continue;
      const int64_t wa = a, wb = b;
      int64_t q = wa / wb;
      if (wa % wb != 0 && ((wa < 0) != (wb < 0))) --q;
      const int32_t expected = q == int64_t{1} << 31 ? kMin : static_cast<int32_t>(q);
      EXPECT_EQ(floorDiv(a, b), expected) << a << " / " << b;
    }
  }
}

TEST(Int32Math, SaturatingFloatToInt32) {
  EXPECT_EQ(saturatingFloatToInt32(1.9f), 1);
  EXPECT_EQ(saturatingFloatToInt32(-1.9f), -1);
  EXPECT_EQ(saturatingFloatToInt32(-0.5f), 0);
  EXPECT_EQ(saturatingFloatToInt32(-0.0f), 0);
  EXPECT_EQ(saturatingFloatToInt32(std::nanf("")), 0);
  EXPECT_EQ(saturatingFloatToInt32(-std::nanf("")), 0);
  EXPECT_EQ(saturatingFloatToInt32(std::numeric_limits<float>::infinity()), kMax);
  EXPECT_EQ(saturatingFloatToInt32(-std::numeric_limits<float>::infinity()), kMin);
  EXPECT_EQ(saturatingFloatToInt32(2147483648.0f), kMax);
  EXPECT_EQ(saturatingFloatToInt32(3e9f), kMax);
  EXPECT_EQ(saturatingFloatToInt32(-2147483648.0f), kMin);
  EXPECT_EQ(saturatingFloatToInt32(-2147483904.0f), kMin);  // next float below -2^31
  EXPECT_EQ(saturatingFloatToInt32(2147483520.0f), 2147483520);  // largest float < 2^31
  EXPECT_EQ(saturatingFloatToInt32(-2147483520.0f), -2147483520);
  EXPECT_EQ(saturatingFloatToInt32(16777217.0f), 16777216);  // not representable: rounds at parse
}

}  // namespace
}  // namespace nnfab::int32_math
