// Test helpers: build kernel inputs from typed vectors, prepare and run an
// operation, and read its output back. The output buffer has guard bytes on
// both sides (an overrun fails the test), and every kernel is run twice to
// check that run() depends on nothing but its inputs.
#pragma once

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

#include "cpu/kernels/kernel.h"
#include "model/model.h"
#include "model/status.h"

namespace nnfab::cpu::test {

struct Tensor {
  OperandType type = OperandType::TENSOR_FLOAT32;
  Dimensions dims;
  std::vector<uint8_t> bytes;
  bool noValue = false;  // pass data == nullptr

  template <typename E>
  static Tensor of(OperandType type, Dimensions dims, const std::vector<E>& values) {
    Tensor t{type, std::move(dims), std::vector<uint8_t>(values.size() * sizeof(E))};
    if (!values.empty()) std::memcpy(t.bytes.data(), values.data(), t.bytes.size());
    return t;
  }
};

inline Tensor f32(Dimensions dims, const std::vector<float>& v) {
  return Tensor::of(OperandType::TENSOR_FLOAT32, std::move(dims), v);
}
inline Tensor i32(Dimensions dims, const std::vector<int32_t>& v) {
  return Tensor::of(OperandType::TENSOR_INT32, std::move(dims), v);
}
inline Tensor b8(Dimensions dims, const std::vector<uint8_t>& v) {
  return Tensor::of(OperandType::TENSOR_BOOL8, std::move(dims), v);
}
inline Tensor scalar(int32_t v) {
  return Tensor::of(OperandType::INT32, {}, std::vector<int32_t>{v});
}

struct Outcome {
  Status status;
  OutputShape shape;
  std::vector<uint8_t> bytes;

  template <typename E>
  std::vector<E> values() const {
    std::vector<E> v(bytes.size() / sizeof(E));
    if (!v.empty()) std::memcpy(v.data(), bytes.data(), v.size() * sizeof(E));
    return v;
  }
  std::vector<float> f32() const { return values<float>(); }
  std::vector<int32_t> i32() const { return values<int32_t>(); }
  std::vector<uint8_t> b8() const { return values<uint8_t>(); }
};

// Prepares `type` on `inputs` (declared output type `declared`) and runs it.
// misalign: place every buffer at an odd address (kernels must not assume
// alignment).
inline Outcome run(OperationType type, const std::vector<Tensor>& inputs,
                   OperandType declared = OperandType::TENSOR_FLOAT32, bool misalign = false) {
  const size_t shift = misalign ? 1 : 0;
  std::vector<std::vector<uint8_t>> storage;
  std::vector<TensorArg> args;
  for (const Tensor& t : inputs) {
    storage.emplace_back(t.bytes.size() + shift + 1);
    if (!t.bytes.empty()) std::memcpy(storage.back().data() + shift, t.bytes.data(), t.bytes.size());
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Tensor& t = inputs[i];
    TensorArg a;
    a.type = t.type;
    a.dims = t.dims;
    a.data = t.noValue ? nullptr : storage[i].data() + shift;
    a.bytes = t.noValue ? 0 : t.bytes.size();
    args.push_back(a);
  }
  Outcome r;
  std::vector<OutputShape> outs(1);
  outs[0].type = declared;
  std::unique_ptr<PreparedKernel> kernel;
  r.status = prepareKernel(type, args, outs, &kernel);
  r.shape = outs[0];
  if (!r.status) return r;
  EXPECT_NE(kernel, nullptr);
  if (!kernel) return r;
  std::optional<uint64_t> count = elementCount(r.shape.dims);
  EXPECT_TRUE(count.has_value());
  if (!count) return r;
  const size_t bytes = static_cast<size_t>(*count) * sizeOfElement(r.shape.type);
  constexpr size_t kGuard = 16;
  constexpr uint8_t kPoison = 0xA5;
  std::vector<const uint8_t*> inPtrs;
  for (const TensorArg& a : args) inPtrs.push_back(a.data);
  for (int pass = 0; pass < 2; ++pass) {
    std::vector<uint8_t> out(bytes + 2 * kGuard + shift, kPoison);
    uint8_t* outPtr = out.data() + kGuard + shift;
    kernel->run(inPtrs.data(), &outPtr);
    for (size_t i = 0; i < kGuard + shift; ++i) EXPECT_EQ(out[i], kPoison) << "underrun at " << i;
    for (size_t i = 0; i < kGuard; ++i) EXPECT_EQ(out[kGuard + shift + bytes + i], kPoison) << "overrun";
    std::vector<uint8_t> result(outPtr, outPtr + bytes);
    if (pass == 1) {
      EXPECT_EQ(result, r.bytes) << "second run differs";
    }
    r.bytes = std::move(result);
  }
  return r;
}

// Bit patterns, so that NaN == NaN and -0 != +0 in comparisons.
inline std::vector<uint32_t> bits(const std::vector<float>& v) {
  std::vector<uint32_t> b;
  for (float f : v) b.push_back(std::bit_cast<uint32_t>(f));
  return b;
}

#define EXPECT_OK(outcome) EXPECT_TRUE((outcome).status.isOk()) << (outcome).status.message()
#define EXPECT_FAILS(outcome)                                                     \
  do {                                                                            \
    const auto& o_ = (outcome);                                                   \
    EXPECT_EQ(o_.status.code(), ErrorStatus::GENERAL_FAILURE) << "expected failure"; \
    EXPECT_FALSE(o_.status.message().empty());                                    \
  } while (0)

}  // namespace nnfab::cpu::test
