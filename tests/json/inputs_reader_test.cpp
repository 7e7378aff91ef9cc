// The inputs file: one entry per main input, typed by the model's operand,
// dimensions from the model when left out, {"omitted": true}.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>

#include "json_test_util.h"

namespace nnfab::testing {
namespace {

Model modelOf(std::string_view type, std::string_view dims) {
  auto model = parseModel(modelWithInputAndOutput(type, dims));
  EXPECT_TRUE(parses(model));
  return *model;
}

TEST(InputsReader, TypedByTheModel) {
  const Model model = modelOf("TENSOR_INT32", "[0, 2]");
  const auto inputs =
      parseInputs(R"({"inputs": [{"dimensions": [1, 2], "data": [4, -5]}]})", model);
  ASSERT_TRUE(parses(inputs));
  ASSERT_EQ(inputs->size(), 1u);
  const TensorValue& input = (*inputs)[0];
  EXPECT_EQ(input.type, OperandType::TENSOR_INT32);
  EXPECT_EQ(input.dimensions, (Dimensions{1, 2}));
  EXPECT_EQ(input.data, (std::vector<uint8_t>{4, 0, 0, 0, 0xfb, 0xff, 0xff, 0xff}));
  EXPECT_FALSE(input.omitted);
}

TEST(InputsReader, DimensionsFromAFullySpecifiedModelOperand) {
  const auto inputs =
      parseInputs(R"({"inputs": [{"data": [1.5, 2, 3]}]})", modelOf("TENSOR_FLOAT32", "[3]"));
  ASSERT_TRUE(parses(inputs));
  EXPECT_EQ((*inputs)[0].dimensions, (Dimensions{3}));
  EXPECT_EQ((*inputs)[0].data.size(), 12u);
  const auto scalar = parseInputs(R"({"inputs": [{"data": [7]}]})", modelOf("INT32", "[]"));
  ASSERT_TRUE(parses(scalar));
  EXPECT_TRUE((*scalar)[0].dimensions.empty());
  EXPECT_EQ((*scalar)[0].data, (std::vector<uint8_t>{7, 0, 0, 0}));
}

TEST(InputsReader, DimensionsRequiredOtherwise) {
  EXPECT_TRUE(failsAt(
      parseInputs(R"({"inputs": [{"data": [1]}]})", modelOf("TENSOR_FLOAT32", "[0]")), "inputs[0]",
      R"(missing field "dimensions" (required because main.operands[0] has dimensions [0]))"));
  EXPECT_TRUE(
      failsAt(parseInputs(R"({"inputs": [{"data": [1]}]})", modelOf("TENSOR_FLOAT32", "[]")),
              "inputs[0]", R"(missing field "dimensions")"));
}

TEST(InputsReader, CompatibilityWithTheModelIsTheValidatorsJob) {
  // Rank and sizes differ from the model operand's, but data matches them.
  const auto inputs = parseInputs(R"({"inputs": [{"dimensions": [2, 2], "data": [1, 2, 3, 4]}]})",
                                  modelOf("TENSOR_FLOAT32", "[3]"));
  ASSERT_TRUE(parses(inputs));
  EXPECT_EQ((*inputs)[0].dimensions, (Dimensions{2, 2}));
}

TEST(InputsReader, DataCountMatchesTheGivenDimensions) {
  const Model model = modelOf("TENSOR_FLOAT32", "[0]");
  EXPECT_TRUE(failsAt(parseInputs(R"({"inputs": [{"dimensions": [2], "data": [1, 2, 3]}]})", model),
                      "inputs[0].data", "3 values for dimensions [2], which hold 2 elements"));
  EXPECT_TRUE(
      failsAt(parseInputs(R"({"inputs": [{"dimensions": [65536, 65536], "data": []}]})", model),
              "inputs[0].dimensions", "overflows"));
  const auto empty = parseInputs(R"({"inputs": [{"dimensions": [0, 3], "data": []}]})", model);
  ASSERT_TRUE(parses(empty));
  EXPECT_TRUE((*empty)[0].data.empty());
}

TEST(InputsReader, Omitted) {
  const Model model = modelOf("TENSOR_FLOAT32", "[2]");
  const auto inputs = parseInputs(R"({"inputs": [{"omitted": true}]})", model);
  ASSERT_TRUE(parses(inputs));
  EXPECT_TRUE((*inputs)[0].omitted);
  EXPECT_TRUE((*inputs)[0].data.empty());
  EXPECT_EQ((*inputs)[0].type, OperandType::TENSOR_FLOAT32);
  EXPECT_TRUE(
      failsAt(parseInputs(R"({"inputs": [{"omitted": false}]})", model), "inputs[0].omitted",
              "expected true (an omitted input is exactly {\"omitted\": true}), got false"));
  EXPECT_TRUE(failsAt(parseInputs(R"({"inputs": [{"omitted": 1}]})", model), "inputs[0].omitted",
                      "expected true"));
  EXPECT_TRUE(failsAt(parseInputs(R"({"inputs": [{"omitted": true, "data": []}]})", model),
                      "inputs[0]", "an omitted input is exactly {\"omitted\": true}"));
  EXPECT_TRUE(failsAt(parseInputs(R"({"inputs": [{"dimensions": [2], "omitted": true}]})", model),
                      "inputs[0]", "without other fields"));
  EXPECT_TRUE(failsWith(parseInputs(R"({"inputs": [{"omitted": true, "omitted": true}]})", model),
                        R"(inputs[0]: duplicate key "omitted")"));
}

TEST(InputsReader, BooleansAlsoAsZeroOrOne) {
  const Model model = modelOf("TENSOR_BOOL8", "[4]");
  const auto inputs = parseInputs(R"({"inputs": [{"data": [true, false, 1, 0]}]})", model);
  ASSERT_TRUE(parses(inputs));
  EXPECT_EQ((*inputs)[0].data, (std::vector<uint8_t>{1, 0, 1, 0}));
  EXPECT_TRUE(failsAt(parseInputs(R"({"inputs": [{"data": [true, 2, 1, 0]}]})", model),
                      "inputs[0].data[1]", "expected true, false, 0 or 1 (TENSOR_BOOL8), got 2"));
  EXPECT_TRUE(failsAt(parseInputs(R"({"inputs": [{"data": [true, -0, 1.0, 0]}]})", model),
                      "inputs[0].data[2]", "got 1.0"));
}

TEST(InputsReader, Shape) {
  const Model model = modelOf("TENSOR_FLOAT32", "[1]");
  EXPECT_TRUE(failsAt(parseInputs(R"([])", model), "(root)", "expected an object"));
  EXPECT_TRUE(failsAt(parseInputs(R"({})", model), "(root)", R"(missing field "inputs")"));
  EXPECT_TRUE(failsAt(parseInputs(R"({"inputs": [], "outputs": []})", model), "(root)",
                      R"(unknown field "outputs")"));
  EXPECT_TRUE(failsAt(parseInputs(R"({"inputs": {}})", model), "inputs", "expected an array"));
  EXPECT_TRUE(failsAt(parseInputs(R"({"inputs": []})", model), "inputs",
                      "0 entries, but the model has 1 inputs (main.inputIndexes)"));
  EXPECT_TRUE(failsAt(parseInputs(R"({"inputs": [{"data": [1]}, {"data": [1]}]})", model), "inputs",
                      "2 entries, but the model has 1 inputs"));
  EXPECT_TRUE(
      failsAt(parseInputs(R"({"inputs": [[1]]})", model), "inputs[0]", "expected an object"));
  EXPECT_TRUE(
      failsAt(parseInputs(R"({"inputs": [{"data": [1], "type": "TENSOR_FLOAT32"}]})", model),
              "inputs[0]", R"(unknown field "type")"));
  EXPECT_TRUE(
      failsAt(parseInputs(R"({"inputs": [{}]})", model), "inputs[0]", R"(missing field "data")"));
  EXPECT_TRUE(failsAt(parseInputs(R"({"inputs": [{"data": ["x"]}]})", model), "inputs[0].data[0]",
                      "expected a number"));
  EXPECT_TRUE(failsAt(parseInputs(R"({"inputs": [{"dimensions": [-1], "data": []}]})", model),
                      "inputs[0].dimensions[0]", "expected a non-negative integer"));
  EXPECT_TRUE(failsWith(parseInputs(R"({"inputs": [], "inputs": []})", model),
                        R"((root): duplicate key "inputs")"));
}

TEST(InputsReader, AModelThatWasNotValidated) {
  // parseInputs takes any Model; bad indexes are errors, not crashes.
  Model model = modelOf("TENSOR_FLOAT32", "[1]");
  model.main.inputIndexes = {7};
  EXPECT_TRUE(failsAt(parseInputs(R"({"inputs": [{"data": [1]}]})", model), "inputs[0]",
                      "main.inputIndexes[0] = 7 is out of range (2 operands)"));
  model.main.inputIndexes = {0};
  model.main.operands[0].type = OperandType::SUBGRAPH;
  EXPECT_TRUE(failsAt(parseInputs(R"({"inputs": [{"data": [1]}]})", model), "inputs[0]",
                      "main.operands[0] has type SUBGRAPH"));
  EXPECT_TRUE(failsAt(parseInputs(R"({"inputs": [{"data": []}]})", Model{}), "inputs",
                      "the model has 0 inputs"));
}

}  // namespace
}  // namespace nnfab::testing
