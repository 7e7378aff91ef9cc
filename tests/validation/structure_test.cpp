// Whole-model structure: empty main (§5.6), subgraph inputs/outputs (§5.3),
// operation index ranges and graph order (§5.4), and scale: big flat models.
#include <chrono>

#include "validation/model_builder.h"

namespace nnfab::test {
namespace {

TEST(ValidateStructure, EmptyMainIsInvalid) {
  Model noOperations;
  noOperations.main.operands.push_back(tensor(T::TENSOR_FLOAT32, {1}, L::SUBGRAPH_INPUT));
  noOperations.main.inputIndexes = {0};
  EXPECT_TRUE(isInvalid(noOperations, {"subgraph 0 (main)", "invalid empty model"}));
  Model nothing;
  EXPECT_TRUE(isInvalid(nothing, {"invalid empty model"}));
}

TEST(ValidateStructure, ReferencedSubgraphMayBeEmptyOfOperations) {
  // Only main needs an operation; an IF branch with n = 0 inputs is fine too
  // if it still writes its outputs. Here: an unreferenced, empty subgraph.
  Model model = arithmeticModel(Op::ADD, T::TENSOR_FLOAT32);
  model.referenced.push_back(Subgraph{});
  EXPECT_TRUE(isValid(model));
}

TEST(ValidateStructure, IfBranchWithoutInputs) {
  Model model;
  SubgraphBuilder main;
  const uint32_t cond = main.input(T::TENSOR_BOOL8, {1});
  const uint32_t t = main.ref(0);
  const uint32_t e = main.ref(0);
  const uint32_t y = main.output(T::TENSOR_INT32, {1});
  main.op(Op::IF, {cond, t, e}, {y});
  SubgraphBuilder branch;
  const uint32_t c = branch.constant(T::TENSOR_INT32, {1});
  const uint32_t out = branch.output(T::TENSOR_INT32, {1});
  branch.op(Op::CAST, {c}, {out});
  model.main = main.sg;
  model.referenced = {branch.sg};
  EXPECT_TRUE(isValid(model));
  EXPECT_TRUE(isValid(model, ValidationMode::DRIVER));
}

TEST(ValidateStructure, InputIndexesRules) {
  Model model = arithmeticModel(Op::ADD, T::TENSOR_FLOAT32);
  model.main.inputIndexes = {0, 7};
  EXPECT_TRUE(isInvalid(
      model, {"subgraph 0 (main), inputIndexes[1]", "operand index 7 out of range (4 operands)"}));
  model.main.inputIndexes = {0, 1, 2};
  EXPECT_TRUE(isInvalid(
      model, {"inputIndexes[2] (operand 2)", "lifetime CONSTANT_COPY, expected SUBGRAPH_INPUT"}));
  model.main.inputIndexes = {0, 1, 0};
  EXPECT_TRUE(isInvalid(model, {"inputIndexes[2] (operand 0)", "listed more than once"}));
  model.main.inputIndexes = {1};
  EXPECT_TRUE(isInvalid(model, {"subgraph 0 (main), operand 0",
                                "lifetime SUBGRAPH_INPUT but not listed in inputIndexes"}));
}

TEST(ValidateStructure, OutputIndexesRules) {
  Model model = arithmeticModel(Op::ADD, T::TENSOR_FLOAT32);
  model.main.outputIndexes = {4};
  EXPECT_TRUE(isInvalid(model, {"outputIndexes[0]", "operand index 4 out of range"}));
  model.main.outputIndexes = {3, 0};
  EXPECT_TRUE(isInvalid(model, {"outputIndexes[1] (operand 0)",
                                "lifetime SUBGRAPH_INPUT, expected SUBGRAPH_OUTPUT"}));
  model.main.outputIndexes = {3, 3};
  EXPECT_TRUE(isInvalid(model, {"outputIndexes[1] (operand 3)", "listed more than once"}));
  model.main.outputIndexes = {};
  EXPECT_TRUE(isInvalid(model, {"operand 3",
                                "lifetime SUBGRAPH_OUTPUT but not listed in "
                                "outputIndexes"}));
}

TEST(ValidateStructure, ReferencedSubgraphInputsOutputs) {
  Model model = ifModel();
  // Keep the IF's view consistent (it reads the list first), then break the
  // rule the list itself must obey: here an unlisted SUBGRAPH_INPUT operand.
  model.referenced[0].operands.push_back(tensor(T::TENSOR_FLOAT32, {2}, L::SUBGRAPH_INPUT));
  EXPECT_TRUE(
      isInvalid(model, {"subgraph 1 (referenced[0]), operand 2", "not listed in inputIndexes"}));
}

TEST(ValidateStructure, OperationIndexRanges) {
  Model model = arithmeticModel(Op::ADD, T::TENSOR_FLOAT32);
  model.main.operations[0].inputs[1] = 9;
  EXPECT_TRUE(isInvalid(model, {"subgraph 0 (main), operation 0 (ADD), input 1",
                                "operand index 9 out of range (4 operands)"}));
  model = arithmeticModel(Op::ADD, T::TENSOR_FLOAT32);
  model.main.operations[0].outputs[0] = 4;
  EXPECT_TRUE(isInvalid(model, {"operation 0 (ADD), output 0", "operand index 4 out of range"}));
  // The same for an operation nnfab does not implement.
  model = arithmeticModel(Op::ADD, T::TENSOR_FLOAT32);
  model.main.operations[0].type = Op::CONV_2D;
  EXPECT_TRUE(isValid(model));
  model.main.operations[0].inputs.push_back(100);
  EXPECT_TRUE(isInvalid(model, {"operation 0 (CONV_2D), input 3", "out of range"}));
}

TEST(ValidateStructure, OperationTypeRange) {
  Model model = arithmeticModel(Op::ADD, T::TENSOR_FLOAT32);
  model.main.operations[0].type = static_cast<OperationType>(102);
  EXPECT_TRUE(isInvalid(model, {"operation 0", "operation type 102 out of range [0, 102)"}));
  model.main.operations[0].type = static_cast<OperationType>(-1);
  EXPECT_TRUE(isInvalid(model, {"operation type -1 out of range"}));
}

TEST(ValidateStructure, UnimplementedOperationsGetGenericChecksOnly) {
  // CONV_2D with nonsense operand counts and types: nnfab does not implement
  // it, so only index ranges and the graph rules apply.
  Model model = singleOp(Op::CONV_2D, {tensor(T::TENSOR_BOOL8, {1})}, {tensor(T::INT32, {})});
  EXPECT_TRUE(isValid(model));
  model.main.operands[1].lifetime = L::CONSTANT_COPY;
  model.main.operands[1].value = int32Bytes({0});
  model.main.outputIndexes.clear();
  EXPECT_TRUE(isInvalid(model, {"operation 0 (CONV_2D), output 0 (operand 1)",
                                "cannot write an operand with lifetime CONSTANT_COPY"}));
}

// a -> ADD -> t -> ADD -> out, with the operations in the given order.
Model chain(bool inOrder) {
  SubgraphBuilder b;
  const uint32_t a = b.input(T::TENSOR_FLOAT32, {2});
  const uint32_t act = b.scalar(0);
  const uint32_t t = b.temp(T::TENSOR_FLOAT32, {2});
  const uint32_t out = b.output(T::TENSOR_FLOAT32, {2});
  Operation first{Op::ADD, {a, a, act}, {t}};
  Operation second{Op::ADD, {t, t, act}, {out}};
  b.sg.operations = inOrder ? std::vector{first, second} : std::vector{second, first};
  Model model;
  model.main = b.sg;
  return model;
}

TEST(ValidateStructure, GraphExecutionOrder) {
  EXPECT_TRUE(isValid(chain(true)));
  EXPECT_TRUE(isInvalid(chain(false), {"subgraph 0 (main), operation 0 (ADD), input 0 (operand 2)",
                                       "read before it is written"}));
}

TEST(ValidateStructure, GraphSelfLoop) {
  Model model = chain(true);
  model.main.operations[0].inputs[1] = 2;  // reads its own output
  EXPECT_TRUE(isInvalid(model, {"operation 0 (ADD), input 1 (operand 2)", "read before"}));
}

TEST(ValidateStructure, GraphAlreadyWritten) {
  Model model = chain(true);
  model.main.operations[1].outputs[0] = 2;
  EXPECT_TRUE(isInvalid(model, {"operation 1 (ADD), output 0 (operand 2)", "already written"}));
}

TEST(ValidateStructure, GraphNeverWritten) {
  Model model = chain(true);
  model.main.operands.push_back(tensor(T::TENSOR_FLOAT32, {2}));  // unused temporary
  EXPECT_TRUE(isInvalid(model, {"subgraph 0 (main), operand 4", "never written"}));
  model = chain(true);
  model.main.operations.pop_back();  // the model output is never produced
  EXPECT_TRUE(isInvalid(model, {"operand 3", "never written (SUBGRAPH_OUTPUT)"}));
}

TEST(ValidateStructure, OutputsMustBeTemporaryOrSubgraphOutput) {
  Model model = chain(true);
  model.main.operations[0].outputs[0] = 0;  // writes the model input
  EXPECT_TRUE(isInvalid(model, {"operation 0 (ADD), output 0 (operand 0)",
                                "cannot write an operand with lifetime SUBGRAPH_INPUT"}));
  Model noValue = chain(true);
  noValue.main.operands[2].lifetime = L::NO_VALUE;
  EXPECT_TRUE(isInvalid(noValue, {"operation 0 (ADD), output 0 (operand 2)", "NO_VALUE"}));
}

TEST(ValidateStructure, GraphErrorsInReferencedSubgraphs) {
  Model model = ifModel();
  model.referenced[1].operands.push_back(tensor(T::TENSOR_FLOAT32, {2}));
  EXPECT_TRUE(isInvalid(model, {"subgraph 2 (referenced[1]), operand 2", "never written"}));
}

TEST(ValidateStructure, UnreferencedSubgraphsAreValidated) {
  Model model = ifModel();
  Subgraph broken = identitySubgraph(T::TENSOR_FLOAT32, {2});
  broken.operations.clear();
  model.referenced.push_back(broken);
  EXPECT_TRUE(isInvalid(model, {"subgraph 3 (referenced[2]), operand 1", "never written"}));
}

TEST(ValidateStructure, LargeFlatModelIsFast) {
  // 100,000 chained ADDs: validation must stay linear.
  constexpr uint32_t kOps = 100000;
  SubgraphBuilder b;
  uint32_t prev = b.input(T::TENSOR_FLOAT32, {4});
  const uint32_t act = b.scalar(0);
  for (uint32_t i = 0; i < kOps; ++i) {
    const uint32_t next =
        i + 1 == kOps ? b.output(T::TENSOR_FLOAT32, {4}) : b.temp(T::TENSOR_FLOAT32, {4});
    b.op(Op::ADD, {prev, prev, act}, {next});
    prev = next;
  }
  Model model;
  model.main = std::move(b.sg);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(isValid(model));
  const auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_LT(elapsed, std::chrono::seconds(5));
}

}  // namespace
}  // namespace nnfab::test
