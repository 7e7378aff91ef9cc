// §4.2: every WHILE check, in order, including the DRIVER-only size check.
#include "validation/model_builder.h"

namespace nnfab::test {
namespace {

// whileModel(m, k, n): referenced[0] cond, referenced[1] body, all operands
// TENSOR_INT32 [1]. main operands: 0 cond ref, 1 body ref, 2.. inputs, then outputs.
// cond operands: inputs 0..m+k+n-1, then the output. body operands: inputs
// 0..m+k+n-1, a constant, an activation, then the m+k outputs.

constexpr auto kDriver = ValidationMode::DRIVER;

uint32_t bodyOutput(const Model& model, size_t i) { return model.referenced[1].outputIndexes[i]; }

TEST(ValidateWhile, ValidLayouts) {
  struct Layout {
    size_t m, k, n;
  };
  for (Layout l : {Layout{1, 0, 0}, Layout{1, 0, 1}, Layout{1, 1, 1}, Layout{2, 0, 0},
                   Layout{1, 2, 3}, Layout{3, 1, 0}}) {
    SCOPED_TRACE(testing::Message() << "m=" << l.m << " k=" << l.k << " n=" << l.n);
    EXPECT_TRUE(isValid(whileModel(l.m, l.k, l.n)));
    EXPECT_TRUE(isValid(whileModel(l.m, l.k, l.n), kDriver));
  }
}

TEST(ValidateWhile, OperandCounts) {
  Model model = whileModel();
  model.main.operations[0].inputs = {0, 1};
  EXPECT_TRUE(isInvalid(model, {"subgraph 0 (main), operation 0 (WHILE)",
                                "WHILE needs at least 3 inputs and 1 output, got 2 inputs"}));
  model = whileModel();
  model.main.operations[0].outputs = {};
  EXPECT_TRUE(isInvalid(model, {"WHILE needs at least 3 inputs and 1 output", "0 outputs"}));
}

TEST(ValidateWhile, CondReference) {
  Model model = whileModel();
  model.main.operations[0].inputs[0] = 2;
  EXPECT_TRUE(isInvalid(model, {"operation 0 (WHILE), input 0 (operand 2)",
                                "cond operand is not a valid subgraph reference"}));
}

TEST(ValidateWhile, CondInputCount) {
  Model model = whileModel(1, 0, 1);
  model.referenced[0].inputIndexes.pop_back();
  model.referenced[0].operands[1].lifetime = L::TEMPORARY_VARIABLE;
  EXPECT_TRUE(isInvalid(model, {"operation 0 (WHILE)",
                                "cond subgraph 1 (referenced[0]) has 1 inputs, so WHILE needs 3 "
                                "inputs, got 4"}));
}

TEST(ValidateWhile, CondOutputCount) {
  Model model = whileModel();
  model.referenced[0].outputIndexes.push_back(model.referenced[0].outputIndexes[0]);
  EXPECT_TRUE(isInvalid(model, {"cond subgraph 1 (referenced[0]) has 2 outputs, must have "
                                "exactly 1"}));
}

TEST(ValidateWhile, CondInputCompatibility) {
  Model model = whileModel(1, 0, 1);
  model.referenced[0].operands[1].type = T::TENSOR_FLOAT32;
  EXPECT_TRUE(isInvalid(model, {"operation 0 (WHILE), input 3 (operand 3)",
                                "cond input 1 is not compatible with outer input 3",
                                "type TENSOR_FLOAT32 vs TENSOR_INT32"}));
  model = whileModel(1, 0, 1);
  model.referenced[0].operands[0].dimensions = {2};
  EXPECT_TRUE(isInvalid(model, {"input 2 (operand 2)", "cond input 0", "dimension 0: 2 vs 1"}));
}

TEST(ValidateWhile, CondOutputMustBeBool8Singleton) {
  Model model = whileModel(1, 0, 1);
  const uint32_t out = model.referenced[0].outputIndexes[0];
  model.referenced[0].operands[out].type = T::TENSOR_INT32;
  model.referenced[0].operations[0].type = Op::ADD;  // keep the cond graph plausible
  EXPECT_TRUE(isInvalid(model, {"operation 0 (WHILE), input 0 (operand 0)",
                                "cond subgraph 1 (referenced[0]) output 0 (operand 2) must be "
                                "TENSOR_BOOL8, got TENSOR_INT32"}));
  model = whileModel(1, 0, 1);
  model.referenced[0].operands[out].dimensions = {2};
  EXPECT_TRUE(isInvalid(model, {"output 0 (operand 2) must have dimensions [1], got [2]"}));
  model.referenced[0].operands[out].dimensions = {};
  EXPECT_TRUE(isInvalid(model, {"must have dimensions [1], got []"}));
}

TEST(ValidateWhile, BodyReference) {
  Model model = whileModel();
  model.main.operations[0].inputs[1] = 2;
  EXPECT_TRUE(isInvalid(model, {"operation 0 (WHILE), input 1 (operand 2)",
                                "body operand is not a valid subgraph reference"}));
}

TEST(ValidateWhile, BodyInputCount) {
  Model model = whileModel(1, 0, 1);
  // Body with one input fewer than cond: m+k+n mismatch.
  model.referenced[1].inputIndexes.pop_back();
  model.referenced[1].operands[1].lifetime = L::TEMPORARY_VARIABLE;
  EXPECT_TRUE(isInvalid(model, {"body subgraph 2 (referenced[1]) has 1 inputs, so WHILE needs 3 "
                                "inputs, got 4"}));
}

TEST(ValidateWhile, BodyOutputsAtLeastWhileOutputs) {
  // k < 0: WHILE has 2 outputs, body only 1.
  Model model = whileModel(1, 0, 1);
  model.main.operands.push_back(tensor(T::TENSOR_INT32, {1}, L::SUBGRAPH_OUTPUT));
  model.main.outputIndexes.push_back(5);
  model.main.operations[0].outputs.push_back(5);
  EXPECT_TRUE(isInvalid(model, {"body subgraph 2 (referenced[1]) has 1 outputs, fewer than the 2 "
                                "WHILE outputs"}));
}

TEST(ValidateWhile, BodyInputsAtLeastOutputs) {
  // n < 0: body with 2 inputs and 3 outputs (WHILE m = 1).
  Model model = whileModel(1, 1, 0);
  Subgraph& body = model.referenced[1];
  const uint32_t extra = static_cast<uint32_t>(body.operands.size());
  body.operands.push_back(tensor(T::TENSOR_INT32, {1}, L::SUBGRAPH_OUTPUT));
  body.outputIndexes.push_back(extra);
  body.operations.push_back({Op::ADD, {0, 2, 3}, {extra}});
  EXPECT_TRUE(isInvalid(model, {"body subgraph 2 (referenced[1]) has 2 inputs, fewer than its 3 "
                                "outputs"}));
}

TEST(ValidateWhile, BodyInputCompatibilityExampleMessage) {
  // The message format of validate.h, on a referenced subgraph's WHILE.
  Model inner = whileModel(1, 1, 1);  // cond, body at referenced[0], [1]
  Model model;
  // main: IF(cond, referenced[2], referenced[2]) with referenced[2] = inner main.
  SubgraphBuilder main;
  const uint32_t c = main.input(T::TENSOR_BOOL8, {1});
  const uint32_t t = main.ref(2);
  const uint32_t e = main.ref(2);
  std::vector<uint32_t> in = {c, t, e};
  for (int i = 0; i < 3; ++i) in.push_back(main.input(T::TENSOR_INT32, {1}));
  const uint32_t y = main.output(T::TENSOR_INT32, {1});
  main.op(Op::IF, in, {y});
  model.main = main.sg;
  model.referenced = {inner.referenced[0], inner.referenced[1], inner.main};
  EXPECT_TRUE(isValid(model));
  // The state-only value (WHILE input 3) becomes FLOAT32 everywhere except
  // in the body: the outer IF and the cond still agree, the body does not.
  model.main.operands[4].type = T::TENSOR_FLOAT32;
  model.referenced[2].operands[3].type = T::TENSOR_FLOAT32;
  model.referenced[0].operands[1].type = T::TENSOR_FLOAT32;
  EXPECT_TRUE(isInvalid(model, {"subgraph 3 (referenced[2]), operation 0 (WHILE), input 3 "
                                "(operand 3): body input 1 is not compatible with outer input 3: "
                                "type TENSOR_INT32 vs TENSOR_FLOAT32"}));
}

TEST(ValidateWhile, BodyInputOnlyOperandCompatibility) {
  Model model = whileModel(1, 1, 1);
  model.referenced[1].operands[2].dimensions = {3};  // input-only operand
  EXPECT_TRUE(
      isInvalid(model, {"input 4 (operand 4)", "body input 2 is not compatible with outer input 4",
                        "dimension 0: 3 vs 1"}));
}

TEST(ValidateWhile, BodyOutputVsOuterOutput) {
  Model model = whileModel(1, 0, 1);
  model.main.operands[4].dimensions = {1, 1};
  // cond and body inputs still match the outer inputs; the outer output differs.
  EXPECT_TRUE(
      isInvalid(model, {"operation 0 (WHILE), output 0 (operand 4)",
                        "body output 0 is not compatible with outer output 0", "rank 1 vs 2"}));
}

TEST(ValidateWhile, BodyStateOnlyInputVsOutput) {
  // k = 1: the state-only output must match its input; nothing outside sees it.
  Model model = whileModel(1, 1, 1);
  Subgraph& body = model.referenced[1];
  body.operands[bodyOutput(model, 1)].type = T::TENSOR_FLOAT32;
  body.operations[1].type = Op::CAST;
  body.operations[1].inputs = {1};
  EXPECT_TRUE(isInvalid(model, {"operation 0 (WHILE)",
                                "body subgraph 2 (referenced[1]): body input 1 (operand 1) vs "
                                "body output 1",
                                "not compatible: type TENSOR_INT32 vs TENSOR_FLOAT32"}));
}

TEST(ValidateWhile, QuantizationMustMatchAcrossIterations) {
  Model model = whileModel(1, 0, 0);
  for (Subgraph* sg : {&model.main, &model.referenced[0], &model.referenced[1]}) {
    for (Operand& o : sg->operands) {
      if (o.type == T::TENSOR_INT32) {
        o.type = T::TENSOR_QUANT8_ASYMM;
        o.scale = 0.5f;
        o.zeroPoint = 3;
        if (o.lifetime == L::CONSTANT_COPY) o.value.assign(1, 0);
      }
    }
  }
  EXPECT_TRUE(isValid(model));
  model.referenced[1].operands[bodyOutput(model, 0)].zeroPoint = 4;
  EXPECT_TRUE(isInvalid(
      model, {"body output 0 is not compatible with outer output 0", "zeroPoint 4 vs 3"}));
  model.main.operands[3].zeroPoint = 4;
  EXPECT_TRUE(isInvalid(model, {"body input 0 (operand 0) vs body output 0", "zeroPoint 3 vs 4"}));
}

// --- The size check: RUNTIME allows unknown sizes, DRIVER does not. ---

TEST(ValidateWhile, SizeCheckBodyInput) {
  Model model = whileModel(1, 1, 1);
  model.referenced[1].operands[2].dimensions = {0};  // input-only, unknown size
  EXPECT_TRUE(isValid(model));
  EXPECT_TRUE(isInvalid(model,
                        {"operation 0 (WHILE), input 4 (operand 4)",
                         "body input 2 has unknown size (TENSOR_INT32 [0])"},
                        kDriver));
}

TEST(ValidateWhile, SizeCheckCondInput) {
  Model model = whileModel(1, 0, 1);
  model.referenced[0].operands[0].dimensions = {};  // unknown rank
  EXPECT_TRUE(isValid(model));
  EXPECT_TRUE(isInvalid(model, {"input 2 (operand 2)", "cond input 0 has unknown size"}, kDriver));
}

TEST(ValidateWhile, SizeCheckOuterInput) {
  Model model = whileModel(1, 0, 1);
  model.main.operands[3].dimensions = {0};
  EXPECT_TRUE(isValid(model));
  EXPECT_TRUE(isInvalid(model, {"input 3 (operand 3)", "outer input 3 has unknown size"}, kDriver));
}

TEST(ValidateWhile, SizeCheckOuterOutput) {
  Model model = whileModel(1, 0, 1);
  model.main.operands[4].dimensions = {};
  EXPECT_TRUE(isValid(model));
  EXPECT_TRUE(
      isInvalid(model, {"output 0 (operand 4)", "outer output 0 has unknown size"}, kDriver));
}

TEST(ValidateWhile, SizeCheckBodyStateOutput) {
  // Only the body's state-only output is of unknown size: found by the
  // input-vs-output pass.
  Model model = whileModel(1, 1, 0);
  model.referenced[1].operands[bodyOutput(model, 1)].dimensions = {0};
  EXPECT_TRUE(isValid(model));
  EXPECT_TRUE(isInvalid(
      model, {"body input 1 (operand 1) vs body output 1", "body output 1 has unknown size"},
      kDriver));
}

TEST(ValidateWhile, SizeCheckIgnoresIfOperands) {
  Model model = ifModel();
  model.main.operands[1].dimensions = {0};
  model.main.operands[4].dimensions = {};
  EXPECT_TRUE(isValid(model, kDriver));
}

TEST(ValidateWhile, ScalarLoopStateIsKnownSize) {
  // INT32 scalars have a size; a driver accepts them as loop state.
  Model model = whileModel(1, 0, 0);
  for (Subgraph* sg : {&model.main, &model.referenced[0]}) {
    for (Operand& o : sg->operands) {
      if (o.type == T::TENSOR_INT32 && o.lifetime != L::CONSTANT_COPY) {
        o.type = T::INT32;
        o.dimensions = {};
      }
    }
  }
  Subgraph& body = model.referenced[1];
  body.operands[0].type = T::INT32;
  body.operands[0].dimensions = {};
  body.operands[bodyOutput(model, 0)].type = T::INT32;
  body.operands[bodyOutput(model, 0)].dimensions = {};
  body.operations[0].type = Op::RANK;  // unimplemented here: only generic checks
  model.referenced[0].operations[0].type = Op::RANK;
  EXPECT_TRUE(isValid(model, kDriver));
}

}  // namespace
}  // namespace nnfab::test
