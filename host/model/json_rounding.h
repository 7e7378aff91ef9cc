// Rounding a double to a narrower IEEE binary format (binary32, binary16),
// to nearest with ties to even. Everything is computed in doubles: for these
// formats every grid point and every midpoint between two grid points is
// exactly representable as a double, so the arithmetic below is exact.
#pragma once

namespace nnfab::json {

struct BinaryFormat {
  int precision;    // significand bits, including the implicit one
  int minExponent;  // exponent of the smallest normal number
  int maxExponent;  // exponent of the largest finite number
};
inline constexpr BinaryFormat kBinary32{24, -126, 127};
inline constexpr BinaryFormat kBinary16{11, -14, 15};

// True when the finite `magnitude` (>= 0) lies exactly halfway between two
// neighbouring values of the format: then only the value it stands for (a
// decimal that was rounded to this double) decides the direction.
bool isHalfway(double magnitude, BinaryFormat format);

// Rounds the finite `magnitude` (>= 0) to the format. `trueVsMagnitude`
// (-1, 0, +1) says whether the value it stands for is below, equal to or
// above it; it is consulted only when isHalfway(). The result is exact;
// overflows(result) means it rounds to infinity.
double roundMagnitude(double magnitude, BinaryFormat format, int trueVsMagnitude = 0);
bool overflows(double rounded, BinaryFormat format);

}  // namespace nnfab::json
