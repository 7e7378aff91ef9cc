// nnfab's definition of the INT32 arithmetic NNAPI leaves unspecified
// (overflow, INT32_MIN / -1, x / 0) and of float -> int32 conversion outside
// the int32 range. The CPU kernels and the HLS core both compute with these
// functions and the RTL is tested against them, so every device agrees bit
// for bit. Kept to C++14 (Vitis HLS reads it) and free of vendor headers.
//
// Everything is computed in uint32_t (modular by definition), never in signed
// arithmetic that could overflow (C++ UB) or trap (x86 SIGFPE on
// INT32_MIN / -1). uint32_t -> int32_t conversion is modular since C++20 and
// on every compiler we target before it.
#pragma once

#include <cstdint>
#include <limits>

namespace nnfab {
namespace int32_math {

constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
constexpr int32_t kMax = std::numeric_limits<int32_t>::max();

// Two's-complement wrap-around (modulo 2^32).
constexpr int32_t wrapAdd(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}
constexpr int32_t wrapSub(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) - static_cast<uint32_t>(b));
}
constexpr int32_t wrapMul(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) * static_cast<uint32_t>(b));
}
// NEG(INT32_MIN) = INT32_MIN.
constexpr int32_t wrapNeg(int32_t a) { return static_cast<int32_t>(0u - static_cast<uint32_t>(a)); }
// ABS(INT32_MIN) = INT32_MIN (the only negative result).
constexpr int32_t wrapAbs(int32_t a) { return a < 0 ? wrapNeg(a) : a; }

// NNAPI's INT32 DIV: floor division (rounds toward -infinity, Python's //),
// plus nnfab's definitions of the cases NNAPI leaves open:
// x / 0 = 0 (as NNAPI's reference does) and INT32_MIN / -1 = INT32_MIN (the
// wrapped quotient; the native instruction would trap).
constexpr int32_t floorDiv(int32_t a, int32_t b) {
  if (b == 0) return 0;
  if (b == -1) return wrapNeg(a);  // the only quotient that can overflow
  int32_t q = a / b;                 // truncates toward zero
  const int32_t r = a % b;
  // Truncation rounded up when the exact quotient is negative and inexact.
  if (r != 0 && ((r < 0) != (b < 0))) --q;
  return q;
}

// CAST TENSOR_FLOAT32 -> TENSOR_INT32. NNAPI uses a C++ static_cast, which
// truncates toward zero and is undefined for NaN and values outside the
// int32 range; nnfab defines those: NaN -> 0, values >= 2^31 (incl. +inf) ->
// INT32_MAX, values < -2^31 (incl. -inf) -> INT32_MIN.
constexpr int32_t saturatingFloatToInt32(float x) {
  if (x != x) return 0;                      // NaN
  if (x >= 2147483648.0f) return kMax;       // 2^31 is exact in float
  if (x < -2147483648.0f) return kMin;       // -2^31 itself is in range
  return static_cast<int32_t>(x);            // truncation toward zero
}

}  // namespace int32_math
}  // namespace nnfab
