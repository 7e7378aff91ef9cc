// JSON number text <-> FLOAT32 / FLOAT16 values, both directions exact.
// Reading: nlohmann hands over the double nearest to the token; rounding that
// double again to a float can go wrong only when it lands exactly halfway
// between two floats, so that one case is settled from the token's digits
// (double rounding would otherwise turn e.g. 1.00048828125000001 into the
// wrong FLOAT16). Writing: the shortest text that reads back as the same
// value; NaN and infinities are the strings "NaN", "Infinity", "-Infinity".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace nnfab::json {

// `nearest` is the double nearest to the decimal `token` (a JSON number).
// nullopt when the value is beyond the type's range (would round to infinity).
std::optional<float> decimalToFloat32(double nearest, std::string_view token);
std::optional<uint16_t> decimalToFloat16(double nearest, std::string_view token);

// The same for a JSON integer token that fits 64 bits (magnitude and sign).
std::optional<float> integerToFloat32(bool negative, uint64_t magnitude);
std::optional<uint16_t> integerToFloat16(bool negative, uint64_t magnitude);

// Compares the magnitudes of two decimal numbers written in JSON number
// syntax (also accepting a leading '+' in the exponent): -1, 0 or +1.
int compareDecimalMagnitudes(std::string_view a, std::string_view b);

// JSON text for a value: "0.1", "1.0", "-0.0", "1e+30", "\"NaN\"", ...
// Integral values get ".0" so that they read as floats to a person.
std::string formatFloat32(float value);
std::string formatFloat16(uint16_t bits);

}  // namespace nnfab::json
