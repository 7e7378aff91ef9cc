// NNAPI broadcasting (docs/nnapi-semantics.md §2.1): the output shape of two inputs, and a plan
// that tells an element-wise kernel how to walk them. The plan picks the
// cheapest loop once, in prepare, so that run() only executes it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "cpu/kernels/kernel.h"
#include "model/model.h"
#include "model/status.h"

namespace nnfab::cpu {

// Trailing-aligned broadcast of a and b; missing leading dimensions count as
// 1; per position the sizes must be equal or one must be 1 (so 0 broadcasts
// only against 0 or 1). GENERAL_FAILURE when incompatible.
Status broadcastShape(std::span<const uint32_t> a, std::span<const uint32_t> b, Dimensions* out);

enum class BroadcastKind {
  Empty,    // the output has no elements: nothing to do
  Single,   // one output element from one element of each input
  Flat,     // identical layouts: out[i] = f(a[i], b[i])
  ScalarA,  // a has one element: out[i] = f(a[0], b[i])
  ScalarB,  // b has one element: out[i] = f(a[i], b[0])
  General,  // nested loops over dims with per-input strides
};

// How the innermost loop of a General plan reads its inputs.
enum class InnerKind {
  Contiguous,  // both inputs advance by 1
  ScalarA,     // a is repeated (stride 0), b advances by 1
  ScalarB,     // a advances by 1, b is repeated
  Strided,     // arbitrary strides (only in forced-general plans)
};

struct BroadcastPlan {
  BroadcastKind kind = BroadcastKind::Empty;
  size_t count = 0;  // output elements
  // General only, outermost first; strides count elements (0 = broadcast).
  // The output is contiguous in this same order.
  InnerKind inner = InnerKind::Contiguous;
  std::vector<size_t> dims;
  std::vector<size_t> strideA;
  std::vector<size_t> strideB;
};

// Plans out = f(a, b) for shapes already known to broadcast to `out`.
// Without forceGeneral it collapses dimensions of size 1 and merges adjacent
// dimensions that broadcast alike, and picks a fast kind when one applies.
// forceGeneral builds the plain, uncollapsed General plan (Strided inner
// loop): the tests compare it against the fast paths.
BroadcastPlan makeBroadcastPlan(std::span<const uint32_t> a, std::span<const uint32_t> b,
                                std::span<const uint32_t> out, bool forceGeneral = false);

// Output shape and plan of a broadcasting binary operation on inputs a and b
// (already checked by checkInputs): fails on incompatible or too large
// shapes, else writes *out with type outType and the broadcast dimensions.
Status prepareBroadcastOutput(const TensorArg& a, const TensorArg& b, OperandType outType,
                              OutputShape* out, BroadcastPlan* plan);

}  // namespace nnfab::cpu
