// The binary16 converter on its edges: exact values, ties to even,
// subnormals, overflow to infinity, NaN, and an exhaustive round trip.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "model/json_float16.h"

namespace nnfab::json {
namespace {

TEST(Float16, ExactValues) {
  EXPECT_EQ(float16FromFloat(0.0f), 0x0000);
  EXPECT_EQ(float16FromFloat(-0.0f), 0x8000);
  EXPECT_EQ(float16FromFloat(1.0f), 0x3c00);
  EXPECT_EQ(float16FromFloat(-2.0f), 0xc000);
  EXPECT_EQ(float16FromFloat(0.5f), 0x3800);
  EXPECT_EQ(float16FromFloat(65504.0f), 0x7bff);    // largest finite
  EXPECT_EQ(float16FromFloat(0x1p-14f), 0x0400);    // smallest normal
  EXPECT_EQ(float16FromFloat(0x1p-24f), 0x0001);    // smallest subnormal
  EXPECT_EQ(float16FromFloat(0x3ffp-24f), 0x03ff);  // largest subnormal
}

TEST(Float16, RoundsToNearestEven) {
  // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties to the even 1.
  EXPECT_EQ(float16FromDouble(1.0 + 0x1p-11), 0x3c00);
  // 1 + 3 * 2^-11 is halfway between 1 + 2^-10 (odd) and 1 + 2^-9: up.
  EXPECT_EQ(float16FromDouble(1.0 + 3 * 0x1p-11), 0x3c02);
  EXPECT_EQ(float16FromDouble(1.0 + 0x1p-11 + 0x1p-30), 0x3c01);
  EXPECT_EQ(float16FromDouble(1.0 + 0x1p-11 - 0x1p-30), 0x3c00);
  EXPECT_EQ(float16FromFloat(0.1f), 0x2e66);
  EXPECT_EQ(float16FromFloat(-0.1f), 0xae66);
}

TEST(Float16, Subnormals) {
  // Halfway between 0 and the smallest subnormal: ties to even (zero).
  EXPECT_EQ(float16FromDouble(0x1p-25), 0x0000);
  EXPECT_EQ(float16FromDouble(-0x1p-25), 0x8000);
  EXPECT_EQ(float16FromDouble(0x1p-25 + 0x1p-40), 0x0001);
  // 1.5 units: halfway between 1 (odd) and 2: up to 2.
  EXPECT_EQ(float16FromDouble(1.5 * 0x1p-24), 0x0002);
  EXPECT_EQ(float16FromDouble(2.5 * 0x1p-24), 0x0002);
  EXPECT_EQ(float16FromDouble(1e-30), 0x0000);
  EXPECT_EQ(float16FromDouble(std::numeric_limits<double>::denorm_min()), 0x0000);
  // Rounding up out of the subnormal range gives the smallest normal.
  EXPECT_EQ(float16FromDouble(0x3ffp-24 + 0x1p-25 + 0x1p-40), 0x0400);
  EXPECT_FLOAT_EQ(float16ToFloat(0x0001), 0x1p-24f);
  EXPECT_FLOAT_EQ(float16ToFloat(0x03ff), 0x3ffp-24f);
  EXPECT_FLOAT_EQ(float16ToFloat(0x8001), -0x1p-24f);
}

TEST(Float16, OverflowsToInfinity) {
  EXPECT_EQ(float16FromDouble(65519.99), 0x7bff);
  EXPECT_EQ(float16FromDouble(65520.0), 0x7c00);  // the tie goes to the even "65536"
  EXPECT_EQ(float16FromDouble(-65520.0), 0xfc00);
  EXPECT_EQ(float16FromDouble(1e10), 0x7c00);
  EXPECT_EQ(float16FromDouble(1e300), 0x7c00);
  EXPECT_EQ(float16FromFloat(std::numeric_limits<float>::infinity()), 0x7c00);
  EXPECT_EQ(float16FromFloat(-std::numeric_limits<float>::infinity()), 0xfc00);
  EXPECT_EQ(float16ToFloat(0x7c00), std::numeric_limits<float>::infinity());
  EXPECT_EQ(float16ToFloat(0xfc00), -std::numeric_limits<float>::infinity());
}

TEST(Float16, NaN) {
  const uint16_t nan = float16FromFloat(std::numeric_limits<float>::quiet_NaN());
  EXPECT_EQ(nan & 0x7c00, 0x7c00);
  EXPECT_NE(nan & 0x03ff, 0);
  EXPECT_TRUE(std::isnan(float16ToFloat(nan)));
  EXPECT_TRUE(std::isnan(float16ToFloat(0x7c01)));  // signalling pattern
  EXPECT_TRUE(std::isnan(float16ToFloat(0xfe00)));
  EXPECT_TRUE(std::signbit(float16ToFloat(0xfe00)));
  EXPECT_EQ(float16FromDouble(-std::numeric_limits<double>::quiet_NaN()) & 0x8000, 0x8000);
}

TEST(Float16, EveryValueRoundTripsThroughFloat) {
  for (uint32_t bits = 0; bits <= 0xffff; ++bits) {
    const auto h = static_cast<uint16_t>(bits);
    const float f = float16ToFloat(h);
    if (std::isnan(f)) continue;
    ASSERT_EQ(float16FromFloat(f), h) << std::hex << bits;
  }
}

TEST(Float16, EveryMidpointAndItsNeighbours) {
  // Between every two neighbouring finite values, the midpoint and points
  // just around it must go to the right side.
  for (uint32_t bits = 0; bits < 0x7bff; ++bits) {
    const double low = float16ToFloat(static_cast<uint16_t>(bits));
    const double high = float16ToFloat(static_cast<uint16_t>(bits + 1));
    const double mid = (low + high) / 2;
    const uint16_t even =
        (bits % 2 == 0) ? static_cast<uint16_t>(bits) : static_cast<uint16_t>(bits + 1);
    ASSERT_EQ(float16FromDouble(mid), even) << std::hex << bits;
    ASSERT_EQ(float16FromDouble(std::nextafter(mid, 0.0)), bits) << std::hex << bits;
    ASSERT_EQ(float16FromDouble(std::nextafter(mid, 1e9)), bits + 1) << std::hex << bits;
  }
}

}  // namespace
}  // namespace nnfab::json
