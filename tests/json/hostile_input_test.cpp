// Whatever the bytes, the readers return (no crash, hang or deep recursion):
// deep nesting, huge documents and numbers, truncation, random bytes and
// random mutations of a valid file.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <random>
#include <string>

#include "json_test_util.h"

namespace nnfab::testing {
namespace {

constexpr size_t kMillion = 1000000;

double secondsToParse(const std::function<void()>& parse) {
  const auto start = std::chrono::steady_clock::now();
  parse();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

const std::string& validTestCase() {
  static const std::string text = R"({"name": "t", "source": "s", "model": {"main": {"operands": [
      {"type": "TENSOR_FLOAT32", "dimensions": [2], "lifetime": "SUBGRAPH_INPUT"},
      {"type": "TENSOR_FLOAT32", "dimensions": [2], "scale": 0.0, "zeroPoint": 0, "lifetime": "CONSTANT_COPY", "value": [1.5, "NaN"]},
      {"type": "INT32", "dimensions": [], "lifetime": "CONSTANT_COPY", "value": [0]},
      {"type": "TENSOR_FLOAT32", "dimensions": [2], "lifetime": "SUBGRAPH_OUTPUT"}],
    "operations": [{"type": "ADD", "inputs": [0, 1, 2], "outputs": [3]}],
    "inputIndexes": [0], "outputIndexes": [3]}, "referenced": [], "relaxComputationFloat32toFloat16": false},
  "inputs": [{"dimensions": [2], "data": [1, 2]}],
  "outputs": [{"dimensions": [2], "data": [2.5, "NaN"], "ignored": false}],
  "expectFailure": false, "isRelaxed": false})";
  return text;
}

TEST(HostileInput, TheSeedIsValid) { EXPECT_TRUE(parses(parseTestCase(validTestCase()))); }

TEST(HostileInput, AMillionOpeningBrackets) {
  const std::string arrays(kMillion, '[');
  const std::string objects = [] {
    std::string s;
    for (size_t i = 0; i < kMillion; ++i) s += "{\"a\":";
    return s;
  }();
  const std::string closedArrays = std::string(kMillion, '[') + std::string(kMillion, ']');
  for (const std::string* text : {&arrays, &objects, &closedArrays}) {
    double seconds = secondsToParse([&] {
      EXPECT_TRUE(failsWith(parseModel(*text), "nesting deeper than 64 levels"));
      EXPECT_TRUE(failsWith(parseTestCase(*text), "nesting deeper than 64 levels"));
      EXPECT_TRUE(failsWith(parseInputs(*text, Model{}), "nesting deeper than 64 levels"));
    });
    EXPECT_LT(seconds, 5.0);
  }
}

TEST(HostileInput, DeepNestingInsideAValue) {
  const std::string value = std::string(100, '[') + "1" + std::string(100, ']');
  EXPECT_TRUE(failsWith(parseModel(modelWithConstant("TENSOR_INT32", "[1]", value)),
                        "main.operands[0].value[0][0]"));
}

TEST(HostileInput, TenMegabytesOfNumbersParseInReasonableTime) {
  std::string values = "[";
  size_t count = 0;
  while (values.size() < 10 * kMillion) {
    if (count > 0) values += ',';
    values += fmt::format("{}.{}", count % 1000, count % 7);
    ++count;
  }
  values += ']';
  const std::string text = modelWithConstant("TENSOR_FLOAT32", fmt::format("[{}]", count), values);
  double seconds = secondsToParse([&] {
    const auto model = parseModel(text);
    ASSERT_TRUE(parses(model));
    EXPECT_EQ(model->main.operands[0].value.size(), count * 4);
  });
  EXPECT_LT(seconds, 20.0);  // about a second in a release build
  // The same numbers where they do not belong fail just as quickly.
  const std::string misplaced = R"({"main": {"operands": )" + values + "}}";
  EXPECT_LT(secondsToParse([&] {
              EXPECT_TRUE(failsAt(parseModel(misplaced), "main.operands[0]", "expected an object"));
            }),
            20.0);
}

TEST(HostileInput, CountsThatDisagreeWithDimensionsFailBeforeAllocating) {
  // 4e9 elements declared, 1 given: no 16 GB buffer is attempted.
  EXPECT_TRUE(failsAt(parseModel(modelWithConstant("TENSOR_FLOAT32", "[2000000000, 2]", "[1]")),
                      "main.operands[0].value", "1 values for dimensions [2000000000, 2]"));
}

TEST(HostileInput, HugeNumbers) {
  // Beyond 64 bits but within double range: the schema names the element.
  const std::string digits(300, '7');
  EXPECT_TRUE(failsAt(parseModel(modelWithConstant("TENSOR_INT32", "[1]", "[" + digits + "]")),
                      "main.operands[0].value[0]", "is out of range for TENSOR_INT32"));
  EXPECT_TRUE(failsAt(parseModel(modelWithConstant("TENSOR_FLOAT32", "[1]", "[" + digits + "]")),
                      "main.operands[0].value[0]", "out of range for TENSOR_FLOAT32"));
  EXPECT_TRUE(failsAt(parseModel(modelWithConstant("TENSOR_INT32", "[1]", "[-" + digits + "]")),
                      "main.operands[0].value[0]", "is out of range"));
  EXPECT_TRUE(failsAt(parseModel(modelWithConstant("TENSOR_INT32", "[" + digits + "]", "[]")),
                      "main.operands[0].dimensions[0]", "is out of range (max 4294967295)"));
  // Beyond double range the parser itself stops, naming the container.
  const std::string huge(100000, '7');
  EXPECT_TRUE(failsWith(parseModel(modelWithConstant("TENSOR_INT32", "[1]", "[" + huge + "]")),
                        "in main.operands[0].value: number overflow parsing '7777"));
  EXPECT_TRUE(failsWith(parseModel(modelWithConstant("TENSOR_FLOAT32", "[1]", "[-" + huge + ".5]")),
                        "number overflow"));
  // Tiny but finite numbers just round to zero.
  const auto tiny = parseModel(
      modelWithConstant("TENSOR_FLOAT32", "[1]", "[0." + std::string(100000, '0') + "1]"));
  ASSERT_TRUE(parses(tiny));
  EXPECT_EQ(tiny->main.operands[0].value, std::vector<uint8_t>(4, 0));
  EXPECT_TRUE(
      failsWith(parseModel(modelWithConstant("TENSOR_FLOAT32", "[1]", "[1e99999999999999999999]")),
                "number overflow"));
}

TEST(HostileInput, LongKeysAndStringsKeepMessagesShort) {
  const std::string key(kMillion, 'k');
  const auto result = parseModel("{\"" + key + "\": 1}");
  ASSERT_FALSE(result.isOk());
  EXPECT_LT(result.status().message().size(), 300u);
  const auto bad = parseModel("[\"" + key + "\xff\"]");
  ASSERT_FALSE(bad.isOk());
  EXPECT_LT(bad.status().message().size(), 400u);
  const auto type = parseModel(modelWithOperand("{\"type\": \"" + key + "\"}"));
  EXPECT_TRUE(failsAt(type, "main.operands[0].type", "unknown operand type \"kkkk"));
  EXPECT_LT(type.status().message().size(), 300u);
}

TEST(HostileInput, ManyKeys) {
  std::string unique = "{";
  std::string same = "{";
  for (size_t i = 0; i < 200000; ++i) {
    if (i > 0) {
      unique += ',';
      same += ',';
    }
    unique += fmt::format("\"k{}\": {}", i, i);
    same += "\"k\": 1";
  }
  unique += '}';
  same += '}';
  EXPECT_LT(secondsToParse([&] {
              EXPECT_TRUE(failsAt(parseModel(unique), "(root)", "unknown field \"k0\""));
            }),
            10.0);
  EXPECT_LT(secondsToParse(
                [&] { EXPECT_TRUE(failsAt(parseModel(same), "(root)", "duplicate key \"k\"")); }),
            10.0);
}

TEST(HostileInput, EveryTruncation) {
  const std::string& text = validTestCase();
  for (size_t length = 0; length < text.size(); ++length) {
    const std::string_view prefix(text.data(), length);
    ASSERT_FALSE(parseTestCase(prefix).isOk()) << length;
    ASSERT_FALSE(parseModel(prefix).isOk()) << length;
  }
}

TEST(HostileInput, RandomBytes) {
  std::mt19937 random(2024);
  const Model model = parseTestCase(validTestCase())->model;
  for (int i = 0; i < 3000; ++i) {
    std::string bytes(random() % 200, '\0');
    for (char& c : bytes) c = static_cast<char>(random());
    EXPECT_FALSE(parseModel(bytes).isOk());
    EXPECT_FALSE(parseTestCase(bytes).isOk());
    EXPECT_FALSE(parseInputs(bytes, model).isOk());
  }
}

TEST(HostileInput, RandomMutationsOfAValidFile) {
  std::mt19937 random(99);
  const std::string& seed = validTestCase();
  const std::string alphabet = "{}[],:\"0123456789.-+eE \\tfnu\x01\xff";
  size_t accepted = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string text = seed;
    const int edits = 1 + static_cast<int>(random() % 4);
    for (int e = 0; e < edits; ++e) {
      const size_t at = random() % text.size();
      switch (random() % 3) {
        case 0:
          text[at] = alphabet[random() % alphabet.size()];
          break;
        case 1:
          text.erase(at, 1 + random() % 8);
          break;
        default:
          text.insert(at, 1, alphabet[random() % alphabet.size()]);
          break;
      }
      if (text.empty()) text = "{";
    }
    const auto result = parseTestCase(text);  // must simply return
    if (result.isOk()) {
      ++accepted;
    } else {
      EXPECT_EQ(result.status().code(), ErrorStatus::INVALID_ARGUMENT);
      EXPECT_FALSE(result.status().message().empty());
    }
  }
  EXPECT_LT(accepted, 20000u);
}

}  // namespace
}  // namespace nnfab::testing
