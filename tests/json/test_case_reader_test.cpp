// The conformance test-case file: model, inputs, expected outputs typed by
// the main outputs, flags.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>

#include "json_test_util.h"

namespace nnfab::testing {
namespace {

std::string testCase(std::string_view type, std::string_view inputs, std::string_view outputs,
                     std::string_view extra = R"("expectFailure": false, "isRelaxed": false)") {
  return fmt::format(
      R"({{"name": "n", "source": "V1_3/s", "model": {}, "inputs": {}, "outputs": {}, {}}})",
      modelWithInputAndOutput(type, "[2]"), inputs, outputs, extra);
}

TEST(TestCaseReader, ReadsEverything) {
  const auto test =
      parseTestCase(testCase("TENSOR_FLOAT32", R"([{"dimensions": [2], "data": [1, 2]}])",
                             R"([{"dimensions": [2], "data": [0.5, "NaN"], "ignored": true}])",
                             R"("expectFailure": true, "isRelaxed": true)"));
  ASSERT_TRUE(parses(test));
  EXPECT_EQ(test->name, "n");
  EXPECT_EQ(test->source, "V1_3/s");
  EXPECT_EQ(test->model.main.operands.size(), 2u);
  ASSERT_EQ(test->inputs.size(), 1u);
  EXPECT_EQ(test->inputs[0].type, OperandType::TENSOR_FLOAT32);
  ASSERT_EQ(test->outputs.size(), 1u);
  EXPECT_EQ(test->outputs[0].value.type, OperandType::TENSOR_FLOAT32);
  EXPECT_EQ(test->outputs[0].value.dimensions, (Dimensions{2}));
  EXPECT_EQ(test->outputs[0].value.data.size(), 8u);
  EXPECT_TRUE(test->outputs[0].ignored);
  EXPECT_TRUE(test->expectFailure);
  EXPECT_TRUE(test->isRelaxed);
}

TEST(TestCaseReader, OutputsAreTypedByTheMainOutputs) {
  const auto test =
      parseTestCase(testCase("TENSOR_BOOL8", R"([{"dimensions": [2], "data": [1, false]}])",
                             R"([{"dimensions": [2], "data": [true, false], "ignored": false}])"));
  ASSERT_TRUE(parses(test));
  EXPECT_EQ(test->outputs[0].value.data, (std::vector<uint8_t>{1, 0}));
  // 0/1 are for inputs only.
  EXPECT_TRUE(
      failsAt(parseTestCase(testCase("TENSOR_BOOL8", R"([{"dimensions": [2], "data": [1, 0]}])",
                                     R"([{"dimensions": [2], "data": [1, 0], "ignored": false}])")),
              "outputs[0].data[0]", "expected true or false (TENSOR_BOOL8), got 1"));
  EXPECT_TRUE(failsAt(
      parseTestCase(testCase("TENSOR_INT32", R"([{"dimensions": [2], "data": [1, 0]}])",
                             R"([{"dimensions": [2], "data": [1, 0.5], "ignored": false}])")),
      "outputs[0].data[1]", "expected an integer (TENSOR_INT32)"));
}

TEST(TestCaseReader, OutputShape) {
  const std::string in = R"([{"dimensions": [2], "data": [1, 2]}])";
  EXPECT_TRUE(failsAt(parseTestCase(testCase("TENSOR_FLOAT32", in, "[]")), "outputs",
                      "0 entries, but the model has 1 outputs (main.outputIndexes)"));
  EXPECT_TRUE(failsAt(
      parseTestCase(testCase("TENSOR_FLOAT32", in, R"([{"dimensions": [2], "data": [1, 2]}])")),
      "outputs[0]", R"(missing field "ignored")"));
  EXPECT_TRUE(failsAt(
      parseTestCase(testCase("TENSOR_FLOAT32", in, R"([{"data": [1, 2], "ignored": false}])")),
      "outputs[0]", R"(missing field "dimensions")"));
  EXPECT_TRUE(
      failsAt(parseTestCase(testCase("TENSOR_FLOAT32", in,
                                     R"([{"dimensions": [3], "data": [1, 2], "ignored": false}])")),
              "outputs[0].data", "2 values for dimensions [3], which hold 3 elements"));
  EXPECT_TRUE(
      failsAt(parseTestCase(testCase("TENSOR_FLOAT32", in,
                                     R"([{"dimensions": [2], "data": [1, 2], "ignored": 0}])")),
              "outputs[0].ignored", "expected true or false"));
  EXPECT_TRUE(
      failsAt(parseTestCase(testCase(
                  "TENSOR_FLOAT32", in,
                  R"([{"dimensions": [2], "data": [1, 2], "ignored": false, "tolerance": 1}])")),
              "outputs[0]", R"(unknown field "tolerance")"));
  EXPECT_TRUE(
      failsAt(parseTestCase(testCase(
                  "TENSOR_FLOAT32", in,
                  R"([{"dimensions": [2], "data": [1, 2], "ignored": false, "ignored": true}])")),
              "outputs[0]", R"(duplicate key "ignored")"));
}

TEST(TestCaseReader, PathsThroughTheWholeFile) {
  const std::string out = R"([{"dimensions": [2], "data": [1, 2], "ignored": false}])";
  EXPECT_TRUE(failsAt(
      parseTestCase(testCase("TENSOR_FLOAT32", R"([{"dimensions": [2], "data": [1, "x"]}])", out)),
      "inputs[0].data[1]", "expected a number"));
  EXPECT_TRUE(failsAt(parseTestCase(testCase("TENSOR_FLOAT32", "[]", out)), "inputs",
                      "0 entries, but the model has 1 inputs"));
  EXPECT_TRUE(failsAt(parseTestCase(testCase("TENSOR_FLOAT64", "[]", out)),
                      "model.main.operands[0].type", "unknown operand type"));
  EXPECT_TRUE(failsAt(parseTestCase(testCase("TENSOR_FLOAT32", R"([{"omitted": true}])", out,
                                             R"("expectFailure": "no", "isRelaxed": false)")),
                      "expectFailure", "expected true or false"));
  EXPECT_TRUE(parses(parseTestCase(testCase("TENSOR_FLOAT32", R"([{"omitted": true}])", out))));
}

TEST(TestCaseReader, RequiredAndUnknownFields) {
  const std::string in = R"([{"dimensions": [2], "data": [1, 2]}])";
  const std::string out = R"([{"dimensions": [2], "data": [1, 2], "ignored": false}])";
  EXPECT_TRUE(
      failsAt(parseTestCase(testCase("TENSOR_FLOAT32", in, out, R"("expectFailure": false)")),
              "(root)", R"(missing field "isRelaxed")"));
  EXPECT_TRUE(
      failsAt(parseTestCase(testCase("TENSOR_FLOAT32", in, out,
                                     R"("expectFailure": false, "isRelaxed": false, "extra": 1)")),
              "(root)", R"(unknown field "extra")"));
  EXPECT_TRUE(failsAt(parseTestCase(R"({"name": 1})"), "name", "expected a string, got 1"));
  EXPECT_TRUE(failsAt(parseTestCase(R"({"name": "x"})"), "(root)", R"(missing field "source")"));
}

}  // namespace
}  // namespace nnfab::testing
