// §5.2 operand rules.
#include <cmath>
#include <limits>

#include "validation/model_builder.h"

namespace nnfab::test {
namespace {

// ADD model with an extra, unused operand appended as operand 4 of main.
Model withExtraOperand(Operand extra) {
  Model model = arithmeticModel(Op::ADD, T::TENSOR_FLOAT32);
  model.main.operands.push_back(std::move(extra));
  return model;
}

TEST(ValidateOperands, ValidBaseModels) {
  EXPECT_TRUE(isValid(arithmeticModel(Op::ADD, T::TENSOR_FLOAT32)));
  EXPECT_TRUE(isValid(withExtraOperand(constantOf(T::TENSOR_FLOAT32, {2, 3}))));
  EXPECT_TRUE(isValid(withExtraOperand(tensor(T::TENSOR_FLOAT32, {}, L::NO_VALUE))));
}

TEST(ValidateOperands, InvalidTypeAndLifetime) {
  Operand badType = constantOf(T::TENSOR_FLOAT32, {1});
  badType.type = static_cast<OperandType>(99);
  EXPECT_TRUE(isInvalid(withExtraOperand(badType),
                        {"subgraph 0 (main), operand 4", "invalid operand type 99"}));
  Operand badLifetime = constantOf(T::TENSOR_FLOAT32, {1});
  badLifetime.lifetime = static_cast<OperandLifeTime>(9);
  EXPECT_TRUE(isInvalid(withExtraOperand(badLifetime), {"operand 4", "invalid lifetime 9"}));
}

TEST(ValidateOperands, ScalarMustHaveNoDimensions) {
  Model model = arithmeticModel(Op::ADD, T::TENSOR_FLOAT32);
  model.main.operands[2].dimensions = {1};
  model.main.operands[2].value = int32Bytes({0});
  EXPECT_TRUE(isInvalid(
      model, {"subgraph 0 (main), operand 2", "scalar of type INT32 must have no dimensions"}));
}

TEST(ValidateOperands, UnknownRankAllowedExceptForConstants) {
  // Unknown rank is fine for inputs, outputs and temporaries in 1.3.
  Model model = singleOp(
      Op::ADD, {tensor(T::TENSOR_FLOAT32, {}), tensor(T::TENSOR_FLOAT32, {0}), int32Scalar(0)},
      {tensor(T::TENSOR_FLOAT32, {})});
  EXPECT_TRUE(isValid(model));
  Operand c = constantOf(T::TENSOR_FLOAT32, {});
  c.value.clear();
  EXPECT_TRUE(isInvalid(withExtraOperand(c), {"operand 4", "constant tensor", "unknown rank"}));
}

TEST(ValidateOperands, ConstantsFullySpecifiedWithExactSize) {
  Operand zeroDim = constantOf(T::TENSOR_FLOAT32, {0, 2});
  EXPECT_TRUE(isInvalid(withExtraOperand(zeroDim), {"operand 4", "must be fully specified"}));
  Operand shortValue = constantOf(T::TENSOR_FLOAT32, {2});
  shortValue.value.resize(4);
  EXPECT_TRUE(isInvalid(withExtraOperand(shortValue), {"operand 4", "needs 8 value bytes, got 4"}));
  Operand scalar = int32Scalar(3);
  scalar.value.push_back(0);
  EXPECT_TRUE(isInvalid(withExtraOperand(scalar), {"needs 4 value bytes, got 5"}));
  Operand reference = constantOf(T::TENSOR_FLOAT16, {3});
  reference.lifetime = L::CONSTANT_REFERENCE;
  EXPECT_TRUE(isValid(withExtraOperand(reference)));
  reference.value.resize(3);
  EXPECT_TRUE(isInvalid(withExtraOperand(reference), {"needs 6 value bytes, got 3"}));
}

TEST(ValidateOperands, NonConstantsCarryNoValue) {
  Operand noValue = tensor(T::TENSOR_FLOAT32, {1}, L::NO_VALUE);
  noValue.value = zeroBytes(T::TENSOR_FLOAT32, 1);
  EXPECT_TRUE(isInvalid(withExtraOperand(noValue),
                        {"operand 4", "lifetime NO_VALUE must not have a value"}));
  Model model = arithmeticModel(Op::ADD, T::TENSOR_FLOAT32);
  model.main.operands[0].value = zeroBytes(T::TENSOR_FLOAT32, 2);
  EXPECT_TRUE(isInvalid(model, {"operand 0", "lifetime SUBGRAPH_INPUT must not have a value"}));
  Operand stray = tensor(T::TENSOR_FLOAT32, {1}, L::NO_VALUE);
  stray.subgraph = 1;
  EXPECT_TRUE(isInvalid(withExtraOperand(stray), {"operand 4", "has a subgraph index (1)"}));
}

TEST(ValidateOperands, ScaleRules) {
  Operand floatScaled = constantOf(T::TENSOR_FLOAT32, {1});
  floatScaled.scale = 0.5f;
  EXPECT_TRUE(isInvalid(withExtraOperand(floatScaled),
                        {"operand 4", "TENSOR_FLOAT32 operand must have scale 0, got 0.5"}));
  Operand boolScaled = constantOf(T::TENSOR_BOOL8, {1});
  boolScaled.scale = 1.0f;
  EXPECT_TRUE(isInvalid(withExtraOperand(boolScaled), {"TENSOR_BOOL8 operand must have scale 0"}));

  Operand quantZero = constantOf(T::TENSOR_QUANT8_ASYMM, {1});
  quantZero.scale = 0.0f;
  EXPECT_TRUE(isInvalid(withExtraOperand(quantZero),
                        {"TENSOR_QUANT8_ASYMM operand must have a positive finite scale"}));
  Operand quantNaN = constantOf(T::TENSOR_QUANT16_SYMM, {1});
  quantNaN.scale = std::numeric_limits<float>::quiet_NaN();
  EXPECT_TRUE(isInvalid(withExtraOperand(quantNaN), {"TENSOR_QUANT16_SYMM", "positive finite"}));

  Operand int32Scaled = constantOf(T::TENSOR_INT32, {1});
  int32Scaled.scale = 0.25f;  // bias-style scale: allowed
  EXPECT_TRUE(isValid(withExtraOperand(int32Scaled)));
  int32Scaled.scale = -1.0f;
  EXPECT_TRUE(isInvalid(withExtraOperand(int32Scaled), {"TENSOR_INT32", "scale >= 0"}));
}

TEST(ValidateOperands, ZeroPointRules) {
  struct Case {
    OperandType type;
    int32_t zeroPoint;
    bool valid;
  };
  const Case cases[] = {
      {T::TENSOR_QUANT8_ASYMM, 0, true},
      {T::TENSOR_QUANT8_ASYMM, 255, true},
      {T::TENSOR_QUANT8_ASYMM, 256, false},
      {T::TENSOR_QUANT8_ASYMM, -1, false},
      {T::TENSOR_QUANT8_ASYMM_SIGNED, -128, true},
      {T::TENSOR_QUANT8_ASYMM_SIGNED, 127, true},
      {T::TENSOR_QUANT8_ASYMM_SIGNED, 128, false},
      {T::TENSOR_QUANT8_ASYMM_SIGNED, -129, false},
      {T::TENSOR_QUANT16_ASYMM, 65535, true},
      {T::TENSOR_QUANT16_ASYMM, 65536, false},
      {T::TENSOR_QUANT16_SYMM, 1, false},
      {T::TENSOR_QUANT8_SYMM, 1, false},
      {T::TENSOR_INT32, 1, false},
      {T::TENSOR_FLOAT32, 1, false},
      {T::TENSOR_BOOL8, 1, false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(toString(c.type)) + " zeroPoint " + std::to_string(c.zeroPoint));
    Operand o = constantOf(c.type, {1});
    o.zeroPoint = c.zeroPoint;
    if (c.valid) {
      EXPECT_TRUE(isValid(withExtraOperand(o)));
    } else {
      EXPECT_TRUE(isInvalid(withExtraOperand(o), {"operand 4", "zeroPoint"}));
    }
  }
  Operand scalar = int32Scalar(0);
  scalar.zeroPoint = 3;
  EXPECT_TRUE(isInvalid(withExtraOperand(scalar), {"INT32 operand must have zeroPoint 0, got 3"}));
}

Operand perChannel() {
  Operand o = constantOf(T::TENSOR_QUANT8_SYMM_PER_CHANNEL, {2, 3});
  o.scale = 0.0f;
  o.channelQuant = ChannelQuant{{0.5f, 0.25f}, 0};
  return o;
}

TEST(ValidateOperands, ChannelQuantRules) {
  EXPECT_TRUE(isValid(withExtraOperand(perChannel())));

  Operand missing = perChannel();
  missing.channelQuant.reset();
  EXPECT_TRUE(isInvalid(withExtraOperand(missing), {"operand 4", "needs channelQuant"}));

  Operand badDim = perChannel();
  badDim.channelQuant->channelDim = 2;
  EXPECT_TRUE(isInvalid(withExtraOperand(badDim), {"channelDim 2 must be less than the rank 2"}));

  Operand badCount = perChannel();
  badCount.channelQuant->scales = {0.5f, 0.25f, 1.0f};
  EXPECT_TRUE(isInvalid(withExtraOperand(badCount), {"3 scales but dimension 0 is 2"}));

  Operand badScale = perChannel();
  badScale.channelQuant->scales[1] = 0.0f;
  EXPECT_TRUE(isInvalid(withExtraOperand(badScale), {"channelQuant.scales[1]"}));

  Operand scaled = perChannel();
  scaled.scale = 1.0f;
  EXPECT_TRUE(isInvalid(withExtraOperand(scaled), {"must have scale 0"}));

  Operand stray = constantOf(T::TENSOR_QUANT8_ASYMM, {2});
  stray.channelQuant = ChannelQuant{{0.5f, 0.25f}, 0};
  EXPECT_TRUE(isInvalid(withExtraOperand(stray), {"must not have channelQuant"}));

  // The channel dimension must be known even on a non-constant.
  Operand unknown = perChannel();
  unknown.lifetime = L::TEMPORARY_VARIABLE;
  unknown.value.clear();
  unknown.dimensions = {0, 3};
  unknown.channelQuant->scales = {};
  EXPECT_TRUE(isInvalid(withExtraOperand(unknown), {"channelQuant dimension 0 must be known"}));
}

TEST(ValidateOperands, SubgraphTypeIfAndOnlyIfSubgraphLifetime) {
  Operand typeOnly = tensor(T::SUBGRAPH, {}, L::TEMPORARY_VARIABLE);
  EXPECT_TRUE(isInvalid(withExtraOperand(typeOnly),
                        {"operand 4", "type SUBGRAPH cannot have lifetime TEMPORARY_VARIABLE"}));

  Model model = ifModel();
  model.main.operands[2].type = T::TENSOR_BOOL8;
  model.main.operands[2].dimensions = {1};
  EXPECT_TRUE(isInvalid(model, {"operand 2", "type TENSOR_BOOL8 cannot have lifetime SUBGRAPH"}));
}

TEST(ValidateOperands, SubgraphIndexInRange) {
  Model model = ifModel();
  model.main.operands[3].subgraph = 2;
  EXPECT_TRUE(isInvalid(model, {"subgraph 0 (main), operand 3",
                                "subgraph index 2 out of range (2 referenced subgraphs)"}));
  model.main.operands[3].subgraph = 1;
  model.main.operands[3].value = {1};
  EXPECT_TRUE(isInvalid(model, {"operand 3", "SUBGRAPH operand must not carry value bytes"}));
}

TEST(ValidateOperands, ByteSizeOverflow) {
  Operand huge = tensor(T::TENSOR_FLOAT32, {65536, 65536}, L::NO_VALUE);
  EXPECT_TRUE(isInvalid(withExtraOperand(huge), {"operand 4", "overflows uint32"}));
  // Known dimensions alone already overflow; the unknown one cannot help.
  Operand partly = tensor(T::TENSOR_INT32, {0, 1u << 16, 1u << 15}, L::NO_VALUE);
  EXPECT_TRUE(isInvalid(withExtraOperand(partly), {"overflows uint32"}));
  Operand fits = tensor(T::TENSOR_QUANT8_ASYMM, {65535, 65537}, L::NO_VALUE);
  EXPECT_TRUE(isValid(withExtraOperand(fits)));
}

TEST(ValidateOperands, ReferencedSubgraphOperandsValidated) {
  Model model = ifModel();
  Operand bad = constantOf(T::TENSOR_FLOAT32, {1});
  bad.scale = 2.0f;
  model.referenced[1].operands.push_back(bad);
  EXPECT_TRUE(isInvalid(model, {"subgraph 2 (referenced[1]), operand 2", "must have scale 0"}));
}

}  // namespace
}  // namespace nnfab::test
