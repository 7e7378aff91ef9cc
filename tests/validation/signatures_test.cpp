// §2: operand counts and types of nnfab's operations.
#include "validation/model_builder.h"

namespace nnfab::test {
namespace {

constexpr Op kArithmetic[] = {Op::ADD, Op::SUB, Op::MUL, Op::DIV};
constexpr Op kComparisons[] = {Op::EQUAL,      Op::NOT_EQUAL, Op::LESS,
                               Op::LESS_EQUAL, Op::GREATER,   Op::GREATER_EQUAL};

std::string name(Op op, T type) {
  return std::string(toString(op)) + " on " + std::string(toString(type));
}

TEST(ValidateSignatures, ArithmeticTypeLists) {
  const T allowed[] = {T::TENSOR_FLOAT32, T::TENSOR_FLOAT16, T::TENSOR_QUANT8_ASYMM,
                       T::TENSOR_QUANT8_ASYMM_SIGNED, T::TENSOR_INT32};
  for (Op op : kArithmetic) {
    for (T type : allowed) {
      SCOPED_TRACE(name(op, type));
      const bool quantDiv = op == Op::DIV && isQuantizedType(type);
      Model model = arithmeticModel(op, type);
      if (op == Op::MUL && type == T::TENSOR_QUANT8_ASYMM) model.main.operands[3].scale = 2.0f;
      if (quantDiv) {
        EXPECT_TRUE(isInvalid(model, {"operation 0 (DIV), input 0 (operand 0)", "unsupported type",
                                      "(allowed: TENSOR_FLOAT32, "
                                      "TENSOR_FLOAT16, TENSOR_INT32)"}));
      } else {
        EXPECT_TRUE(isValid(model));
      }
    }
    for (T type : {T::TENSOR_BOOL8, T::TENSOR_QUANT16_SYMM, T::TENSOR_QUANT8_SYMM}) {
      SCOPED_TRACE(name(op, type));
      EXPECT_TRUE(isInvalid(arithmeticModel(op, type), {"input 0", "unsupported type"}));
    }
  }
}

TEST(ValidateSignatures, ArithmeticOperandsAndCounts) {
  Model model = singleOp(Op::ADD, {tensor(T::TENSOR_FLOAT32, {2}), tensor(T::TENSOR_FLOAT32, {2})},
                         {tensor(T::TENSOR_FLOAT32, {2})});
  EXPECT_TRUE(isInvalid(model, {"operation 0 (ADD)",
                                "ADD takes 3 inputs and 1 outputs, got 2 inputs and 1 outputs"}));
  model = singleOp(Op::SUB,
                   {tensor(T::TENSOR_FLOAT32, {2}), tensor(T::TENSOR_INT32, {2}), int32Scalar(0)},
                   {tensor(T::TENSOR_FLOAT32, {2})});
  EXPECT_TRUE(isInvalid(model, {"operation 0 (SUB), input 1 (operand 1)",
                                "type TENSOR_INT32, expected TENSOR_FLOAT32"}));
  model = singleOp(
      Op::MUL,
      {tensor(T::TENSOR_FLOAT32, {2}), tensor(T::TENSOR_FLOAT32, {2}), tensor(T::FLOAT32, {})},
      {tensor(T::TENSOR_FLOAT32, {2})});
  EXPECT_TRUE(isInvalid(model, {"input 2 (operand 2)", "type FLOAT32, expected INT32"}));
  model = arithmeticModel(Op::DIV, T::TENSOR_FLOAT32);
  model.main.operands[3].type = T::TENSOR_FLOAT16;
  EXPECT_TRUE(isInvalid(model, {"operation 0 (DIV), output 0 (operand 3)",
                                "type TENSOR_FLOAT16, expected TENSOR_FLOAT32"}));
}

TEST(ValidateSignatures, Int32ActivationIsAnExecutionMatter) {
  // NNAPI validates only the activation's type; a non-zero activation on
  // TENSOR_INT32 fails at execution.
  Model model = singleOp(
      Op::ADD, {tensor(T::TENSOR_INT32, {2}), tensor(T::TENSOR_INT32, {2}), int32Scalar(1)},
      {tensor(T::TENSOR_INT32, {2})});
  EXPECT_TRUE(isValid(model));
  // Broadcasting shapes are not checked either (prepare-time).
  model = singleOp(Op::ADD,
                   {tensor(T::TENSOR_INT32, {2}), tensor(T::TENSOR_INT32, {3}), int32Scalar(0)},
                   {tensor(T::TENSOR_INT32, {7})});
  EXPECT_TRUE(isValid(model));
}

TEST(ValidateSignatures, ArithmeticRankLimit) {
  auto model = [](Dimensions a, Dimensions b) {
    return singleOp(Op::ADD,
                    {tensor(T::TENSOR_FLOAT32, a), tensor(T::TENSOR_FLOAT32, b), int32Scalar(0)},
                    {tensor(T::TENSOR_FLOAT32, {})});
  };
  EXPECT_TRUE(isValid(model({1, 2, 3, 4}, {4})));
  EXPECT_TRUE(isInvalid(model({1, 1, 2, 3, 4}, {4}), {"input 0 (operand 0)", "rank 5 exceeds 4"}));
  EXPECT_TRUE(isInvalid(model({4}, {1, 1, 1, 1, 4}), {"input 1 (operand 1)", "rank 5 exceeds 4"}));
  // NNAPI checks the limit only when both ranks are known.
  EXPECT_TRUE(isValid(model({1, 1, 2, 3, 4}, {})));
}

TEST(ValidateSignatures, MulQuant8OutputScale) {
  Model model = arithmeticModel(Op::MUL, T::TENSOR_QUANT8_ASYMM);  // scales 1, 1, 1
  EXPECT_TRUE(isInvalid(model, {"operation 0 (MUL), output 0 (operand 3)",
                                "greater than the product of the input scales"}));
  model.main.operands[3].scale = 1.5f;
  EXPECT_TRUE(isValid(model));
  // The Android 11 validator applies the rule to TENSOR_QUANT8_ASYMM only.
  EXPECT_TRUE(isValid(arithmeticModel(Op::MUL, T::TENSOR_QUANT8_ASYMM_SIGNED)));
}

TEST(ValidateSignatures, Comparisons) {
  const T allowed[] = {T::TENSOR_BOOL8, T::TENSOR_FLOAT16,      T::TENSOR_FLOAT32,
                       T::TENSOR_INT32, T::TENSOR_QUANT8_ASYMM, T::TENSOR_QUANT8_ASYMM_SIGNED};
  for (Op op : kComparisons) {
    for (T type : allowed) {
      SCOPED_TRACE(name(op, type));
      EXPECT_TRUE(isValid(
          singleOp(op, {tensor(type, {2}), tensor(type, {2})}, {tensor(T::TENSOR_BOOL8, {2})})));
      // The output is always TENSOR_BOOL8.
      if (type != T::TENSOR_BOOL8) {
        EXPECT_TRUE(
            isInvalid(singleOp(op, {tensor(type, {2}), tensor(type, {2})}, {tensor(type, {2})}),
                      {"output 0 (operand 2)", "expected TENSOR_BOOL8"}));
      }
    }
    SCOPED_TRACE(toString(op));
    EXPECT_TRUE(isInvalid(
        singleOp(op, {tensor(T::TENSOR_QUANT16_ASYMM, {2}), tensor(T::TENSOR_QUANT16_ASYMM, {2})},
                 {tensor(T::TENSOR_BOOL8, {2})}),
        {"input 0", "unsupported type TENSOR_QUANT16_ASYMM"}));
    EXPECT_TRUE(
        isInvalid(singleOp(op, {tensor(T::TENSOR_FLOAT32, {2}), tensor(T::TENSOR_FLOAT16, {2})},
                           {tensor(T::TENSOR_BOOL8, {2})}),
                  {"input 1 (operand 1)", "expected TENSOR_FLOAT32"}));
    EXPECT_TRUE(isInvalid(
        singleOp(op,
                 {tensor(T::TENSOR_FLOAT32, {2}), tensor(T::TENSOR_FLOAT32, {2}), int32Scalar(0)},
                 {tensor(T::TENSOR_BOOL8, {2})}),
        {"takes 2 inputs and 1 outputs, got 3 inputs"}));
  }
  // No rank limit for comparisons.
  EXPECT_TRUE(isValid(singleOp(
      Op::LESS, {tensor(T::TENSOR_INT32, {1, 1, 1, 1, 1, 2}), tensor(T::TENSOR_INT32, {2})},
      {tensor(T::TENSOR_BOOL8, {})})));
}

TEST(ValidateSignatures, LogicalOps) {
  for (Op op : {Op::LOGICAL_AND, Op::LOGICAL_OR}) {
    SCOPED_TRACE(toString(op));
    EXPECT_TRUE(isValid(singleOp(op, {tensor(T::TENSOR_BOOL8, {2}), tensor(T::TENSOR_BOOL8, {2})},
                                 {tensor(T::TENSOR_BOOL8, {2})})));
    EXPECT_TRUE(isInvalid(singleOp(op, {tensor(T::TENSOR_INT32, {2}), tensor(T::TENSOR_INT32, {2})},
                                   {tensor(T::TENSOR_INT32, {2})}),
                          {"input 0", "unsupported type TENSOR_INT32", "allowed: TENSOR_BOOL8"}));
    EXPECT_TRUE(
        isInvalid(singleOp(op, {tensor(T::TENSOR_BOOL8, {2}), tensor(T::TENSOR_FLOAT32, {2})},
                           {tensor(T::TENSOR_BOOL8, {2})}),
                  {"input 1", "expected TENSOR_BOOL8"}));
  }
  EXPECT_TRUE(isValid(
      singleOp(Op::LOGICAL_NOT, {tensor(T::TENSOR_BOOL8, {2})}, {tensor(T::TENSOR_BOOL8, {2})})));
  EXPECT_TRUE(isInvalid(
      singleOp(Op::LOGICAL_NOT, {tensor(T::TENSOR_FLOAT32, {2})}, {tensor(T::TENSOR_BOOL8, {2})}),
      {"operation 0 (LOGICAL_NOT), input 0", "unsupported type"}));
  EXPECT_TRUE(isInvalid(
      singleOp(Op::LOGICAL_NOT, {tensor(T::TENSOR_BOOL8, {2})}, {tensor(T::TENSOR_INT32, {2})}),
      {"output 0", "expected TENSOR_BOOL8"}));
  EXPECT_TRUE(isInvalid(
      singleOp(Op::LOGICAL_NOT, {tensor(T::TENSOR_BOOL8, {2}), tensor(T::TENSOR_BOOL8, {2})},
               {tensor(T::TENSOR_BOOL8, {2})}),
      {"LOGICAL_NOT takes 1 inputs"}));
}

TEST(ValidateSignatures, Select) {
  const T allowed[] = {T::TENSOR_FLOAT16, T::TENSOR_FLOAT32, T::TENSOR_INT32,
                       T::TENSOR_QUANT8_ASYMM, T::TENSOR_QUANT8_ASYMM_SIGNED};
  auto model = [](T mask, T x, T y, T out) {
    return singleOp(Op::SELECT, {tensor(mask, {2}), tensor(x, {2}), tensor(y, {2})},
                    {tensor(out, {2})});
  };
  for (T type : allowed) {
    SCOPED_TRACE(toString(type));
    EXPECT_TRUE(isValid(model(T::TENSOR_BOOL8, type, type, type)));
  }
  EXPECT_TRUE(
      isInvalid(model(T::TENSOR_INT32, T::TENSOR_FLOAT32, T::TENSOR_FLOAT32, T::TENSOR_FLOAT32),
                {"input 0 (operand 0)", "type TENSOR_INT32, expected TENSOR_BOOL8"}));
  EXPECT_TRUE(isInvalid(model(T::TENSOR_BOOL8, T::TENSOR_BOOL8, T::TENSOR_BOOL8, T::TENSOR_BOOL8),
                        {"input 1 (operand 1)", "unsupported type TENSOR_BOOL8 for SELECT"}));
  EXPECT_TRUE(
      isInvalid(model(T::TENSOR_BOOL8, T::TENSOR_FLOAT32, T::TENSOR_INT32, T::TENSOR_FLOAT32),
                {"input 2 (operand 2)", "expected TENSOR_FLOAT32"}));
}

TEST(ValidateSignatures, AbsNeg) {
  for (Op op : {Op::ABS, Op::NEG}) {
    for (T type : {T::TENSOR_FLOAT16, T::TENSOR_FLOAT32, T::TENSOR_INT32}) {
      SCOPED_TRACE(name(op, type));
      EXPECT_TRUE(isValid(singleOp(op, {tensor(type, {2})}, {tensor(type, {2})})));
    }
    for (T type : {T::TENSOR_QUANT8_ASYMM, T::TENSOR_BOOL8}) {
      SCOPED_TRACE(name(op, type));
      EXPECT_TRUE(isInvalid(singleOp(op, {tensor(type, {2})}, {tensor(type, {2})}),
                            {"input 0", "unsupported type"}));
    }
    EXPECT_TRUE(
        isInvalid(singleOp(op, {tensor(T::TENSOR_FLOAT32, {2})}, {tensor(T::TENSOR_INT32, {2})}),
                  {"output 0", "expected TENSOR_FLOAT32"}));
  }
}

TEST(ValidateSignatures, MaximumMinimum) {
  for (Op op : {Op::MAXIMUM, Op::MINIMUM}) {
    for (T type : {T::TENSOR_FLOAT16, T::TENSOR_FLOAT32, T::TENSOR_INT32, T::TENSOR_QUANT8_ASYMM,
                   T::TENSOR_QUANT8_ASYMM_SIGNED}) {
      SCOPED_TRACE(name(op, type));
      EXPECT_TRUE(
          isValid(singleOp(op, {tensor(type, {2}), tensor(type, {1})}, {tensor(type, {2})})));
    }
    SCOPED_TRACE(toString(op));
    EXPECT_TRUE(isInvalid(singleOp(op, {tensor(T::TENSOR_BOOL8, {2}), tensor(T::TENSOR_BOOL8, {2})},
                                   {tensor(T::TENSOR_BOOL8, {2})}),
                          {"input 0", "unsupported type TENSOR_BOOL8"}));
    EXPECT_TRUE(
        isInvalid(singleOp(op, {tensor(T::TENSOR_INT32, {2}), tensor(T::TENSOR_FLOAT32, {2})},
                           {tensor(T::TENSOR_INT32, {2})}),
                  {"input 1", "expected TENSOR_INT32"}));
  }
}

Model castModel(T from, T to, Dimensions inDims = {2}, Dimensions outDims = {2}) {
  return singleOp(Op::CAST, {tensor(from, inDims)}, {tensor(to, outDims)});
}

TEST(ValidateSignatures, Cast) {
  const T convertible[] = {T::TENSOR_FLOAT16, T::TENSOR_FLOAT32, T::TENSOR_INT32,
                           T::TENSOR_QUANT8_ASYMM};
  for (T from : convertible) {
    for (T to : convertible) {
      SCOPED_TRACE(std::string(toString(from)) + " -> " + std::string(toString(to)));
      EXPECT_TRUE(isValid(castModel(from, to)));
    }
  }
  for (T type : {T::TENSOR_BOOL8, T::TENSOR_QUANT16_ASYMM, T::TENSOR_QUANT16_SYMM,
                 T::TENSOR_QUANT8_ASYMM_SIGNED, T::TENSOR_QUANT8_SYMM}) {
    SCOPED_TRACE(toString(type));
    EXPECT_TRUE(isValid(castModel(type, type)));  // identity only
    EXPECT_TRUE(isInvalid(castModel(type, T::TENSOR_FLOAT32),
                          {"operation 0 (CAST), output 0 (operand 1)",
                           "type TENSOR_FLOAT32, expected " + std::string(toString(type))}));
  }
  EXPECT_TRUE(isInvalid(castModel(T::TENSOR_FLOAT32, T::TENSOR_BOOL8),
                        {"input 0", "unsupported CAST from TENSOR_FLOAT32 to TENSOR_BOOL8"}));
  Model perChannel =
      castModel(T::TENSOR_QUANT8_SYMM_PER_CHANNEL, T::TENSOR_QUANT8_SYMM_PER_CHANNEL);
  for (Operand& o : perChannel.main.operands) {
    o.scale = 0.0f;
    o.channelQuant = ChannelQuant{{1.0f, 1.0f}, 0};
  }
  EXPECT_TRUE(isInvalid(perChannel, {"unsupported CAST"}));
}

TEST(ValidateSignatures, CastShapes) {
  EXPECT_TRUE(
      isInvalid(castModel(T::TENSOR_FLOAT32, T::TENSOR_INT32, {2}, {3}),
                {"output 0", "CAST output dimensions [3] differ from input dimensions [2]"}));
  EXPECT_TRUE(
      isInvalid(castModel(T::TENSOR_FLOAT32, T::TENSOR_INT32, {2, 3}, {6}), {"differ from input"}));
  // Skipped when either rank is unknown or the output has an unknown size.
  EXPECT_TRUE(isValid(castModel(T::TENSOR_FLOAT32, T::TENSOR_INT32, {2}, {})));
  EXPECT_TRUE(isValid(castModel(T::TENSOR_FLOAT32, T::TENSOR_INT32, {}, {2})));
  EXPECT_TRUE(isValid(castModel(T::TENSOR_FLOAT32, T::TENSOR_INT32, {2, 3}, {0, 3})));
  EXPECT_TRUE(isValid(castModel(T::TENSOR_FLOAT32, T::TENSOR_INT32, {0, 3}, {0, 3})));
}

Model reshapeModel(T type, Dimensions in, T shapeType = T::TENSOR_INT32) {
  return singleOp(Op::RESHAPE, {tensor(type, in), constantOf(shapeType, {1})}, {tensor(type, {})});
}

TEST(ValidateSignatures, Reshape) {
  for (T type : {T::TENSOR_FLOAT32, T::TENSOR_FLOAT16, T::TENSOR_QUANT8_ASYMM,
                 T::TENSOR_QUANT8_ASYMM_SIGNED}) {
    SCOPED_TRACE(toString(type));
    EXPECT_TRUE(isValid(reshapeModel(type, {2, 3})));
  }
  EXPECT_TRUE(isInvalid(reshapeModel(T::TENSOR_INT32, {2, 3}),
                        {"operation 0 (RESHAPE), input 0", "unsupported type TENSOR_INT32"}));
  EXPECT_TRUE(isInvalid(reshapeModel(T::TENSOR_BOOL8, {2, 3}), {"unsupported type TENSOR_BOOL8"}));
  EXPECT_TRUE(isInvalid(reshapeModel(T::TENSOR_FLOAT32, {1, 1, 1, 2, 3}), {"rank 5 exceeds 4"}));
  EXPECT_TRUE(isValid(reshapeModel(T::TENSOR_FLOAT32, {})));
  EXPECT_TRUE(isInvalid(reshapeModel(T::TENSOR_FLOAT32, {2, 3}, T::TENSOR_FLOAT32),
                        {"input 1 (operand 1)", "type TENSOR_FLOAT32, expected TENSOR_INT32"}));
}

Model fcModel(T type, Dimensions in, Dimensions weights, Dimensions bias, T biasType) {
  return singleOp(
      Op::FULLY_CONNECTED,
      {tensor(type, in), constantOf(type, weights), constantOf(biasType, bias), int32Scalar(0)},
      {tensor(type, {})});
}

TEST(ValidateSignatures, FullyConnectedTypes) {
  EXPECT_TRUE(isValid(fcModel(T::TENSOR_FLOAT32, {2, 3}, {4, 3}, {4}, T::TENSOR_FLOAT32)));
  EXPECT_TRUE(isValid(fcModel(T::TENSOR_FLOAT16, {2, 3}, {4, 3}, {4}, T::TENSOR_FLOAT16)));
  EXPECT_TRUE(isValid(fcModel(T::TENSOR_QUANT8_ASYMM, {2, 3}, {4, 3}, {4}, T::TENSOR_INT32)));
  EXPECT_TRUE(
      isValid(fcModel(T::TENSOR_QUANT8_ASYMM_SIGNED, {2, 3}, {4, 3}, {4}, T::TENSOR_INT32)));
  EXPECT_TRUE(
      isInvalid(fcModel(T::TENSOR_QUANT8_ASYMM, {2, 3}, {4, 3}, {4}, T::TENSOR_QUANT8_ASYMM),
                {"input 2 (operand 2)", "expected TENSOR_INT32"}));
  EXPECT_TRUE(isInvalid(fcModel(T::TENSOR_FLOAT32, {2, 3}, {4, 3}, {4}, T::TENSOR_INT32),
                        {"input 2 (operand 2)", "expected TENSOR_FLOAT32"}));
  EXPECT_TRUE(
      isInvalid(fcModel(T::TENSOR_INT32, {2, 3}, {4, 3}, {4}, T::TENSOR_INT32),
                {"operation 0 (FULLY_CONNECTED), input 0", "unsupported type TENSOR_INT32"}));
  Model noActivation = fcModel(T::TENSOR_FLOAT32, {2, 3}, {4, 3}, {4}, T::TENSOR_FLOAT32);
  noActivation.main.operations[0].inputs.pop_back();
  EXPECT_TRUE(isInvalid(noActivation, {"FULLY_CONNECTED takes 4 inputs and 1 outputs"}));
}

TEST(ValidateSignatures, FullyConnectedShapes) {
  auto fc = [](Dimensions in, Dimensions w, Dimensions b) {
    Model model = fcModel(T::TENSOR_FLOAT32, {1}, {1, 1}, {1}, T::TENSOR_FLOAT32);
    // Make weights and bias inputs so that their shapes may be partial.
    model.main.operands[0].dimensions = in;
    for (uint32_t k : {1u, 2u}) {
      model.main.operands[k].lifetime = L::SUBGRAPH_INPUT;
      model.main.operands[k].value.clear();
    }
    model.main.operands[1].dimensions = w;
    model.main.operands[2].dimensions = b;
    model.main.inputIndexes = {0, 1, 2};
    return model;
  };
  EXPECT_TRUE(isValid(fc({2, 2, 3}, {4, 6}, {4})));  // batch 2
  EXPECT_TRUE(isInvalid(fc({6}, {4, 6}, {4}), {"input 0", "input rank must be 2 to 4, got 1"}));
  EXPECT_TRUE(isInvalid(fc({1, 1, 1, 1, 6}, {4, 6}, {4}), {"input rank must be 2 to 4, got 5"}));
  EXPECT_TRUE(isInvalid(fc({2, 6}, {4, 6, 1}, {4}), {"input 1", "weights rank must be 2, got 3"}));
  EXPECT_TRUE(isInvalid(fc({2, 6}, {4, 6}, {4, 1}), {"input 2", "bias rank must be 1, got 2"}));
  EXPECT_TRUE(isInvalid(fc({2, 5}, {4, 3}, {4}),
                        {"input 0", "has 10 elements, not a multiple of the input size 3"}));
  EXPECT_TRUE(isInvalid(fc({2, 3}, {4, 3}, {5}),
                        {"input 2", "bias length 5 differs from the number of units 4"}));
  // Unknown ranks skip the shape check; unknown sizes skip the size relations.
  EXPECT_TRUE(isValid(fc({6}, {4, 6}, {})));
  EXPECT_TRUE(isValid(fc({0, 5}, {4, 3}, {0})));
  EXPECT_TRUE(isValid(fc({2, 6}, {0, 6}, {5})));
  // batch 0 (input smaller than one row) is left to prepare time.
  EXPECT_TRUE(isValid(fc({1, 2}, {4, 3}, {4})));
}

}  // namespace
}  // namespace nnfab::test

namespace nnfab::test {
namespace {

TEST(ValidateSignatures, SliceFloorRelu) {
  auto slice = [](T data, T begin) {
    return singleOp(Op::SLICE, {tensor(data, {4}), tensor(begin, {1}), tensor(T::TENSOR_INT32, {1})},
                    {tensor(data, {2})});
  };
  EXPECT_TRUE(isValid(slice(T::TENSOR_FLOAT32, T::TENSOR_INT32)));
  EXPECT_TRUE(isValid(slice(T::TENSOR_INT32, T::TENSOR_INT32)));
  EXPECT_TRUE(isInvalid(slice(T::TENSOR_BOOL8, T::TENSOR_INT32), {"operation 0 (SLICE)", "unsupported type"}));
  EXPECT_TRUE(isInvalid(slice(T::TENSOR_FLOAT32, T::TENSOR_FLOAT32),
                        {"input 1", "type TENSOR_FLOAT32, expected TENSOR_INT32"}));
  for (Op op : {Op::FLOOR, Op::RELU}) {
    SCOPED_TRACE(toString(op));
    EXPECT_TRUE(isValid(singleOp(op, {tensor(T::TENSOR_FLOAT32, {2})}, {tensor(T::TENSOR_FLOAT32, {2})})));
    EXPECT_TRUE(isInvalid(singleOp(op, {tensor(T::TENSOR_INT32, {2})}, {tensor(T::TENSOR_INT32, {2})}),
                          {"unsupported type"}));
    EXPECT_TRUE(isInvalid(
        singleOp(op, {tensor(T::TENSOR_FLOAT32, {1, 1, 1, 1, 2})}, {tensor(T::TENSOR_FLOAT32, {1, 1, 1, 1, 2})}),
        {"rank 5 exceeds 4"}));
  }
}

}  // namespace
}  // namespace nnfab::test
