// Decimal text <-> FLOAT32/FLOAT16: correct rounding including the cases
// where going through a double would round twice, range limits, and the
// writer's shortest spelling reading back to the same bits.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>

#include "model/json_float16.h"
#include "model/json_numbers.h"

namespace nnfab::json {
namespace {

double nearestDouble(const std::string& token) {
  double d = 0;
  std::from_chars(token.data(), token.data() + token.size(), d);
  return d;
}

std::optional<float> toFloat32(const std::string& token) {
  return decimalToFloat32(nearestDouble(token), token);
}
std::optional<uint16_t> toFloat16(const std::string& token) {
  return decimalToFloat16(nearestDouble(token), token);
}

// libstdc++'s from_chars<float> rounds correctly from the text: the oracle.
std::optional<float> oracleFloat32(const std::string& token) {
  float f = 0;
  const auto r = std::from_chars(token.data(), token.data() + token.size(), f);
  if (r.ec == std::errc::result_out_of_range) {
    return std::fabs(nearestDouble(token)) < 1
               ? std::optional<float>(std::copysign(0.0f, nearestDouble(token)))
               : std::nullopt;
  }
  return f;
}

uint32_t bits(float f) { return std::bit_cast<uint32_t>(f); }

// Every midpoint between two floats has at most 150 binary fraction digits,
// so 200 decimal ones spell it exactly.
std::string exactFixed(double value) { return fmt::format("{:.200f}", value); }

TEST(DecimalToFloat32, Simple) {
  EXPECT_EQ(toFloat32("0.1"), 0.1f);
  EXPECT_EQ(toFloat32("1"), 1.0f);
  EXPECT_EQ(toFloat32("-2.5e3"), -2500.0f);
  EXPECT_EQ(bits(*toFloat32("-0.0")), bits(-0.0f));
  EXPECT_EQ(bits(*toFloat32("-1e-50")), bits(-0.0f));  // underflow keeps the sign
  EXPECT_EQ(toFloat32("1e-45"), std::numeric_limits<float>::denorm_min());
}

TEST(DecimalToFloat32, Range) {
  EXPECT_EQ(toFloat32("3.4028235e38"), std::numeric_limits<float>::max());
  EXPECT_EQ(toFloat32("-3.4028235e38"), -std::numeric_limits<float>::max());
  // FLT_MAX + half an ulp is the tie that rounds (to even) to infinity.
  EXPECT_EQ(toFloat32("340282356779733661637539395458142568448"), std::nullopt);
  EXPECT_EQ(toFloat32("340282356779733661637539395458142568447.9999"),
            std::numeric_limits<float>::max());
  EXPECT_EQ(toFloat32("3.4028236e38"), std::nullopt);
  EXPECT_EQ(toFloat32("-1e39"), std::nullopt);
  EXPECT_EQ(toFloat32("1e300"), std::nullopt);
}

TEST(DecimalToFloat32, NoDoubleRounding) {
  // 1 + 2^-24 is halfway between 1 and 1 + 2^-23; these tokens are a hair
  // above and below it, but their nearest double is the midpoint itself.
  EXPECT_EQ(toFloat32("1.000000059604644775390625000001"), 1.0f + 0x1p-23f);
  EXPECT_EQ(toFloat32("1.000000059604644775390624999999"), 1.0f);
  EXPECT_EQ(toFloat32("1.000000059604644775390625"), 1.0f);  // exact tie: even
  EXPECT_EQ(integerToFloat32(false, (uint64_t{1} << 60) + (uint64_t{1} << 36) + 1),
            oracleFloat32(std::to_string((uint64_t{1} << 60) + (uint64_t{1} << 36) + 1)));
  EXPECT_EQ(integerToFloat32(false, 16777217), 16777216.0f);
  EXPECT_EQ(integerToFloat32(true, 16777219), -16777220.0f);
  EXPECT_EQ(integerToFloat32(false, UINT64_MAX), 0x1p64f);
}

TEST(DecimalToFloat32, AgreesWithFromCharsOnRandomAndHalfwayTokens) {
  std::mt19937_64 random(12345);
  for (int i = 0; i < 20000; ++i) {
    const float f = std::bit_cast<float>(static_cast<uint32_t>(random()));
    if (!std::isfinite(f)) continue;
    const float g = std::nextafter(f, std::numeric_limits<float>::infinity());
    const double mid = (static_cast<double>(f) + static_cast<double>(g)) / 2;
    for (const std::string& token :
         {exactFixed(mid), exactFixed(mid) + "1", fmt::format("{}", f)}) {
      ASSERT_EQ(toFloat32(token).has_value(), oracleFloat32(token).has_value()) << token;
      if (toFloat32(token)) {
        ASSERT_EQ(bits(*toFloat32(token)), bits(*oracleFloat32(token))) << token;
      }
    }
  }
}

TEST(DecimalToFloat16, NoDoubleRounding) {
  // 1 + 2^-11 is halfway between 1 and 1 + 2^-10.
  EXPECT_EQ(toFloat16("1.00048828125"), 0x3c00);
  EXPECT_EQ(toFloat16("1.000488281250000000001"), 0x3c01);
  EXPECT_EQ(toFloat16("1.000488281249999999999"), 0x3c00);
  EXPECT_EQ(toFloat16("0.1"), 0x2e66);
  EXPECT_EQ(toFloat16("-0.1"), 0xae66);
  EXPECT_EQ(toFloat16("5.960464477539063e-8"), 0x0001);
  EXPECT_EQ(toFloat16("2.98023223876953125e-8"), 0x0000);  // 2^-25: tie to zero
  EXPECT_EQ(toFloat16("2.98023223876953125000001e-8"), 0x0001);
  EXPECT_EQ(integerToFloat16(false, 2049), 0x6800);  // 2048: tie to even
  EXPECT_EQ(integerToFloat16(false, 2051), 0x6802);
}

TEST(DecimalToFloat16, Range) {
  EXPECT_EQ(toFloat16("65504"), 0x7bff);
  EXPECT_EQ(toFloat16("65519.99"), 0x7bff);
  EXPECT_EQ(toFloat16("65519.99999999999999999999"), 0x7bff);  // its double is 65520
  EXPECT_EQ(toFloat16("65520"), std::nullopt);
  EXPECT_EQ(toFloat16("-1e5"), std::nullopt);
  EXPECT_EQ(integerToFloat16(false, 65520), std::nullopt);
  EXPECT_EQ(integerToFloat16(true, 65504), 0xfbff);
  EXPECT_EQ(toFloat16("1e-10"), 0x0000);
}

TEST(CompareDecimalMagnitudes, Normalizes) {
  EXPECT_EQ(compareDecimalMagnitudes("1", "1.0"), 0);
  EXPECT_EQ(compareDecimalMagnitudes("0.001", "1e-3"), 0);
  EXPECT_EQ(compareDecimalMagnitudes("-5", "5"), 0);
  EXPECT_EQ(compareDecimalMagnitudes("0", "0.000e7"), 0);
  EXPECT_EQ(compareDecimalMagnitudes("100", "99.999"), 1);
  EXPECT_EQ(compareDecimalMagnitudes("0", "1e-999"), -1);
  EXPECT_EQ(compareDecimalMagnitudes("1e400", "9e399"), 1);
  EXPECT_EQ(compareDecimalMagnitudes("12.5", "1.25e+1"), 0);
  EXPECT_EQ(compareDecimalMagnitudes("1.2", "1.25"), -1);
  EXPECT_EQ(compareDecimalMagnitudes("1e-99999999999999999999999", "1e-5"), -1);
}

TEST(FormatFloat32, ShortestAndMarked) {
  EXPECT_EQ(formatFloat32(0.1f), "0.1");
  EXPECT_EQ(formatFloat32(1.0f), "1.0");
  EXPECT_EQ(formatFloat32(-0.0f), "-0.0");
  EXPECT_EQ(formatFloat32(2.5f), "2.5");
  EXPECT_EQ(formatFloat32(16777216.0f), "16777216.0");
  EXPECT_EQ(formatFloat32(1e30f), "1e+30");
  EXPECT_EQ(formatFloat32(std::numeric_limits<float>::quiet_NaN()), "\"NaN\"");
  EXPECT_EQ(formatFloat32(std::numeric_limits<float>::infinity()), "\"Infinity\"");
  EXPECT_EQ(formatFloat32(-std::numeric_limits<float>::infinity()), "\"-Infinity\"");
}

TEST(FormatFloat32, ReadsBackToTheSameBits) {
  std::mt19937 random(7);
  std::vector<float> values = {std::numeric_limits<float>::max(), std::numeric_limits<float>::min(),
                               std::numeric_limits<float>::denorm_min(), 0x1p-140f, 1.0f / 3.0f};
  for (int i = 0; i < 200000; ++i)
    values.push_back(std::bit_cast<float>(static_cast<uint32_t>(random())));
  for (const float f : values) {
    if (!std::isfinite(f)) continue;
    const std::string text = formatFloat32(f);
    ASSERT_EQ(bits(*toFloat32(text)), bits(f)) << text;
  }
}

TEST(FormatFloat16, ShortestAndEveryValueReadsBack) {
  EXPECT_EQ(formatFloat16(0x2e66), "0.1");
  EXPECT_EQ(formatFloat16(0x3c00), "1.0");
  // 65500 reads back as 65504, the nearest FLOAT16 (numpy prints it so too).
  EXPECT_EQ(formatFloat16(0x7bff), "65500.0");
  EXPECT_EQ(formatFloat16(0x3c01), "1.001");
  EXPECT_EQ(formatFloat16(0x8000), "-0.0");
  EXPECT_EQ(formatFloat16(0x7c00), "\"Infinity\"");
  EXPECT_EQ(formatFloat16(0xfc00), "\"-Infinity\"");
  EXPECT_EQ(formatFloat16(0x7e00), "\"NaN\"");
  for (uint32_t b = 0; b <= 0xffff; ++b) {
    const auto h = static_cast<uint16_t>(b);
    if (std::isnan(float16ToFloat(h)) || std::isinf(float16ToFloat(h))) continue;
    const std::string text = formatFloat16(h);
    ASSERT_EQ(toFloat16(text), h) << text;
  }
}

}  // namespace
}  // namespace nnfab::json
