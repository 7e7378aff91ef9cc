// Element-wise kernels: the per-element operations, the loops that apply them
// along a BroadcastPlan, and PreparedKernel classes specialised on the plan's
// kind, so that run() contains only the loop it needs (a one-element ADD is a
// load, an add and a store behind one virtual call).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>

#include "cpu/kernels/broadcast.h"
#include "isa/int32_semantics.h"
#include "cpu/kernels/kernel.h"
#include "cpu/kernels/kernel_util.h"

namespace nnfab::cpu {

// Per-element operations: `apply` on the input element type(s); the result
// is converted to the output element type.
namespace ops {

struct Add {
  static float apply(float a, float b) { return a + b; }
  static int32_t apply(int32_t a, int32_t b) { return int32_math::wrapAdd(a, b); }
};
struct Sub {
  static float apply(float a, float b) { return a - b; }
  static int32_t apply(int32_t a, int32_t b) { return int32_math::wrapSub(a, b); }
};
struct Mul {
  static float apply(float a, float b) { return a * b; }
  static int32_t apply(int32_t a, int32_t b) { return int32_math::wrapMul(a, b); }
};
struct Div {
  static float apply(float a, float b) { return a / b; }  // IEEE: x/0 = ±inf or NaN
  static int32_t apply(int32_t a, int32_t b) { return int32_math::floorDiv(a, b); }
};
// Exactly NNAPI's reference std::max / std::min (first argument unless the
// second compares strictly greater / smaller): with a NaN the result is the
// first argument, so MAXIMUM(NaN, 1) = NaN but MAXIMUM(1, NaN) = 1, and
// MAXIMUM(-0, +0) = -0.
struct Max {
  template <typename T>
  static T apply(T a, T b) { return std::max(a, b); }
};
struct Min {
  template <typename T>
  static T apply(T a, T b) { return std::min(a, b); }
};

// Comparisons: IEEE for floats (anything with NaN is false except NOT_EQUAL),
// signed for INT32, raw unsigned bytes for BOOL8.
struct Less {
  template <typename T>
  static uint8_t apply(T a, T b) { return a < b; }
};
struct LessEqual {
  template <typename T>
  static uint8_t apply(T a, T b) { return a <= b; }
};
struct Greater {
  template <typename T>
  static uint8_t apply(T a, T b) { return a > b; }
};
struct GreaterEqual {
  template <typename T>
  static uint8_t apply(T a, T b) { return a >= b; }
};
struct Equal {
  template <typename T>
  static uint8_t apply(T a, T b) { return a == b; }
};
struct NotEqual {
  template <typename T>
  static uint8_t apply(T a, T b) { return a != b; }
};

// BOOL8: any non-zero byte is true; results are exactly 0 or 1.
struct LogicalAnd {
  static uint8_t apply(uint8_t a, uint8_t b) { return (a != 0) & (b != 0); }
};
struct LogicalOr {
  static uint8_t apply(uint8_t a, uint8_t b) { return (a != 0) | (b != 0); }
};

// Unary operations (ABS, NEG: INT32_MIN wraps to itself, float only flips
// the sign bit; LOGICAL_NOT on BOOL8; CAST between FLOAT32 and INT32, see
// cast.cpp for its rounding and saturation).
struct Abs {
  static float apply(float x) { return std::fabs(x); }
  static int32_t apply(int32_t x) { return int32_math::wrapAbs(x); }
};
struct Neg {
  static float apply(float x) { return -x; }
  static int32_t apply(int32_t x) { return int32_math::wrapNeg(x); }
};
struct LogicalNot {
  static uint8_t apply(uint8_t x) { return x == 0; }
};
struct FloatToInt32 {
  static int32_t apply(float x) { return int32_math::saturatingFloatToInt32(x); }
};
struct Int32ToFloat {
  static float apply(int32_t x) { return static_cast<float>(x); }
};

// Fused activations (docs/nnapi-semantics.md §1.4) with std::max/std::min argument order, so a
// NaN passes through unchanged. NONE is the identity (±inf stay ±inf).
struct ActNone {
  static float apply(float x) { return x; }
};
struct ActRelu {
  static float apply(float x) { return std::max(x, 0.0f); }
};
struct ActRelu1 {
  static float apply(float x) { return std::min(std::max(x, -1.0f), 1.0f); }
};
struct ActRelu6 {
  static float apply(float x) { return std::min(std::max(x, 0.0f), 6.0f); }
};
template <typename Op, typename Act>
struct Activated {
  static float apply(float a, float b) { return Act::apply(Op::apply(a, b)); }
};

}  // namespace ops

// Inner loops. Inputs may alias each other but never the output (kernel.h),
// hence __restrict on the output only.
template <typename Op, typename In, typename Out>
inline void loopContiguous(const uint8_t* a, const uint8_t* b, uint8_t* __restrict out, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    store<Out>(out, i, static_cast<Out>(Op::apply(load<In>(a, i), load<In>(b, i))));
  }
}
template <typename Op, typename In, typename Out>
inline void loopScalarA(In a, const uint8_t* b, uint8_t* __restrict out, size_t n) {
  for (size_t i = 0; i < n; ++i) store<Out>(out, i, static_cast<Out>(Op::apply(a, load<In>(b, i))));
}
template <typename Op, typename In, typename Out>
inline void loopScalarB(const uint8_t* a, In b, uint8_t* __restrict out, size_t n) {
  for (size_t i = 0; i < n; ++i) store<Out>(out, i, static_cast<Out>(Op::apply(load<In>(a, i), b)));
}
template <typename Op, typename In, typename Out>
inline void loopStrided(const uint8_t* a, size_t sa, const uint8_t* b, size_t sb,
                        uint8_t* __restrict out, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    store<Out>(out, i, static_cast<Out>(Op::apply(load<In>(a, i * sa), load<In>(b, i * sb))));
  }
}

template <typename Op, typename In, typename Out, BroadcastKind K>
class BinaryKernel final : public PreparedKernel {
 public:
  explicit BinaryKernel(BroadcastPlan plan) : plan_(std::move(plan)) {}

  void run(const uint8_t* const* in, uint8_t* const* out) const override {
    const uint8_t* a = in[0];
    const uint8_t* b = in[1];
    uint8_t* o = out[0];
    if constexpr (K == BroadcastKind::Single) {
      store<Out>(o, 0, static_cast<Out>(Op::apply(load<In>(a, 0), load<In>(b, 0))));
    } else if constexpr (K == BroadcastKind::Flat) {
      loopContiguous<Op, In, Out>(a, b, o, plan_.count);
    } else if constexpr (K == BroadcastKind::ScalarA) {
      loopScalarA<Op, In, Out>(load<In>(a, 0), b, o, plan_.count);
    } else if constexpr (K == BroadcastKind::ScalarB) {
      loopScalarB<Op, In, Out>(a, load<In>(b, 0), o, plan_.count);
    } else {
      static_assert(K == BroadcastKind::General);
      general(0, a, b, o);
    }
  }

 private:
  // Walks dimension d; returns the output position after it. Recursion
  // depth is the plan's (collapsed) rank, so no index scratch is needed.
  uint8_t* general(size_t d, const uint8_t* a, const uint8_t* b, uint8_t* o) const {
    const size_t n = plan_.dims[d];
    const size_t sa = plan_.strideA[d] * sizeof(In);
    const size_t sb = plan_.strideB[d] * sizeof(In);
    if (d + 1 < plan_.dims.size()) {
      for (size_t i = 0; i < n; ++i) o = general(d + 1, a + i * sa, b + i * sb, o);
      return o;
    }
    switch (plan_.inner) {
      case InnerKind::Contiguous:
        loopContiguous<Op, In, Out>(a, b, o, n);
        break;
      case InnerKind::ScalarA:
        loopScalarA<Op, In, Out>(load<In>(a, 0), b, o, n);
        break;
      case InnerKind::ScalarB:
        loopScalarB<Op, In, Out>(a, load<In>(b, 0), o, n);
        break;
      case InnerKind::Strided:
        loopStrided<Op, In, Out>(a, plan_.strideA[d], b, plan_.strideB[d], o, n);
        break;
    }
    return o + n * sizeof(Out);
  }

  BroadcastPlan plan_;
};

template <typename Op, typename In, typename Out>
std::unique_ptr<PreparedKernel> makeBinaryKernel(BroadcastPlan plan) {
  switch (plan.kind) {
    case BroadcastKind::Empty:
      return std::make_unique<NoopKernel>();
    case BroadcastKind::Single:
      return std::make_unique<BinaryKernel<Op, In, Out, BroadcastKind::Single>>(std::move(plan));
    case BroadcastKind::Flat:
      return std::make_unique<BinaryKernel<Op, In, Out, BroadcastKind::Flat>>(std::move(plan));
    case BroadcastKind::ScalarA:
      return std::make_unique<BinaryKernel<Op, In, Out, BroadcastKind::ScalarA>>(std::move(plan));
    case BroadcastKind::ScalarB:
      return std::make_unique<BinaryKernel<Op, In, Out, BroadcastKind::ScalarB>>(std::move(plan));
    case BroadcastKind::General:
      break;
  }
  return std::make_unique<BinaryKernel<Op, In, Out, BroadcastKind::General>>(std::move(plan));
}

// out[i] = Op::apply(in[i]) over `count` elements of input 0.
template <typename Op, typename In, typename Out>
class UnaryKernel final : public PreparedKernel {
 public:
  explicit UnaryKernel(size_t count) : count_(count) {}
  void run(const uint8_t* const* in, uint8_t* const* out) const override {
    const uint8_t* a = in[0];
    uint8_t* __restrict o = out[0];
    for (size_t i = 0; i < count_; ++i) store<Out>(o, i, static_cast<Out>(Op::apply(load<In>(a, i))));
  }

 private:
  size_t count_;
};

}  // namespace nnfab::cpu
