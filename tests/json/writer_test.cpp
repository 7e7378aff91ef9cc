// The writers: the result's exact shape and key order, value spellings, and
// models/inputs that read back to what was written.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "json_test_util.h"
#include "model/json_float16.h"

namespace nnfab::testing {
namespace {

template <typename T>
TensorValue tensor(OperandType type, Dimensions dims, const std::vector<T>& values) {
  TensorValue t;
  t.type = type;
  t.dimensions = std::move(dims);
  t.data.resize(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(t.data.data(), values.data(), t.data.size());
  return t;
}

ExecutionResult success(std::vector<TensorValue> outputs) {
  ExecutionResult result;
  result.outputs = std::move(outputs);
  return result;
}

TEST(WriteResult, SuccessWithTiming) {
  ExecutionResult result =
      success({tensor<float>(OperandType::TENSOR_FLOAT32, {1, 2}, {5.0f, 8.0f})});
  result.timing.onDeviceNs = 1234;
  result.timing.inDriverNs = 5678;
  EXPECT_EQ(writeResult(result),
            R"({"status": "NO_ERROR", "outputs": [{"dimensions": [1, 2], "data": [5.0, 8.0]}], )"
            R"("timing": {"onDeviceNs": 1234, "inDriverNs": 5678}})"
            "\n");
}

TEST(WriteResult, TimingOnlyWithTheFieldsThatAreSet) {
  ExecutionResult result = success({});
  EXPECT_EQ(writeResult(result), "{\"status\": \"NO_ERROR\", \"outputs\": []}\n");
  result.timing.inDriverNs = 7;
  EXPECT_EQ(writeResult(result),
            "{\"status\": \"NO_ERROR\", \"outputs\": [], \"timing\": {\"inDriverNs\": 7}}\n");
  result.timing = {};
  result.timing.onDeviceNs = UINT64_MAX;
  EXPECT_EQ(writeResult(result),
            "{\"status\": \"NO_ERROR\", \"outputs\": [], \"timing\": {\"onDeviceNs\": "
            "18446744073709551615}}\n");
}

TEST(WriteResult, ScalarZeroSizedAndEveryType) {
  const ExecutionResult result = success({
      tensor<int32_t>(OperandType::INT32, {}, {-7}),
      tensor<float>(OperandType::TENSOR_FLOAT32, {0, 3}, {}),
      tensor<uint8_t>(OperandType::TENSOR_BOOL8, {3}, {1, 0, 1}),
      tensor<uint8_t>(OperandType::BOOL, {}, {0}),
      tensor<float>(
          OperandType::TENSOR_FLOAT32, {5},
          {0.1f, -0.0f, std::numeric_limits<float>::quiet_NaN(),
           std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity()}),
      tensor<uint16_t>(OperandType::TENSOR_FLOAT16, {2}, {json::float16FromFloat(0.1f), 0x3c00}),
      tensor<uint32_t>(OperandType::UINT32, {}, {UINT32_MAX}),
      tensor<int8_t>(OperandType::TENSOR_QUANT8_ASYMM_SIGNED, {2}, {-128, 127}),
      tensor<uint8_t>(OperandType::TENSOR_QUANT8_ASYMM, {1}, {255}),
      tensor<int16_t>(OperandType::TENSOR_QUANT16_SYMM, {1}, {-32768}),
      tensor<uint16_t>(OperandType::TENSOR_QUANT16_ASYMM, {1}, {65535}),
  });
  EXPECT_EQ(writeResult(result),
            R"({"status": "NO_ERROR", "outputs": [)"
            R"({"dimensions": [], "data": [-7]}, )"
            R"({"dimensions": [0, 3], "data": []}, )"
            R"({"dimensions": [3], "data": [true, false, true]}, )"
            R"({"dimensions": [], "data": [false]}, )"
            R"({"dimensions": [5], "data": [0.1, -0.0, "NaN", "Infinity", "-Infinity"]}, )"
            R"({"dimensions": [2], "data": [0.1, 1.0]}, )"
            R"({"dimensions": [], "data": [4294967295]}, )"
            R"({"dimensions": [2], "data": [-128, 127]}, )"
            R"({"dimensions": [1], "data": [255]}, )"
            R"({"dimensions": [1], "data": [-32768]}, )"
            R"({"dimensions": [1], "data": [65535]}]})"
            "\n");
  EXPECT_TRUE(nlohmann::json::accept(writeResult(result)));
}

TEST(WriteResult, Errors) {
  ExecutionResult result;
  result.status =
      Status(ErrorStatus::MISSED_DEADLINE_TRANSIENT, "deadline \"1 ms\" missed\n\tat op 3");
  result.outputs = {
      tensor<float>(OperandType::TENSOR_FLOAT32, {1}, {1.0f})};  // not printed on error
  result.timing.onDeviceNs = 5;
  EXPECT_EQ(
      writeResult(result),
      R"({"status": "MISSED_DEADLINE_TRANSIENT", "message": "deadline \"1 ms\" missed\n\tat op 3"})"
      "\n");
  result.status = Status(ErrorStatus::INVALID_ARGUMENT, "bad byte \xff here");
  const std::string text = writeResult(result);
  const auto parsed = nlohmann::json::parse(text);
  EXPECT_EQ(parsed["status"], "INVALID_ARGUMENT");
  EXPECT_EQ(parsed["message"], "bad byte \xef\xbf\xbd here");
  for (ErrorStatus code :
       {ErrorStatus::DEVICE_UNAVAILABLE, ErrorStatus::GENERAL_FAILURE,
        ErrorStatus::OUTPUT_INSUFFICIENT_SIZE, ErrorStatus::MISSED_DEADLINE_PERSISTENT,
        ErrorStatus::RESOURCE_EXHAUSTED_TRANSIENT, ErrorStatus::RESOURCE_EXHAUSTED_PERSISTENT}) {
    result.status = Status(code, "m");
    EXPECT_EQ(writeResult(result),
              "{\"status\": \"" + std::string(toString(code)) + "\", \"message\": \"m\"}\n");
  }
}

TEST(WriteResult, MalformedTensorsDoNotCrash) {
  TensorValue odd =
      tensor<uint8_t>(OperandType::TENSOR_FLOAT32, {2}, {1, 2, 3, 4, 5});  // 1.25 elements
  TensorValue subgraph = tensor<uint8_t>(OperandType::SUBGRAPH, {}, {1});
  const std::string text = writeResult(success({odd, subgraph}));
  EXPECT_TRUE(nlohmann::json::accept(text));
}

Model everyKindOfOperand() {
  Model model;
  auto add = [&model](OperandType type, Dimensions dims, OperandLifeTime lifetime,
                      std::vector<uint8_t> value = {}) {
    Operand o;
    o.type = type;
    o.dimensions = std::move(dims);
    o.lifetime = lifetime;
    o.value = std::move(value);
    model.main.operands.push_back(o);
    return &model.main.operands.back();
  };
  auto bytes = [](const auto& values) {
    std::vector<uint8_t> b(values.size() * sizeof(values[0]));
    std::memcpy(b.data(), values.data(), b.size());
    return b;
  };
  add(OperandType::TENSOR_FLOAT32, {4}, OperandLifeTime::CONSTANT_COPY,
      bytes(std::vector<float>{0.1f, -0.0f, std::numeric_limits<float>::infinity(),
                               std::numeric_limits<float>::denorm_min()}));
  add(OperandType::FLOAT32, {}, OperandLifeTime::CONSTANT_REFERENCE,
      bytes(std::vector<float>{-std::numeric_limits<float>::infinity()}));
  add(OperandType::TENSOR_FLOAT16, {3}, OperandLifeTime::CONSTANT_COPY,
      bytes(std::vector<uint16_t>{0x2e66, 0x8001, 0x7bff}));
  add(OperandType::FLOAT16, {}, OperandLifeTime::CONSTANT_COPY,
      bytes(std::vector<uint16_t>{0xfc00}));
  add(OperandType::TENSOR_INT32, {1, 2}, OperandLifeTime::CONSTANT_COPY,
      bytes(std::vector<int32_t>{INT32_MIN, INT32_MAX}));
  add(OperandType::UINT32, {}, OperandLifeTime::CONSTANT_COPY,
      bytes(std::vector<uint32_t>{UINT32_MAX}));
  add(OperandType::BOOL, {}, OperandLifeTime::CONSTANT_COPY, {1});
  add(OperandType::TENSOR_BOOL8, {2}, OperandLifeTime::CONSTANT_COPY, {0, 1});
  Operand* quant =
      add(OperandType::TENSOR_QUANT8_ASYMM, {2}, OperandLifeTime::CONSTANT_COPY, {0, 255});
  quant->scale = 0.5f;
  quant->zeroPoint = 128;
  add(OperandType::TENSOR_QUANT8_ASYMM_SIGNED, {1}, OperandLifeTime::CONSTANT_COPY, {0x80});
  add(OperandType::TENSOR_QUANT8_SYMM, {1}, OperandLifeTime::CONSTANT_COPY, {0x7f});
  add(OperandType::TENSOR_QUANT16_SYMM, {1}, OperandLifeTime::CONSTANT_COPY, {0x00, 0x80});
  add(OperandType::TENSOR_QUANT16_ASYMM, {1}, OperandLifeTime::CONSTANT_COPY, {0xff, 0xff});
  Operand* perChannel = add(OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL, {2, 1},
                            OperandLifeTime::CONSTANT_COPY, {1, 0xff});
  perChannel->channelQuant = ChannelQuant{{0.25f, std::numeric_limits<float>::quiet_NaN()}, 0};
  Operand* subgraph = add(OperandType::SUBGRAPH, {}, OperandLifeTime::SUBGRAPH);
  subgraph->subgraph = 1;
  add(OperandType::TENSOR_FLOAT32, {}, OperandLifeTime::SUBGRAPH_INPUT);
  add(OperandType::TENSOR_FLOAT32, {0, 3}, OperandLifeTime::SUBGRAPH_OUTPUT);
  add(OperandType::TENSOR_INT32, {2}, OperandLifeTime::TEMPORARY_VARIABLE);
  add(OperandType::TENSOR_FLOAT32, {1}, OperandLifeTime::NO_VALUE);
  model.main.operations = {{OperationType::IF, {6, 14, 15}, {16}},
                           {OperationType::RANK, {16}, {17}}};
  model.main.inputIndexes = {15};
  model.main.outputIndexes = {16};
  model.referenced.resize(2);
  model.referenced[1].operands.push_back(model.main.operands[15]);
  model.referenced[1].inputIndexes = {0};
  model.relaxComputationFloat32toFloat16 = true;
  return model;
}

TEST(WriteModel, ReadsBackTheSameModel) {
  const Model model = everyKindOfOperand();
  const std::string text = writeModel(model);
  const auto parsed = parseModel(text);
  ASSERT_TRUE(parses(parsed)) << text;
  EXPECT_TRUE(sameModel(*parsed, model)) << text;
  EXPECT_EQ(writeModel(*parsed), text);
  EXPECT_EQ(text.back(), '\n');
  EXPECT_NE(text.find(R"("value": [0.1, -0.0, "Infinity", 1e-45])"), std::string::npos) << text;
  EXPECT_NE(text.find(R"("channelQuant": {"scales": [0.25, "NaN"], "channelDim": 0})"),
            std::string::npos)
      << text;
}

TEST(WriteModel, EmptyModel) {
  const std::string text = writeModel(Model{});
  const auto parsed = parseModel(text);
  ASSERT_TRUE(parses(parsed)) << text;
  EXPECT_TRUE(sameModel(*parsed, Model{}));
}

TEST(WriteInputs, ReadsBackTheSameInputs) {
  auto model = parseModel(R"({"main": {"operands": [
      {"type": "TENSOR_BOOL8", "dimensions": [0], "lifetime": "SUBGRAPH_INPUT"},
      {"type": "TENSOR_FLOAT16", "dimensions": [2], "lifetime": "SUBGRAPH_INPUT"},
      {"type": "INT32", "dimensions": [], "lifetime": "SUBGRAPH_INPUT"},
      {"type": "TENSOR_FLOAT32", "dimensions": [], "lifetime": "SUBGRAPH_INPUT"}],
    "operations": [], "inputIndexes": [0, 1, 2, 3], "outputIndexes": []}})");
  ASSERT_TRUE(parses(model));
  std::vector<TensorValue> inputs = {
      tensor<uint8_t>(OperandType::TENSOR_BOOL8, {3}, {1, 0, 1}),
      tensor<uint16_t>(OperandType::TENSOR_FLOAT16, {2}, {0x7e00, 0x0001}),
      tensor<int32_t>(OperandType::INT32, {}, {-1}),
      TensorValue{OperandType::TENSOR_FLOAT32, {}, {}, true},
  };
  const std::string text = writeInputs(inputs);
  EXPECT_EQ(text,
            "{\"inputs\": [\n"
            "  {\"dimensions\": [3], \"data\": [true, false, true]},\n"
            "  {\"dimensions\": [2], \"data\": [\"NaN\", 6e-08]},\n"
            "  {\"dimensions\": [], \"data\": [-1]},\n"
            "  {\"omitted\": true}\n"
            "]}\n");
  const auto parsed = parseInputs(text, *model);
  ASSERT_TRUE(parses(parsed));
  ASSERT_EQ(parsed->size(), inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) EXPECT_TRUE(sameTensor((*parsed)[i], inputs[i])) << i;
  EXPECT_EQ(writeInputs({}), "{\"inputs\": []}\n");
}

}  // namespace
}  // namespace nnfab::testing
