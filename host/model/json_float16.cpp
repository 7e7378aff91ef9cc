#include "model/json_float16.h"

#include <cmath>
#include <limits>

#include "model/json_rounding.h"

namespace nnfab::json {
namespace {

constexpr uint16_t kSignBit = 0x8000;
constexpr uint16_t kInfinity = 0x7c00;
constexpr uint16_t kQuietNaN = 0x7e00;
constexpr int kExponentBias = 15;
constexpr int kMantissaBits = 10;

}  // namespace

uint16_t float16FromExactMagnitude(bool negative, double magnitude) {
  const uint16_t sign = negative ? kSignBit : 0;
  if (overflows(magnitude, kBinary16)) return sign | kInfinity;
  // Below the smallest normal the bits count units of 2^-24; the count 1024
  // would be 2^-14, whose encoding 0x0400 happens to be the same number.
  if (magnitude < 0x1p-14) return sign | static_cast<uint16_t>(magnitude * 0x1p24);
  const int exponent = std::ilogb(magnitude);
  const auto significand = static_cast<uint16_t>(std::ldexp(magnitude, kMantissaBits - exponent));
  const auto biased = static_cast<uint16_t>(exponent + kExponentBias);
  return sign | static_cast<uint16_t>(biased << kMantissaBits) |
         static_cast<uint16_t>(significand - (1u << kMantissaBits));
}

uint16_t float16FromDouble(double value) {
  const bool negative = std::signbit(value);
  if (std::isnan(value)) return (negative ? kSignBit : 0) | kQuietNaN;
  if (std::isinf(value)) return (negative ? kSignBit : 0) | kInfinity;
  return float16FromExactMagnitude(negative, roundMagnitude(std::fabs(value), kBinary16));
}

uint16_t float16FromFloat(float value) { return float16FromDouble(static_cast<double>(value)); }

float float16ToFloat(uint16_t bits) {
  const bool negative = (bits & kSignBit) != 0;
  const int biased = (bits >> kMantissaBits) & 0x1f;
  const int mantissa = bits & 0x3ff;
  float magnitude;
  if (biased == 0x1f) {
    magnitude = mantissa == 0 ? std::numeric_limits<float>::infinity()
                              : std::numeric_limits<float>::quiet_NaN();
  } else if (biased == 0) {
    magnitude = std::ldexp(static_cast<float>(mantissa), -24);
  } else {
    magnitude =
        std::ldexp(static_cast<float>(mantissa + 1024), biased - kExponentBias - kMantissaBits);
  }
  return negative ? -magnitude : magnitude;
}

}  // namespace nnfab::json
