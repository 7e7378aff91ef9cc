#include "model/json_rounding.h"

#include <algorithm>
#include <cmath>

namespace nnfab::json {
namespace {

// The grid spacing around `magnitude` and the grid point at or below it.
struct Bracket {
  double below;
  double ulp;
};

Bracket bracket(double magnitude, BinaryFormat format) {
  const int exponent =
      magnitude == 0 ? format.minExponent : std::max(std::ilogb(magnitude), format.minExponent);
  const double ulp = std::ldexp(1.0, exponent - (format.precision - 1));
  // Dividing and multiplying by a power of two is exact, and so is floor.
  return {std::floor(magnitude / ulp) * ulp, ulp};
}

}  // namespace

bool isHalfway(double magnitude, BinaryFormat format) {
  const Bracket b = bracket(magnitude, format);
  return magnitude - b.below == b.ulp / 2;
}

double roundMagnitude(double magnitude, BinaryFormat format, int trueVsMagnitude) {
  const Bracket b = bracket(magnitude, format);
  const double above = b.below + b.ulp;
  const double offset = magnitude - b.below;  // exact: both lie in one binade
  if (offset < b.ulp / 2) return b.below;
  if (offset > b.ulp / 2) return above;
  if (trueVsMagnitude < 0) return b.below;
  if (trueVsMagnitude > 0) return above;
  const bool belowIsEven = std::fmod(b.below / b.ulp, 2.0) == 0;
  return belowIsEven ? b.below : above;
}

bool overflows(double rounded, BinaryFormat format) {
  return rounded >= std::ldexp(1.0, format.maxExponent + 1);
}

}  // namespace nnfab::json
