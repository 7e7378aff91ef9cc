#include "model/json_numbers.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>

#include "model/json_float16.h"
#include "model/json_rounding.h"

namespace nnfab::json {
namespace {

// A decimal as 0.DIGITS x 10^exponent, DIGITS without leading or trailing
// zeros (empty for zero), so that two magnitudes compare by exponent, then
// by digits as text.
struct Decimal {
  std::string digits;
  int64_t exponent = 0;
};

// Beyond this an exponent only says "huge" or "tiny"; saturating keeps the
// arithmetic below from overflowing on tokens like 1e99999999999999999999.
constexpr int64_t kExponentLimit = int64_t{1} << 40;

Decimal normalize(std::string_view text) {
  size_t i = 0;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
  std::string digits;
  int64_t integerDigits = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
    digits += text[i];
    ++integerDigits;
  }
  if (i < text.size() && text[i] == '.') {
    for (++i; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) digits += text[i];
  }
  int64_t exponent = 0;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool negative = false;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) negative = text[i++] == '-';
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
      exponent = std::min(exponent * 10 + (text[i] - '0'), kExponentLimit);
    }
    if (negative) exponent = -exponent;
  }
  const size_t leadingZeros = std::min(digits.find_first_not_of('0'), digits.size());
  Decimal d;
  d.digits = digits.substr(leadingZeros);
  d.digits.erase(d.digits.find_last_not_of('0') + 1);
  d.exponent = integerDigits - static_cast<int64_t>(leadingZeros) + exponent;
  return d;
}

// -1, 0, +1: the decimal `token` against the double `value` (>= 0).
int compareTokenWithDouble(std::string_view token, double value) {
  // 160 significant digits spell every double that can be halfway between
  // two binary32 or binary16 values exactly (fmt prints exact digits).
  return compareDecimalMagnitudes(token, fmt::format("{:.160e}", value));
}

// The rounded magnitude, settled from the decimal text when the double is
// exactly halfway; `token()` is only called then.
template <typename TokenFn>
double roundDecimal(double nearest, TokenFn token, BinaryFormat format) {
  const double magnitude = std::fabs(nearest);
  const int side = isHalfway(magnitude, format) ? compareTokenWithDouble(token(), magnitude) : 0;
  return roundMagnitude(magnitude, format, side);
}

template <typename TokenFn>
std::optional<float> toFloat32(double nearest, TokenFn token) {
  const double rounded = roundDecimal(nearest, token, kBinary32);
  if (overflows(rounded, kBinary32)) return std::nullopt;
  const auto magnitude = static_cast<float>(rounded);  // exact
  return std::signbit(nearest) ? -magnitude : magnitude;
}

template <typename TokenFn>
std::optional<uint16_t> toFloat16(double nearest, TokenFn token) {
  const double rounded = roundDecimal(nearest, token, kBinary16);
  if (overflows(rounded, kBinary16)) return std::nullopt;
  return float16FromExactMagnitude(std::signbit(nearest), rounded);
}

std::string integerToken(bool negative, uint64_t magnitude) {
  return fmt::format("{}{}", negative ? "-" : "", magnitude);
}

double signedDouble(bool negative, uint64_t magnitude) {
  const auto d = static_cast<double>(magnitude);
  return negative ? -d : d;
}

// "1" -> "1.0", "-0" -> "-0.0"; leaves "0.5", "1e+30" alone.
std::string withFractionMark(std::string text) {
  if (text.find_first_not_of("-0123456789") == std::string::npos) text += ".0";
  return text;
}

std::optional<std::string> nonFiniteText(double value) {
  if (std::isnan(value)) return "\"NaN\"";
  if (std::isinf(value)) return value < 0 ? "\"-Infinity\"" : "\"Infinity\"";
  return std::nullopt;
}

}  // namespace

int compareDecimalMagnitudes(std::string_view a, std::string_view b) {
  const Decimal x = normalize(a);
  const Decimal y = normalize(b);
  if (x.digits.empty() || y.digits.empty()) {
    return static_cast<int>(!x.digits.empty()) - static_cast<int>(!y.digits.empty());
  }
  if (x.exponent != y.exponent) return x.exponent < y.exponent ? -1 : 1;
  const int c = x.digits.compare(y.digits);
  return (c > 0) - (c < 0);
}

std::optional<float> decimalToFloat32(double nearest, std::string_view token) {
  return toFloat32(nearest, [token] { return token; });
}

std::optional<uint16_t> decimalToFloat16(double nearest, std::string_view token) {
  return toFloat16(nearest, [token] { return token; });
}

std::optional<float> integerToFloat32(bool negative, uint64_t magnitude) {
  return toFloat32(signedDouble(negative, magnitude),
                   [=] { return integerToken(negative, magnitude); });
}

std::optional<uint16_t> integerToFloat16(bool negative, uint64_t magnitude) {
  return toFloat16(signedDouble(negative, magnitude),
                   [=] { return integerToken(negative, magnitude); });
}

std::string formatFloat32(float value) {
  if (auto text = nonFiniteText(value)) return *text;
  // fmt's shortest round-trip digits for a float (not for the wider double).
  return withFractionMark(fmt::format("{}", value));
}

std::string formatFloat16(uint16_t bits) {
  const double value = float16ToFloat(bits);
  if (auto text = nonFiniteText(value)) return *text;
  // Five significant digits always suffice for binary16; take the fewest
  // that read back as the same bits, then let fmt choose the notation.
  for (int precision = 1; precision <= 5; ++precision) {
    const std::string candidate = fmt::format("{:.{}e}", value, precision - 1);
    double nearest = 0;
    std::from_chars(candidate.data(), candidate.data() + candidate.size(), nearest);
    if (decimalToFloat16(nearest, candidate) == bits)
      return withFractionMark(fmt::format("{}", nearest));
  }
  return withFractionMark(fmt::format("{}", value));  // exact; not reached
}

}  // namespace nnfab::json
