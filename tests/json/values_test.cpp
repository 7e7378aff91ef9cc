// Number rules per operand type, through model constants: which JSON tokens
// each type takes, its range, and the stored bytes.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "json_test_util.h"
#include "model/json_float16.h"

namespace nnfab::testing {
namespace {

// The stored bytes of a one-element constant, or the error message.
Result<std::vector<uint8_t>> constant(std::string_view type, std::string_view element) {
  const std::string dims = isScalarType(*operandTypeFromString(type)) ? "[]" : "[1]";
  auto model = parseModel(modelWithConstant(type, dims, "[" + std::string(element) + "]"));
  if (!model.isOk()) return std::move(model).takeStatus();
  return model->main.operands[0].value;
}

template <typename T>
std::vector<uint8_t> bytesOf(T value) {
  std::vector<uint8_t> bytes(sizeof value);
  std::memcpy(bytes.data(), &value, sizeof value);  // x86-64: little-endian like the format
  return bytes;
}

struct Accepted {
  const char* type;
  const char* element;
  std::vector<uint8_t> bytes;
};

TEST(Values, AcceptedTokensAndStoredBytes) {
  const std::vector<Accepted> cases = {
      {"INT32", "-2147483648", bytesOf<int32_t>(INT32_MIN)},
      {"INT32", "2147483647", bytesOf<int32_t>(INT32_MAX)},
      {"INT32", "-0", bytesOf<int32_t>(0)},
      {"TENSOR_INT32", "-2", {0xfe, 0xff, 0xff, 0xff}},
      {"UINT32", "0", bytesOf<uint32_t>(0)},
      {"UINT32", "4294967295", bytesOf<uint32_t>(UINT32_MAX)},
      {"TENSOR_QUANT8_ASYMM", "0", {0}},
      {"TENSOR_QUANT8_ASYMM", "255", {255}},
      {"TENSOR_QUANT8_ASYMM_SIGNED", "-128", {0x80}},
      {"TENSOR_QUANT8_ASYMM_SIGNED", "127", {0x7f}},
      {"TENSOR_QUANT8_SYMM", "-128", {0x80}},
      {"TENSOR_QUANT8_SYMM_PER_CHANNEL", "127", {0x7f}},
      {"TENSOR_QUANT16_SYMM", "-32768", {0x00, 0x80}},
      {"TENSOR_QUANT16_SYMM", "32767", {0xff, 0x7f}},
      {"TENSOR_QUANT16_ASYMM", "65535", {0xff, 0xff}},
      {"TENSOR_QUANT16_ASYMM", "258", {0x02, 0x01}},
      {"BOOL", "true", {1}},
      {"BOOL", "false", {0}},
      {"TENSOR_BOOL8", "true", {1}},
      {"FLOAT32", "1", bytesOf(1.0f)},
      {"FLOAT32", "0.1", bytesOf(0.1f)},
      {"FLOAT32", "-2.5e-3", bytesOf(-2.5e-3f)},
      {"FLOAT32", "-0.0", bytesOf(-0.0f)},
      {"FLOAT32", "3.4028235e38", bytesOf(3.4028235e38f)},
      {"FLOAT32", "1e-50", bytesOf(0.0f)},
      {"FLOAT32", "16777217", bytesOf(16777216.0f)},
      {"TENSOR_FLOAT32", "\"Infinity\"", bytesOf(std::numeric_limits<float>::infinity())},
      {"TENSOR_FLOAT32", "\"-Infinity\"", bytesOf(-std::numeric_limits<float>::infinity())},
      {"TENSOR_FLOAT32", "12345678901234567890123", bytesOf(12345678901234567890123.0f)},
      {"FLOAT16", "1", {0x00, 0x3c}},
      {"FLOAT16", "0.1", {0x66, 0x2e}},
      {"FLOAT16", "65504", {0xff, 0x7b}},
      {"FLOAT16", "6e-8", {0x01, 0x00}},
      {"TENSOR_FLOAT16", "-2", {0x00, 0xc0}},
      {"TENSOR_FLOAT16", "\"Infinity\"", {0x00, 0x7c}},
      {"TENSOR_FLOAT16", "\"-Infinity\"", {0x00, 0xfc}},
  };
  for (const Accepted& c : cases) {
    const auto bytes = constant(c.type, c.element);
    ASSERT_TRUE(parses(bytes)) << c.type << " " << c.element;
    EXPECT_EQ(*bytes, c.bytes) << c.type << " " << c.element;
  }
}

TEST(Values, NaN) {
  const auto f32 = constant("TENSOR_FLOAT32", "\"NaN\"");
  ASSERT_TRUE(parses(f32));
  float f;
  std::memcpy(&f, f32->data(), 4);
  EXPECT_TRUE(std::isnan(f));
  const auto f16 = constant("TENSOR_FLOAT16", "\"NaN\"");
  ASSERT_TRUE(parses(f16));
  EXPECT_TRUE(std::isnan(json::float16ToFloat(static_cast<uint16_t>((*f16)[0] | (*f16)[1] << 8))));
}

struct Rejected {
  const char* type;
  const char* element;
  const char* fragment;
};

TEST(Values, RejectedTokens) {
  const std::vector<Rejected> cases = {
      {"INT32", "2147483648", "2147483648 is out of range for INT32 [-2147483648, 2147483647]"},
      {"INT32", "-2147483649", "-2147483649 is out of range for INT32"},
      {"INT32", "1.0", "expected an integer (INT32), got 1.0"},
      {"INT32", "1.5", "expected an integer (INT32), got 1.5"},
      {"INT32", "1e2", "expected an integer (INT32), got 1e2"},
      {"INT32", "\"1\"", "expected an integer (INT32), got the string \"1\""},
      {"INT32", "true", "expected an integer (INT32), got true"},
      {"INT32", "null", "got null"},
      {"TENSOR_INT32", "9223372036854775808", "is out of range for TENSOR_INT32"},
      {"TENSOR_INT32", "-9223372036854775809", "is out of range for TENSOR_INT32"},
      {"UINT32", "-1", "-1 is out of range for UINT32 [0, 4294967295]"},
      {"UINT32", "4294967296", "is out of range for UINT32"},
      {"TENSOR_QUANT8_ASYMM", "256", "256 is out of range for TENSOR_QUANT8_ASYMM [0, 255]"},
      {"TENSOR_QUANT8_ASYMM", "-1", "out of range for TENSOR_QUANT8_ASYMM"},
      {"TENSOR_QUANT8_ASYMM", "0.5", "expected an integer"},
      {"TENSOR_QUANT8_ASYMM_SIGNED", "128",
       "out of range for TENSOR_QUANT8_ASYMM_SIGNED [-128, 127]"},
      {"TENSOR_QUANT8_ASYMM_SIGNED", "-129", "out of range"},
      {"TENSOR_QUANT8_SYMM", "128", "out of range for TENSOR_QUANT8_SYMM [-128, 127]"},
      {"TENSOR_QUANT8_SYMM_PER_CHANNEL", "-129", "out of range for TENSOR_QUANT8_SYMM_PER_CHANNEL"},
      {"TENSOR_QUANT16_SYMM", "32768", "out of range for TENSOR_QUANT16_SYMM [-32768, 32767]"},
      {"TENSOR_QUANT16_ASYMM", "65536", "out of range for TENSOR_QUANT16_ASYMM [0, 65535]"},
      {"TENSOR_QUANT16_ASYMM", "-1", "out of range"},
      {"BOOL", "1", "expected true or false (BOOL), got 1"},
      {"TENSOR_BOOL8", "0", "expected true or false (TENSOR_BOOL8), got 0"},
      {"TENSOR_BOOL8", "\"true\"", "expected true or false"},
      {"FLOAT32", "3.5e38", "3.5e38 is out of range for FLOAT32 (would round to infinity)"},
      {"TENSOR_FLOAT32", "-1e39", "out of range for TENSOR_FLOAT32"},
      {"TENSOR_FLOAT32", "1e300", "out of range"},
      {"TENSOR_FLOAT32", "\"nan\"",
       R"(expected a number or "NaN", "Infinity", "-Infinity" (TENSOR_FLOAT32), got the string "nan")"},
      {"TENSOR_FLOAT32", "\"inf\"", "expected a number"},
      {"TENSOR_FLOAT32", "\"1.5\"", "expected a number"},
      {"TENSOR_FLOAT32", "null", "expected a number"},
      {"TENSOR_FLOAT32", "true", "expected a number"},
      {"TENSOR_FLOAT32", "{}", "got an object"},
      {"FLOAT16", "65520", "65520 is out of range for FLOAT16"},
      {"TENSOR_FLOAT16", "-1e5", "out of range for TENSOR_FLOAT16"},
      {"TENSOR_FLOAT16", "\"Inf\"", "expected a number"},
  };
  for (const Rejected& c : cases) {
    EXPECT_TRUE(failsAt(constant(c.type, c.element), "main.operands[0].value[0]", c.fragment))
        << c.type << " " << c.element;
  }
}

TEST(Values, ErrorsNameTheElement) {
  EXPECT_TRUE(failsAt(parseModel(modelWithConstant("TENSOR_INT32", "[2, 2]", "[1, 2, 3, 4.5]")),
                      "main.operands[0].value[3]", "expected an integer"));
}

TEST(Values, ZeroSizedAndMultiElement) {
  const auto model = parseModel(modelWithConstant("TENSOR_QUANT16_SYMM", "[3]", "[1, -1, 256]"));
  ASSERT_TRUE(parses(model));
  EXPECT_EQ(model->main.operands[0].value,
            (std::vector<uint8_t>{0x01, 0x00, 0xff, 0xff, 0x00, 0x01}));
}

}  // namespace
}  // namespace nnfab::testing
