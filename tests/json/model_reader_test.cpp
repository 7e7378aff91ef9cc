// The model reader's strictness: every rule of the format is an
// INVALID_ARGUMENT whose message starts with the JSON path.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>

#include "json_test_util.h"

namespace nnfab::testing {
namespace {

// A subgraph with `count` TEMPORARY_VARIABLE TENSOR_FLOAT32 operands.
std::string subgraphJson(size_t count, std::string_view operations = "[]",
                         std::string_view inputs = "[]", std::string_view outputs = "[]") {
  std::string operands;
  for (size_t i = 0; i < count; ++i) {
    operands += fmt::format(
        R"({}{{"type": "TENSOR_FLOAT32", "dimensions": [1], "lifetime": "TEMPORARY_VARIABLE"}})",
        i > 0 ? ", " : "");
  }
  return fmt::format(
      R"({{"operands": [{}], "operations": {}, "inputIndexes": {}, "outputIndexes": {}}})",
      operands, operations, inputs, outputs);
}

std::string operand(std::string_view fields) {
  return modelWithOperand("{" + std::string(fields) + "}");
}

TEST(ModelReader, ReadsAWholeModel) {
  const auto model = parseModel(R"({
    "main": {
      "operands": [
        {"type": "SUBGRAPH", "dimensions": [], "lifetime": "SUBGRAPH", "value": 0},
        {"type": "TENSOR_FLOAT32", "dimensions": [1, 2], "scale": 0.5, "zeroPoint": 3, "lifetime": "CONSTANT_COPY", "value": [1, 2.5]},
        {"type": "TENSOR_BOOL8", "dimensions": [0], "lifetime": "SUBGRAPH_INPUT"},
        {"type": "TENSOR_INT32", "dimensions": [], "lifetime": "SUBGRAPH_OUTPUT"},
        {"type": "TENSOR_QUANT8_SYMM_PER_CHANNEL", "dimensions": [2], "lifetime": "CONSTANT_REFERENCE", "value": [-128, 127],
         "channelQuant": {"scales": [0.5, 0.25], "channelDim": 0}},
        {"type": "TENSOR_FLOAT32", "dimensions": [1], "lifetime": "NO_VALUE"}
      ],
      "operations": [{"type": "WHILE", "inputs": [0, 0, 2], "outputs": [3]}],
      "inputIndexes": [2],
      "outputIndexes": [3]
    },
    "referenced": [{"operands": [], "operations": [], "inputIndexes": [], "outputIndexes": []}],
    "relaxComputationFloat32toFloat16": true
  })");
  ASSERT_TRUE(parses(model));
  const Subgraph& main = model->main;
  ASSERT_EQ(main.operands.size(), 6u);
  EXPECT_EQ(main.operands[0].type, OperandType::SUBGRAPH);
  EXPECT_EQ(main.operands[0].lifetime, OperandLifeTime::SUBGRAPH);
  EXPECT_EQ(main.operands[0].subgraph, 0u);
  EXPECT_EQ(main.operands[1].dimensions, (Dimensions{1, 2}));
  EXPECT_EQ(main.operands[1].scale, 0.5f);
  EXPECT_EQ(main.operands[1].zeroPoint, 3);
  EXPECT_EQ(main.operands[1].value,
            (std::vector<uint8_t>{0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x20, 0x40}));
  EXPECT_EQ(main.operands[2].dimensions, (Dimensions{0}));
  EXPECT_TRUE(main.operands[3].dimensions.empty());
  EXPECT_EQ(main.operands[4].value, (std::vector<uint8_t>{0x80, 0x7f}));
  ASSERT_TRUE(main.operands[4].channelQuant.has_value());
  EXPECT_EQ(main.operands[4].channelQuant->scales, (std::vector<float>{0.5f, 0.25f}));
  EXPECT_EQ(main.operands[4].channelQuant->channelDim, 0u);
  EXPECT_FALSE(main.operands[1].channelQuant.has_value());
  EXPECT_EQ(main.operands[5].lifetime, OperandLifeTime::NO_VALUE);
  ASSERT_EQ(main.operations.size(), 1u);
  EXPECT_EQ(main.operations[0].type, OperationType::WHILE);
  EXPECT_EQ(main.operations[0].inputs, (std::vector<uint32_t>{0, 0, 2}));
  EXPECT_EQ(main.inputIndexes, (std::vector<uint32_t>{2}));
  EXPECT_EQ(main.outputIndexes, (std::vector<uint32_t>{3}));
  EXPECT_EQ(model->referenced.size(), 1u);
  EXPECT_TRUE(model->relaxComputationFloat32toFloat16);
}

TEST(ModelReader, OptionalFieldsDefault) {
  const auto model = parseModel(R"({"main": )" + subgraphJson(1) + "}");
  ASSERT_TRUE(parses(model));
  EXPECT_TRUE(model->referenced.empty());
  EXPECT_FALSE(model->relaxComputationFloat32toFloat16);
  EXPECT_EQ(model->main.operands[0].scale, 0.0f);
  EXPECT_EQ(model->main.operands[0].zeroPoint, 0);
  EXPECT_TRUE(parses(parseModel(R"({"main": )" + subgraphJson(1) + R"(, "referenced": []})")));
}

TEST(ModelReader, EveryNameIsKnown) {
  for (int32_t i = 0; i < kNumberOfOperationTypes; ++i) {
    const auto name = toString(static_cast<OperationType>(i));
    const auto model = parseModel(
        R"({"main": )" +
        subgraphJson(1, fmt::format(R"([{{"type": "{}", "inputs": [0], "outputs": [0]}}])", name)) +
        "}");
    ASSERT_TRUE(parses(model)) << name;
    EXPECT_EQ(model->main.operations[0].type, static_cast<OperationType>(i));
  }
  for (int32_t i = 0; i <= 15; ++i) {
    const auto type = static_cast<OperandType>(i);
    const std::string dims = isScalarType(type) ? "[]" : "[1]";
    const auto model = parseModel(
        operand(fmt::format(R"("type": "{}", "dimensions": {}, "lifetime": "TEMPORARY_VARIABLE")",
                            toString(type), dims)));
    ASSERT_TRUE(parses(model)) << toString(type);
    EXPECT_EQ(model->main.operands[0].type, type);
  }
  for (int32_t i = 0; i <= 6; ++i) {
    const auto lifetime = static_cast<OperandLifeTime>(i);
    const std::string value = lifetime == OperandLifeTime::SUBGRAPH ? R"(, "value": 0)"
                              : lifetime == OperandLifeTime::CONSTANT_COPY ||
                                      lifetime == OperandLifeTime::CONSTANT_REFERENCE
                                  ? R"(, "value": [0])"
                                  : "";
    const auto model = parseModel(fmt::format(
        R"({{"main": {{"operands": [{{"type": "TENSOR_INT32", "dimensions": [1], "lifetime": "{}"{}}}], "operations": [],)"
        R"( "inputIndexes": [], "outputIndexes": []}}, "referenced": [{}]}})",
        toString(lifetime), value, subgraphJson(0)));
    ASSERT_TRUE(parses(model)) << toString(lifetime);
    EXPECT_EQ(model->main.operands[0].lifetime, lifetime);
  }
}

TEST(ModelReader, UnknownNames) {
  EXPECT_TRUE(failsAt(
      parseModel(operand(R"("type": "TENSOR_FLOAT64", "dimensions": [1], "lifetime": "NO_VALUE")")),
      "main.operands[0].type", R"(unknown operand type "TENSOR_FLOAT64")"));
  EXPECT_TRUE(failsAt(
      parseModel(operand(R"("type": "tensor_float32", "dimensions": [1], "lifetime": "NO_VALUE")")),
      "main.operands[0].type", "unknown operand type"));
  EXPECT_TRUE(failsAt(
      parseModel(
          operand(R"("type": "TENSOR_FLOAT32", "dimensions": [1], "lifetime": "MODEL_INPUT")")),
      "main.operands[0].lifetime", R"(unknown lifetime "MODEL_INPUT")"));
  EXPECT_TRUE(failsAt(
      parseModel(R"({"main": )" +
                 subgraphJson(1, R"([{"type": "CONV_3D", "inputs": [], "outputs": []}])") + "}"),
      "main.operations[0].type", R"(unknown operation type "CONV_3D")"));
}

TEST(ModelReader, UnknownFieldsAtEveryLevel) {
  EXPECT_TRUE(failsAt(parseModel(R"({"main": )" + subgraphJson(0) + R"(, "version": 3})"), "(root)",
                      R"(unknown field "version")"));
  EXPECT_TRUE(failsAt(
      parseModel(
          R"({"main": {"operands": [], "operations": [], "inputIndexes": [], "outputIndexes": [], "x": 1}})"),
      "main", R"(unknown field "x")"));
  EXPECT_TRUE(failsAt(
      parseModel(
          operand(R"("type": "INT32", "dimensions": [], "lifetime": "NO_VALUE", "location": 0)")),
      "main.operands[0]", R"(unknown field "location")"));
  EXPECT_TRUE(failsAt(
      parseModel(R"({"main": )" +
                 subgraphJson(1, R"([{"type": "ADD", "inputs": [], "outputs": [], "fused": 0}])") +
                 "}"),
      "main.operations[0]", R"(unknown field "fused")"));
  EXPECT_TRUE(failsAt(
      parseModel(operand(
          R"("type": "TENSOR_QUANT8_SYMM_PER_CHANNEL", "dimensions": [1], "lifetime": "NO_VALUE",
                                            "channelQuant": {"scales": [1], "channelDim": 0, "zeroPoints": []})")),
      "main.operands[0].channelQuant", R"(unknown field "zeroPoints")"));
  EXPECT_TRUE(failsAt(
      parseModel(
          R"({"main": )" + subgraphJson(0) +
          R"(, "referenced": [{"operands": [], "operations": [], "inputIndexes": [], "outputIndexes": [], "name": ""}]})"),
      "referenced[0]", R"(unknown field "name")"));
}

TEST(ModelReader, MissingFields) {
  EXPECT_TRUE(failsAt(parseModel("{}"), "(root)", R"(missing field "main")"));
  EXPECT_TRUE(
      failsAt(parseModel(R"({"main": {"operands": [], "operations": [], "inputIndexes": []}})"),
              "main", R"(missing field "outputIndexes")"));
  EXPECT_TRUE(failsAt(parseModel(operand(R"("dimensions": [1], "lifetime": "NO_VALUE")")),
                      "main.operands[0]", R"(missing field "type")"));
  EXPECT_TRUE(failsAt(parseModel(operand(R"("type": "INT32", "lifetime": "NO_VALUE")")),
                      "main.operands[0]", R"(missing field "dimensions")"));
  EXPECT_TRUE(failsAt(parseModel(operand(R"("type": "INT32", "dimensions": [])")),
                      "main.operands[0]", R"(missing field "lifetime")"));
  EXPECT_TRUE(failsAt(
      parseModel(R"({"main": )" + subgraphJson(1, R"([{"type": "ADD", "inputs": []}])") + "}"),
      "main.operations[0]", R"(missing field "outputs")"));
  EXPECT_TRUE(failsAt(
      parseModel(operand(
          R"("type": "TENSOR_QUANT8_SYMM_PER_CHANNEL", "dimensions": [1], "lifetime": "NO_VALUE",
                                            "channelQuant": {"scales": [1]})")),
      "main.operands[0].channelQuant", R"(missing field "channelDim")"));
}

TEST(ModelReader, WrongJsonTypes) {
  EXPECT_TRUE(failsAt(parseModel("[]"), "(root)", "expected an object, got an array"));
  EXPECT_TRUE(failsAt(parseModel("null"), "(root)", "expected an object, got null"));
  EXPECT_TRUE(failsAt(parseModel(R"({"main": []})"), "main", "expected an object"));
  EXPECT_TRUE(failsAt(
      parseModel(
          R"({"main": {"operands": {}, "operations": [], "inputIndexes": [], "outputIndexes": []}})"),
      "main.operands", "expected an array, got an object"));
  EXPECT_TRUE(failsAt(
      parseModel(
          R"({"main": {"operands": [1], "operations": [], "inputIndexes": [], "outputIndexes": []}})"),
      "main.operands[0]", "expected an object, got 1"));
  EXPECT_TRUE(failsAt(parseModel(R"({"main": )" + subgraphJson(0) + R"(, "referenced": {}})"),
                      "referenced", "expected an array"));
  EXPECT_TRUE(failsAt(
      parseModel(R"({"main": )" + subgraphJson(0) + R"(, "relaxComputationFloat32toFloat16": 0})"),
      "relaxComputationFloat32toFloat16", "expected true or false, got 0"));
  EXPECT_TRUE(
      failsAt(parseModel(operand(R"("type": 3, "dimensions": [1], "lifetime": "NO_VALUE")")),
              "main.operands[0].type", "expected a string, got 3"));
  EXPECT_TRUE(
      failsAt(parseModel(operand(R"("type": "INT32", "dimensions": 1, "lifetime": "NO_VALUE")")),
              "main.operands[0].dimensions", "expected an array, got 1"));
  EXPECT_TRUE(failsAt(
      parseModel(
          operand(R"("type": "INT32", "dimensions": [], "scale": "0", "lifetime": "NO_VALUE")")),
      "main.operands[0].scale", R"(got the string "0")"));
  EXPECT_TRUE(failsAt(
      parseModel(operand(
          R"("type": "INT32", "dimensions": [], "zeroPoint": 0.0, "lifetime": "NO_VALUE")")),
      "main.operands[0].zeroPoint", "expected an integer, got 0.0"));
  EXPECT_TRUE(failsAt(
      parseModel(operand(
          R"("type": "INT32", "dimensions": [], "zeroPoint": 2147483648, "lifetime": "NO_VALUE")")),
      "main.operands[0].zeroPoint", "2147483648 is out of range [-2147483648, 2147483647]"));
  EXPECT_TRUE(parses(parseModel(operand(
      R"("type": "INT32", "dimensions": [], "zeroPoint": -2147483648, "lifetime": "NO_VALUE")"))));
  EXPECT_TRUE(failsAt(
      parseModel(operand(
          R"("type": "TENSOR_QUANT8_SYMM_PER_CHANNEL", "dimensions": [1], "lifetime": "NO_VALUE",
                                            "channelQuant": {"scales": [true], "channelDim": 0})")),
      "main.operands[0].channelQuant.scales[0]", "got true"));
  EXPECT_TRUE(failsAt(
      parseModel(operand(
          R"("type": "TENSOR_QUANT8_SYMM_PER_CHANNEL", "dimensions": [1], "lifetime": "NO_VALUE",
                                            "channelQuant": {"scales": [1], "channelDim": -1})")),
      "main.operands[0].channelQuant.channelDim", "expected a non-negative integer, got -1"));
}

TEST(ModelReader, Dimensions) {
  const auto withDims = [](std::string_view dims) {
    return parseModel(operand(fmt::format(
        R"("type": "TENSOR_FLOAT32", "dimensions": {}, "lifetime": "TEMPORARY_VARIABLE")", dims)));
  };
  EXPECT_TRUE(failsAt(withDims("[1, -1]"), "main.operands[0].dimensions[1]",
                      "expected a non-negative integer, got -1"));
  EXPECT_TRUE(failsAt(withDims("[1, 2.0]"), "main.operands[0].dimensions[1]",
                      "expected a non-negative integer, got 2.0"));
  EXPECT_TRUE(failsAt(withDims("[1, \"2\"]"), "main.operands[0].dimensions[1]",
                      "expected a non-negative integer"));
  EXPECT_TRUE(failsAt(withDims("[null]"), "main.operands[0].dimensions[0]",
                      "expected a non-negative integer, got null"));
  EXPECT_TRUE(failsAt(withDims("[4294967296]"), "main.operands[0].dimensions[0]",
                      "4294967296 is out of range (max 4294967295)"));
  EXPECT_TRUE(failsAt(withDims("[65536, 65536]"), "main.operands[0].dimensions",
                      "element count of [65536, 65536] overflows"));
  EXPECT_TRUE(parses(withDims("[4294967295]")));
  EXPECT_TRUE(parses(withDims("[0, 65536, 65536]")));  // unknown size: nothing to count yet
  EXPECT_TRUE(parses(withDims("[]")));                 // unknown rank
  // Scalar types have no dimensions.
  EXPECT_TRUE(failsAt(
      parseModel(
          operand(R"("type": "INT32", "dimensions": [1], "lifetime": "TEMPORARY_VARIABLE")")),
      "main.operands[0].dimensions", "INT32 is a scalar type, its dimensions are []"));
}

TEST(ModelReader, IndexesInRange) {
  // 7 operands, 3 operations; the third reads operand 9.
  const std::string ops = R"([{"type": "ADD", "inputs": [0, 1], "outputs": [2]},
                              {"type": "ADD", "inputs": [0, 1], "outputs": [3]},
                              {"type": "ADD", "inputs": [0, 9], "outputs": [4]}])";
  EXPECT_TRUE(failsAt(parseModel(R"({"main": )" + subgraphJson(0) + R"(, "referenced": [)" +
                                 subgraphJson(7, ops) + "]}"),
                      "referenced[0].operations[2].inputs[1]",
                      "operand index 9 out of range (7 operands)"));
  EXPECT_EQ(parseModel(R"({"main": )" + subgraphJson(0) + R"(, "referenced": [)" +
                       subgraphJson(7, ops) + "]}")
                .status()
                .message(),
            "referenced[0].operations[2].inputs[1]: operand index 9 out of range (7 operands)");
  EXPECT_TRUE(failsAt(
      parseModel(R"({"main": )" +
                 subgraphJson(2, R"([{"type": "ADD", "inputs": [0], "outputs": [2]}])") + "}"),
      "main.operations[0].outputs[0]", "operand index 2 out of range (2 operands)"));
  EXPECT_TRUE(failsAt(parseModel(R"({"main": )" + subgraphJson(2, "[]", "[0, 2]") + "}"),
                      "main.inputIndexes[1]", "operand index 2 out of range (2 operands)"));
  EXPECT_TRUE(failsAt(parseModel(R"({"main": )" + subgraphJson(2, "[]", "[]", "[5]") + "}"),
                      "main.outputIndexes[0]", "operand index 5 out of range (2 operands)"));
  EXPECT_TRUE(failsAt(parseModel(R"({"main": )" + subgraphJson(2, "[]", "[-1]") + "}"),
                      "main.inputIndexes[0]", "expected a non-negative integer, got -1"));
  EXPECT_TRUE(failsAt(
      parseModel(R"({"main": )" +
                 subgraphJson(0, R"([{"type": "ADD", "inputs": [0], "outputs": []}])") + "}"),
      "main.operations[0].inputs[0]", "operand index 0 out of range (0 operands)"));
}

TEST(ModelReader, SubgraphValues) {
  const auto withSubgraph = [](std::string_view value, size_t referencedCount) {
    std::string referenced;
    for (size_t i = 0; i < referencedCount; ++i)
      referenced += (i > 0 ? ", " : "") + subgraphJson(0);
    return parseModel(fmt::format(
        R"({{"main": {{"operands": [{{"type": "SUBGRAPH", "dimensions": [], "lifetime": "SUBGRAPH", "value": {}}}],)"
        R"( "operations": [], "inputIndexes": [], "outputIndexes": []}}, "referenced": [{}]}})",
        value, referenced));
  };
  EXPECT_TRUE(parses(withSubgraph("1", 2)));
  EXPECT_EQ(withSubgraph("1", 2)->main.operands[0].subgraph, 1u);
  EXPECT_TRUE(failsAt(withSubgraph("2", 2), "main.operands[0].value",
                      "subgraph index 2 out of range (2 referenced subgraphs)"));
  EXPECT_TRUE(failsAt(withSubgraph("0", 0), "main.operands[0].value",
                      "subgraph index 0 out of range (0 referenced subgraphs)"));
  EXPECT_TRUE(failsAt(withSubgraph("[0]", 1), "main.operands[0].value",
                      "expected a non-negative integer, got an array"));
  EXPECT_TRUE(
      failsAt(withSubgraph("-1", 1), "main.operands[0].value", "expected a non-negative integer"));
  // A referenced subgraph may refer to another one (or itself: the validator
  // finds cycles).
  const std::string inner =
      R"({"operands": [{"type": "SUBGRAPH", "dimensions": [], "lifetime": "SUBGRAPH", "value": 3}],
                                "operations": [], "inputIndexes": [], "outputIndexes": []})";
  EXPECT_TRUE(failsAt(
      parseModel(R"({"main": )" + subgraphJson(0) + R"(, "referenced": [)" + inner + "]}"),
      "referenced[0].operands[0].value", "subgraph index 3 out of range (1 referenced subgraphs)"));
}

TEST(ModelReader, ValuePresentExactlyForConstantsAndSubgraphs) {
  EXPECT_TRUE(failsAt(
      parseModel(
          operand(R"("type": "TENSOR_INT32", "dimensions": [1], "lifetime": "CONSTANT_COPY")")),
      "main.operands[0]", R"(missing field "value" (required with lifetime CONSTANT_COPY))"));
  EXPECT_TRUE(failsAt(
      parseModel(operand(
          R"("type": "TENSOR_INT32", "dimensions": [1], "lifetime": "CONSTANT_REFERENCE")")),
      "main.operands[0]", "required with lifetime CONSTANT_REFERENCE"));
  EXPECT_TRUE(failsAt(
      parseModel(
          R"({"main": {"operands": [{"type": "SUBGRAPH", "dimensions": [], "lifetime": "SUBGRAPH"}],
                                   "operations": [], "inputIndexes": [], "outputIndexes": []}})"),
      "main.operands[0]", "required with lifetime SUBGRAPH"));
  for (const char* lifetime :
       {"TEMPORARY_VARIABLE", "SUBGRAPH_INPUT", "SUBGRAPH_OUTPUT", "NO_VALUE"}) {
    EXPECT_TRUE(
        failsAt(parseModel(operand(fmt::format(
                    R"("type": "TENSOR_INT32", "dimensions": [1], "lifetime": "{}", "value": [1])",
                    lifetime))),
                "main.operands[0].value", fmt::format("not allowed with lifetime {}", lifetime)));
  }
}

TEST(ModelReader, ConstantsAreFullySpecified) {
  EXPECT_TRUE(failsAt(parseModel(modelWithConstant("TENSOR_INT32", "[]", "[1]")),
                      "main.operands[0].dimensions",
                      "a constant needs fully specified dimensions, got []"));
  EXPECT_TRUE(failsAt(parseModel(modelWithConstant("TENSOR_INT32", "[2, 0]", "[]")),
                      "main.operands[0].dimensions",
                      "a constant needs fully specified dimensions, got [2, 0]"));
  EXPECT_TRUE(failsAt(parseModel(modelWithConstant("INT32", "[1]", "[1]")),
                      "main.operands[0].dimensions", "scalar type"));
  EXPECT_TRUE(parses(parseModel(modelWithConstant("INT32", "[]", "[1]"))));
  EXPECT_TRUE(failsAt(
      parseModel(
          R"({"main": {"operands": [{"type": "SUBGRAPH", "dimensions": [], "lifetime": "CONSTANT_COPY", "value": [0]}],
                                   "operations": [], "inputIndexes": [], "outputIndexes": []}})"),
      "main.operands[0].lifetime", "a SUBGRAPH operand cannot have lifetime CONSTANT_COPY"));
}

TEST(ModelReader, ValueCountMatchesDimensions) {
  EXPECT_TRUE(failsAt(parseModel(modelWithConstant("TENSOR_FLOAT32", "[1, 2]", "[1, 2, 3]")),
                      "main.operands[0].value",
                      "3 values for dimensions [1, 2], which hold 2 elements"));
  EXPECT_TRUE(failsAt(parseModel(modelWithConstant("TENSOR_FLOAT32", "[2, 2]", "[1]")),
                      "main.operands[0].value",
                      "1 values for dimensions [2, 2], which hold 4 elements"));
  EXPECT_TRUE(failsAt(parseModel(modelWithConstant("INT32", "[]", "[]")), "main.operands[0].value",
                      "0 values for dimensions [], which hold 1 element"));
  EXPECT_TRUE(failsAt(parseModel(modelWithConstant("INT32", "[]", "5")), "main.operands[0].value",
                      "expected an array, got 5"));
  EXPECT_TRUE(failsAt(parseModel(modelWithConstant("TENSOR_INT32", "[2]", "[[1], [2]]")),
                      "main.operands[0].value[0]",
                      "expected an integer (TENSOR_INT32), got an array"));
}

TEST(ModelReader, ChannelQuantOnlyOnPerChannelType) {
  EXPECT_TRUE(failsAt(
      parseModel(operand(R"("type": "TENSOR_QUANT8_SYMM", "dimensions": [1], "lifetime": "NO_VALUE",
                                            "channelQuant": {"scales": [1], "channelDim": 0})")),
      "main.operands[0].channelQuant",
      "only allowed on TENSOR_QUANT8_SYMM_PER_CHANNEL operands, not TENSOR_QUANT8_SYMM"));
  const auto model = parseModel(operand(
      R"("type": "TENSOR_QUANT8_SYMM_PER_CHANNEL", "dimensions": [2, 3], "lifetime": "NO_VALUE",
                                           "channelQuant": {"scales": [0.5, "Infinity", 2], "channelDim": 1})"));
  ASSERT_TRUE(parses(model));
  EXPECT_EQ(model->main.operands[0].channelQuant->scales,
            (std::vector<float>{0.5f, std::numeric_limits<float>::infinity(), 2.0f}));
  EXPECT_EQ(model->main.operands[0].channelQuant->channelDim, 1u);
  // Optional even on the per-channel type (the validator wants it).
  EXPECT_TRUE(parses(parseModel(operand(
      R"("type": "TENSOR_QUANT8_SYMM_PER_CHANNEL", "dimensions": [1], "lifetime": "NO_VALUE")"))));
}

TEST(ModelReader, ErrorsInMainComeBeforeReferenced) {
  const std::string bad =
      R"({"operands": [1], "operations": [], "inputIndexes": [], "outputIndexes": []})";
  EXPECT_TRUE(failsAt(parseModel(R"({"referenced": [)" + bad + R"(], "main": )" + bad + "}"),
                      "main.operands[0]", "expected an object"));
}

}  // namespace
}  // namespace nnfab::testing
