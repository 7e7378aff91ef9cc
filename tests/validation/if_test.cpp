// §3.2: every IF check, in order.
#include "validation/model_builder.h"

namespace nnfab::test {
namespace {

// ifModel() main operands: 0 cond, 1 x, 2 then ref, 3 else ref, 4 y.

TEST(ValidateIf, ValidInBothModes) {
  EXPECT_TRUE(isValid(ifModel()));
  EXPECT_TRUE(isValid(ifModel(), ValidationMode::DRIVER));
}

TEST(ValidateIf, SameBranchSubgraphTwice) {
  Model model = ifModel();
  model.main.operands[3].subgraph = 0;
  EXPECT_TRUE(isValid(model));
}

TEST(ValidateIf, NoValueConditionIsValid) {
  // if_no_value: fails at execution, not at validation.
  Model model = ifModel();
  model.main.operands[0].lifetime = L::NO_VALUE;
  model.main.inputIndexes = {1};
  EXPECT_TRUE(isValid(model));
}

TEST(ValidateIf, OperandCounts) {
  Model model = ifModel();
  model.main.operations[0].inputs = {0, 2};
  EXPECT_TRUE(isInvalid(model, {"subgraph 0 (main), operation 0 (IF)",
                                "IF needs at least 3 inputs and 1 output, got 2 inputs"}));
  model = ifModel();
  model.main.operations[0].outputs = {};
  model.main.operands[4].lifetime = L::TEMPORARY_VARIABLE;
  model.main.outputIndexes = {};
  EXPECT_TRUE(isInvalid(model, {"IF needs at least 3 inputs and 1 output", "0 outputs"}));
}

TEST(ValidateIf, ConditionOperand) {
  Model model = ifModel();
  model.main.operands[0].type = T::TENSOR_INT32;
  EXPECT_TRUE(isInvalid(model, {"operation 0 (IF), input 0 (operand 0)",
                                "condition operand must be TENSOR_BOOL8, got TENSOR_INT32"}));
  model = ifModel();
  model.main.operands[0].dimensions = {2};
  EXPECT_TRUE(isInvalid(model, {"input 0 (operand 0)", "must have dimensions [1], got [2]"}));
  model.main.operands[0].dimensions = {1, 1};
  EXPECT_TRUE(isInvalid(model, {"must have dimensions [1], got [1, 1]"}));
  model.main.operands[0].dimensions = {};
  EXPECT_TRUE(isInvalid(model, {"must have dimensions [1], got []"}));
  model.main.operands[0].dimensions = {0};
  EXPECT_TRUE(isInvalid(model, {"must have dimensions [1], got [0]"}));
}

TEST(ValidateIf, BranchMustBeSubgraphReference) {
  Model model = ifModel();
  model.main.operations[0].inputs[1] = 1;  // x, a tensor, as the then branch
  EXPECT_TRUE(isInvalid(model, {"operation 0 (IF), input 1 (operand 1)",
                                "then operand is not a valid subgraph reference"}));
  model = ifModel();
  model.main.operations[0].inputs[2] = 0;
  EXPECT_TRUE(
      isInvalid(model, {"input 2 (operand 0)", "else operand is not a valid subgraph reference"}));
}

TEST(ValidateIf, BranchInputAndOutputCounts) {
  Model model = ifModel();
  model.main.operations[0].inputs.push_back(1);  // one outer input too many
  EXPECT_TRUE(isInvalid(model, {"operation 0 (IF)",
                                "then subgraph 1 (referenced[0]) has 1 inputs, so IF needs 4 "
                                "inputs, got 5"}));
  model = ifModel();
  model.referenced[1].outputIndexes.push_back(0);  // else: 2 outputs
  EXPECT_TRUE(isInvalid(model, {"else subgraph 2 (referenced[1]) has 2 outputs, IF has 1"}));
}

struct Mismatch {
  const char* name;
  void (*apply)(Operand&);
  const char* expected;
};

const Mismatch kMismatches[] = {
    {"type", [](Operand& o) { o.type = T::TENSOR_INT32; }, "type TENSOR_INT32 vs TENSOR_FLOAT32"},
    {"rank",
     [](Operand& o) {
       o.dimensions = {2, 1};
     },
     "rank 2 vs 1"},
    {"dimension", [](Operand& o) { o.dimensions = {3}; }, "dimension 0: 3 vs 2"},
};

TEST(ValidateIf, BranchInputCompatibility) {
  for (const Mismatch& m : kMismatches) {
    SCOPED_TRACE(m.name);
    Model model = ifModel();
    m.apply(model.referenced[0].operands[0]);
    EXPECT_TRUE(
        isInvalid(model, {"subgraph 0 (main), operation 0 (IF), input 3 (operand 1)",
                          "then input 0 is not compatible with outer input 3", m.expected}));
  }
}

TEST(ValidateIf, BranchOutputCompatibility) {
  for (const Mismatch& m : kMismatches) {
    SCOPED_TRACE(m.name);
    Model model = ifModel();
    m.apply(model.referenced[1].operands[1]);
    EXPECT_TRUE(
        isInvalid(model, {"operation 0 (IF), output 0 (operand 4)",
                          "else output 0 is not compatible with outer output 0", m.expected}));
  }
}

// Both sides quantized, so only the quantization parameters differ.
Model quantIfModel() {
  Model model = ifModel();
  for (Subgraph* sg : {&model.main, &model.referenced[0], &model.referenced[1]}) {
    for (Operand& o : sg->operands) {
      if (o.type == T::TENSOR_FLOAT32) {
        o.type = T::TENSOR_QUANT8_ASYMM;
        o.scale = 0.5f;
        o.zeroPoint = 10;
      }
    }
  }
  return model;
}

TEST(ValidateIf, ScaleZeroPointAndChannelQuantCompatibility) {
  EXPECT_TRUE(isValid(quantIfModel()));
  Model model = quantIfModel();
  model.referenced[0].operands[0].scale = 0.25f;
  model.referenced[0].operands[1].scale = 0.25f;
  EXPECT_TRUE(isInvalid(model, {"then input 0 is not compatible", "scale 0.25 vs 0.5"}));
  model = quantIfModel();
  model.referenced[0].operands[0].zeroPoint = 11;
  model.referenced[0].operands[1].zeroPoint = 11;
  EXPECT_TRUE(isInvalid(model, {"then input 0 is not compatible", "zeroPoint 11 vs 10"}));

  // Per-channel operands: channelQuant is NNAPI's extraParams.
  Model pc = ifModel();
  for (Subgraph* sg : {&pc.main, &pc.referenced[0], &pc.referenced[1]}) {
    for (Operand& o : sg->operands) {
      if (o.type == T::TENSOR_FLOAT32) {
        o.type = T::TENSOR_QUANT8_SYMM_PER_CHANNEL;
        o.channelQuant = ChannelQuant{{0.5f, 0.25f}, 0};
      }
    }
    // CAST does not take per-channel operands; an unimplemented op keeps the
    // branches valid so only compatibility is under test.
    for (Operation& op : sg->operations) {
      if (op.type == Op::CAST) op.type = Op::DEQUANTIZE;
    }
  }
  EXPECT_TRUE(isValid(pc));
  pc.referenced[0].operands[0].channelQuant->scales[1] = 0.125f;
  EXPECT_TRUE(isInvalid(pc, {"then input 0 is not compatible", "channelQuant"}));
}

TEST(ValidateIf, UnknownShapesAreCompatible) {
  // Unknown rank or unknown dimensions on either side match anything, and IF
  // has no size check even for a driver.
  for (Dimensions dims : {Dimensions{}, Dimensions{0}}) {
    Model model = ifModel();
    model.referenced[0].operands[0].dimensions = dims;
    model.referenced[0].operands[1].dimensions = dims;
    model.main.operands[1].dimensions = dims;
    EXPECT_TRUE(isValid(model));
    EXPECT_TRUE(isValid(model, ValidationMode::DRIVER));
  }
}

TEST(ValidateIf, BranchIndexListOutOfRange) {
  // The branch's own lists are validated after main's operations, so the IF
  // check must not read past its operands.
  Model model = ifModel();
  model.referenced[0].inputIndexes = {9};
  EXPECT_TRUE(isInvalid(model, {"operation 0 (IF)",
                                "then subgraph 1 (referenced[0]): inputIndexes[0] = 9 out of "
                                "range (2 operands)"}));
}

TEST(ValidateIf, ChecksInOrder) {
  // Condition before branches, then before else, inputs before outputs.
  Model model = ifModel();
  model.main.operands[0].type = T::TENSOR_INT32;
  model.referenced[0].operands[0].type = T::TENSOR_INT32;
  EXPECT_TRUE(isInvalid(model, {"condition operand"}));
  model = ifModel();
  model.referenced[0].operands[1].type = T::TENSOR_INT32;
  model.referenced[1].operands[0].type = T::TENSOR_INT32;
  EXPECT_TRUE(isInvalid(model, {"then output 0"}));
  model = ifModel();
  model.referenced[0].operands[0].type = T::TENSOR_INT32;
  model.referenced[0].operands[1].type = T::TENSOR_INT32;
  EXPECT_TRUE(isInvalid(model, {"then input 0"}));
}

TEST(ValidateIf, NestedIfMessagesNameTheInnerSubgraph) {
  Model model = ifModel();
  // referenced[1] becomes an IF on its own input, with referenced[0] as both branches.
  SubgraphBuilder inner;
  const uint32_t x = inner.input(T::TENSOR_FLOAT32, {2});
  const uint32_t cond = inner.constant(T::TENSOR_BOOL8, {1});
  const uint32_t t = inner.ref(0);
  const uint32_t e = inner.ref(0);
  const uint32_t y = inner.output(T::TENSOR_FLOAT32, {2});
  inner.op(Op::IF, {cond, t, e, x}, {y});
  model.referenced[1] = inner.sg;
  EXPECT_TRUE(isValid(model));
  model.referenced[1].operands[cond].dimensions = {2};
  model.referenced[1].operands[cond].value.push_back(0);
  EXPECT_TRUE(isInvalid(model, {"subgraph 2 (referenced[1]), operation 0 (IF), input 0 (operand 1)",
                                "condition operand must have dimensions [1]"}));
}

}  // namespace
}  // namespace nnfab::test
