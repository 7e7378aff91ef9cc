// isSupported and isParameterInput.
#include <string>

#include "kernel_test_util.h"

namespace nnfab::cpu::test {
namespace {

using OT = OperationType;
using T = OperandType;

// A subgraph holding one operation whose operands have the given types.
struct OneOp {
  Subgraph subgraph;
  Operation operation;
  OneOp(OT type, std::vector<T> inputs, std::vector<T> outputs) {
    operation.type = type;
    for (T t : inputs) {
      operation.inputs.push_back(static_cast<uint32_t>(subgraph.operands.size()));
      subgraph.operands.emplace_back().type = t;
    }
    for (T t : outputs) {
      operation.outputs.push_back(static_cast<uint32_t>(subgraph.operands.size()));
      subgraph.operands.emplace_back().type = t;
    }
  }
  bool supported(std::string* why = nullptr) const { return isSupported(subgraph, operation, why); }
};

bool supported(OT type, std::vector<T> in, std::vector<T> out, std::string* why = nullptr) {
  return OneOp(type, std::move(in), std::move(out)).supported(why);
}

TEST(IsSupported, Arithmetic) {
  for (OT op : {OT::ADD, OT::SUB, OT::MUL, OT::DIV}) {
    EXPECT_TRUE(supported(op, {T::TENSOR_FLOAT32, T::TENSOR_FLOAT32, T::INT32}, {T::TENSOR_FLOAT32}));
    EXPECT_TRUE(supported(op, {T::TENSOR_INT32, T::TENSOR_INT32, T::INT32}, {T::TENSOR_INT32}));
    EXPECT_FALSE(supported(op, {T::TENSOR_BOOL8, T::TENSOR_BOOL8, T::INT32}, {T::TENSOR_BOOL8}));
    EXPECT_FALSE(supported(op, {T::TENSOR_QUANT8_ASYMM, T::TENSOR_QUANT8_ASYMM, T::INT32},
                           {T::TENSOR_QUANT8_ASYMM}));
    EXPECT_FALSE(supported(op, {T::TENSOR_FLOAT32, T::TENSOR_INT32, T::INT32}, {T::TENSOR_FLOAT32}));
    EXPECT_FALSE(supported(op, {T::TENSOR_FLOAT32, T::TENSOR_FLOAT32, T::INT32}, {T::TENSOR_INT32}));
    EXPECT_FALSE(supported(op, {T::TENSOR_FLOAT32, T::TENSOR_FLOAT32}, {T::TENSOR_FLOAT32}));
  }
  std::string why;
  EXPECT_FALSE(supported(OT::ADD, {T::TENSOR_FLOAT16, T::TENSOR_FLOAT16, T::INT32},
                         {T::TENSOR_FLOAT16}, &why));
  EXPECT_EQ(why, "ADD on TENSOR_FLOAT16 is not supported by the CPU executor");
}

TEST(IsSupported, ElementwiseFamilies) {
  for (OT op : {OT::MAXIMUM, OT::MINIMUM}) {
    EXPECT_TRUE(supported(op, {T::TENSOR_FLOAT32, T::TENSOR_FLOAT32}, {T::TENSOR_FLOAT32}));
    EXPECT_TRUE(supported(op, {T::TENSOR_INT32, T::TENSOR_INT32}, {T::TENSOR_INT32}));
    EXPECT_FALSE(supported(op, {T::TENSOR_BOOL8, T::TENSOR_BOOL8}, {T::TENSOR_BOOL8}));
    EXPECT_FALSE(supported(op, {T::TENSOR_FLOAT16, T::TENSOR_FLOAT16}, {T::TENSOR_FLOAT16}));
  }
  for (OT op : {OT::ABS, OT::NEG}) {
    EXPECT_TRUE(supported(op, {T::TENSOR_FLOAT32}, {T::TENSOR_FLOAT32}));
    EXPECT_TRUE(supported(op, {T::TENSOR_INT32}, {T::TENSOR_INT32}));
    EXPECT_FALSE(supported(op, {T::TENSOR_INT32}, {T::TENSOR_FLOAT32}));
    EXPECT_FALSE(supported(op, {T::TENSOR_BOOL8}, {T::TENSOR_BOOL8}));
  }
  for (OT op : {OT::LESS, OT::LESS_EQUAL, OT::GREATER, OT::GREATER_EQUAL, OT::EQUAL, OT::NOT_EQUAL}) {
    for (T t : {T::TENSOR_FLOAT32, T::TENSOR_INT32, T::TENSOR_BOOL8}) {
      EXPECT_TRUE(supported(op, {t, t}, {T::TENSOR_BOOL8})) << toString(op) << toString(t);
      EXPECT_FALSE(supported(op, {t, t}, {t == T::TENSOR_INT32 ? T::TENSOR_FLOAT32 : T::TENSOR_INT32}));
    }
    EXPECT_FALSE(supported(op, {T::TENSOR_FLOAT32, T::TENSOR_INT32}, {T::TENSOR_BOOL8}));
    EXPECT_FALSE(supported(op, {T::TENSOR_QUANT8_ASYMM, T::TENSOR_QUANT8_ASYMM}, {T::TENSOR_BOOL8}));
  }
  for (OT op : {OT::LOGICAL_AND, OT::LOGICAL_OR}) {
    EXPECT_TRUE(supported(op, {T::TENSOR_BOOL8, T::TENSOR_BOOL8}, {T::TENSOR_BOOL8}));
    EXPECT_FALSE(supported(op, {T::TENSOR_INT32, T::TENSOR_INT32}, {T::TENSOR_BOOL8}));
  }
  EXPECT_TRUE(supported(OT::LOGICAL_NOT, {T::TENSOR_BOOL8}, {T::TENSOR_BOOL8}));
  EXPECT_FALSE(supported(OT::LOGICAL_NOT, {T::TENSOR_FLOAT32}, {T::TENSOR_BOOL8}));
}

TEST(IsSupported, SelectCastReshapeFullyConnected) {
  EXPECT_TRUE(supported(OT::SELECT, {T::TENSOR_BOOL8, T::TENSOR_FLOAT32, T::TENSOR_FLOAT32},
                        {T::TENSOR_FLOAT32}));
  EXPECT_TRUE(supported(OT::SELECT, {T::TENSOR_BOOL8, T::TENSOR_INT32, T::TENSOR_INT32},
                        {T::TENSOR_INT32}));
  EXPECT_FALSE(supported(OT::SELECT, {T::TENSOR_BOOL8, T::TENSOR_BOOL8, T::TENSOR_BOOL8},
                         {T::TENSOR_BOOL8}));
  EXPECT_FALSE(supported(OT::SELECT, {T::TENSOR_INT32, T::TENSOR_INT32, T::TENSOR_INT32},
                         {T::TENSOR_INT32}));
  EXPECT_FALSE(supported(OT::SELECT, {T::TENSOR_BOOL8, T::TENSOR_INT32, T::TENSOR_FLOAT32},
                         {T::TENSOR_INT32}));

  EXPECT_TRUE(supported(OT::CAST, {T::TENSOR_FLOAT32}, {T::TENSOR_INT32}));
  EXPECT_TRUE(supported(OT::CAST, {T::TENSOR_INT32}, {T::TENSOR_FLOAT32}));
  EXPECT_TRUE(supported(OT::CAST, {T::TENSOR_FLOAT32}, {T::TENSOR_FLOAT32}));
  EXPECT_TRUE(supported(OT::CAST, {T::TENSOR_INT32}, {T::TENSOR_INT32}));
  EXPECT_TRUE(supported(OT::CAST, {T::TENSOR_BOOL8}, {T::TENSOR_BOOL8}));
  EXPECT_FALSE(supported(OT::CAST, {T::TENSOR_BOOL8}, {T::TENSOR_INT32}));
  EXPECT_FALSE(supported(OT::CAST, {T::TENSOR_FLOAT32}, {T::TENSOR_BOOL8}));
  EXPECT_FALSE(supported(OT::CAST, {T::TENSOR_FLOAT16}, {T::TENSOR_FLOAT32}));
  EXPECT_FALSE(supported(OT::CAST, {T::TENSOR_QUANT8_ASYMM}, {T::TENSOR_QUANT8_ASYMM}));

  EXPECT_TRUE(supported(OT::RESHAPE, {T::TENSOR_FLOAT32, T::TENSOR_INT32}, {T::TENSOR_FLOAT32}));
  EXPECT_FALSE(supported(OT::RESHAPE, {T::TENSOR_INT32, T::TENSOR_INT32}, {T::TENSOR_INT32}));
  EXPECT_FALSE(supported(OT::RESHAPE, {T::TENSOR_FLOAT32, T::TENSOR_FLOAT32}, {T::TENSOR_FLOAT32}));

  EXPECT_TRUE(supported(OT::FULLY_CONNECTED,
                        {T::TENSOR_FLOAT32, T::TENSOR_FLOAT32, T::TENSOR_FLOAT32, T::INT32},
                        {T::TENSOR_FLOAT32}));
  EXPECT_FALSE(supported(OT::FULLY_CONNECTED,
                         {T::TENSOR_INT32, T::TENSOR_INT32, T::TENSOR_INT32, T::INT32},
                         {T::TENSOR_INT32}));
  EXPECT_FALSE(supported(OT::FULLY_CONNECTED,
                         {T::TENSOR_QUANT8_ASYMM, T::TENSOR_QUANT8_ASYMM, T::TENSOR_INT32, T::INT32},
                         {T::TENSOR_QUANT8_ASYMM}));
}

TEST(IsSupported, OtherOperationsAndControlFlow) {
  std::string why;
  EXPECT_FALSE(supported(OT::CONV_2D, {T::TENSOR_FLOAT32}, {T::TENSOR_FLOAT32}, &why));
  EXPECT_EQ(why, "CONV_2D is not supported by the CPU executor");
  why.clear();
  EXPECT_FALSE(supported(OT::WHILE, {T::SUBGRAPH, T::SUBGRAPH}, {T::TENSOR_FLOAT32}, &why));
  EXPECT_NE(why.find("WHILE"), std::string::npos);
  EXPECT_FALSE(supported(OT::IF, {T::BOOL, T::SUBGRAPH, T::SUBGRAPH}, {T::TENSOR_FLOAT32}, &why));
  EXPECT_FALSE(supported(OT::SQRT, {T::TENSOR_FLOAT32}, {T::TENSOR_FLOAT32}));
  // A null `why` is fine.
  EXPECT_FALSE(supported(OT::FILL, {T::TENSOR_INT32, T::INT32}, {T::TENSOR_INT32}));
  // Broken operand indexes do not crash.
  OneOp broken(OT::ADD, {T::TENSOR_FLOAT32, T::TENSOR_FLOAT32, T::INT32}, {T::TENSOR_FLOAT32});
  broken.operation.inputs[1] = 99;
  EXPECT_FALSE(broken.supported(&why));
  // Every unsupported answer explains itself.
  for (int32_t code = 0; code < kNumberOfOperationTypes; ++code) {
    OneOp op(static_cast<OT>(code), {T::TENSOR_FLOAT16}, {T::TENSOR_FLOAT16});
    why.clear();
    EXPECT_FALSE(op.supported(&why));
    EXPECT_FALSE(why.empty()) << code;
  }
}

TEST(IsParameterInput, Answers) {
  for (OT op : {OT::ADD, OT::SUB, OT::MUL, OT::DIV}) {
    EXPECT_FALSE(isParameterInput(op, 0));
    EXPECT_FALSE(isParameterInput(op, 1));
    EXPECT_TRUE(isParameterInput(op, 2));
  }
  EXPECT_TRUE(isParameterInput(OT::FULLY_CONNECTED, 3));
  for (size_t i : {0, 1, 2}) EXPECT_FALSE(isParameterInput(OT::FULLY_CONNECTED, i));
  EXPECT_TRUE(isParameterInput(OT::RESHAPE, 1));
  EXPECT_FALSE(isParameterInput(OT::RESHAPE, 0));
  for (OT op : {OT::CAST, OT::SELECT, OT::LESS, OT::LOGICAL_NOT, OT::MAXIMUM, OT::ABS, OT::NEG}) {
    for (size_t i = 0; i < 4; ++i) EXPECT_FALSE(isParameterInput(op, i)) << toString(op);
  }
}

TEST(PrepareKernel, UnknownOperationFails) {
  EXPECT_FAILS(run(OT::CONV_2D, {f32({1}, {1})}));
  EXPECT_FAILS(run(OT::WHILE, {f32({1}, {1})}));
}

}  // namespace
}  // namespace nnfab::cpu::test
