// The strict document parser under the readers: syntax errors with their
// position, duplicate keys at every level, depth limit, NUL bytes, UTF-8.
#include <gtest/gtest.h>

#include <string>

#include "json_test_util.h"
#include "model/json_document.h"

namespace nnfab::testing {
namespace {

using json::JsonKind;
using json::parseJsonDocument;

TEST(JsonDocument, BuildsTheTree) {
  auto doc = parseJsonDocument(
      R"({"a": [1, -2, 2.5, "s", true, null, {"b": {}}], "c": 18446744073709551615})");
  ASSERT_TRUE(parses(doc));
  const json::JsonValue root = doc->root();
  ASSERT_TRUE(root.isObject());
  ASSERT_EQ(root.size(), 2u);
  auto it = root.begin();
  const json::JsonValue a = *it;
  EXPECT_EQ(a.key(), "a");
  ASSERT_EQ(a.size(), 7u);
  std::vector<JsonKind> kinds;
  for (const json::JsonValue v : a) kinds.push_back(v.kind());
  EXPECT_EQ(kinds, (std::vector<JsonKind>{JsonKind::Integer, JsonKind::Integer, JsonKind::Float,
                                          JsonKind::String, JsonKind::Bool, JsonKind::Null,
                                          JsonKind::Object}));
  auto e = a.begin();
  EXPECT_EQ((*e).magnitude(), 1u);
  ++e;
  EXPECT_TRUE((*e).negative());
  EXPECT_EQ((*e).magnitude(), 2u);
  ++e;
  EXPECT_EQ((*e).number(), 2.5);
  EXPECT_EQ((*e).token(), "2.5");
  ++it;
  EXPECT_EQ((*it).key(), "c");
  EXPECT_EQ((*it).magnitude(), UINT64_MAX);
  ++it;
  EXPECT_TRUE(it == root.end());
}

TEST(JsonDocument, SyntaxErrorsSayWhereAndWhat) {
  EXPECT_TRUE(failsWith(parseModel("{\"main\": }"),
                        "JSON syntax error at byte offset 9 (line 1, column 10)"));
  EXPECT_TRUE(failsWith(parseModel("{\n  \"main\": x\n}"),
                        "byte offset 12 (line 2, column 11) in (root): "));
  // Inside a container the message also names it.
  EXPECT_TRUE(failsWith(parseModel(modelWithConstant("TENSOR_INT32", "[2]", "[1, 2")),
                        "in main.operands[0].value: syntax error while parsing array"));
  EXPECT_TRUE(failsWith(parseModel("{\"main\": x}"), "invalid literal"));
  EXPECT_TRUE(failsWith(parseModel(""), "JSON syntax error at byte offset 0"));
  EXPECT_TRUE(failsWith(parseModel(std::string_view()), "JSON syntax error at byte offset 0"));
  EXPECT_TRUE(failsWith(parseModel("   \n"), "unexpected end of input"));
  EXPECT_TRUE(failsWith(parseModel("{} {}"), "expected end of input"));
  EXPECT_TRUE(failsWith(parseModel("{\"a\": 1,}"), "JSON syntax error"));
  EXPECT_TRUE(failsWith(parseModel("[01]"), "JSON syntax error"));
  EXPECT_TRUE(failsWith(parseModel("{'a': 1}"), "JSON syntax error"));
  EXPECT_TRUE(failsWith(parseModel("{\"a\": 1} // comment"), "JSON syntax error"));
  EXPECT_TRUE(failsWith(parseModel("[NaN]"), "JSON syntax error"));
  EXPECT_TRUE(failsWith(parseModel("[1e999]"), "number overflow"));
}

TEST(JsonDocument, RejectsNulBytes) {
  EXPECT_TRUE(
      failsWith(parseModel(std::string("{}\0", 3)), "byte offset 2 (line 1, column 3): NUL byte"));
  EXPECT_TRUE(failsWith(parseModel(std::string("{\"a\0\": 1}", 9)), "NUL byte"));
  EXPECT_TRUE(failsWith(parseModel(std::string("\0", 1)), "NUL byte"));
}

TEST(JsonDocument, RejectsBadUnicode) {
  EXPECT_TRUE(failsWith(parseModel("{\"m\xff\": 1}"), "JSON syntax error"));
  EXPECT_TRUE(failsWith(parseModel("{\"\xc0\xaf\": 1}"), "JSON syntax error"));  // overlong '/'
  EXPECT_TRUE(failsWith(parseModel(R"({"\ud800": 1})"), "surrogate"));
  EXPECT_TRUE(failsWith(parseModel("\xff\xfe{}"), "JSON syntax error"));
  // The message stays printable ASCII whatever the input bytes were.
  const auto result = parseModel("[\"\xe2\x82\xac\xff\"]");
  ASSERT_FALSE(result.isOk());
  for (const char c : result.status().message()) {
    EXPECT_TRUE(c >= 0x20 && c < 0x7f) << result.status().message();
  }
}

TEST(JsonDocument, DuplicateKeysAtEveryLevel) {
  EXPECT_TRUE(
      failsAt(parseModel(R"({"main": {}, "main": {}})"), "(root)", R"(duplicate key "main")"));
  EXPECT_TRUE(failsAt(parseModel(R"({"main": {"operands": [], "operands": []}})"), "main",
                      R"(duplicate key "operands")"));
  EXPECT_TRUE(failsAt(parseModel(modelWithOperand(R"({"type": "INT32", "type": "INT32"})")),
                      "main.operands[0]", R"(duplicate key "type")"));
  EXPECT_TRUE(failsAt(parseModel(R"({"main": {"operations": [{}, {"inputs": [], "inputs": []}]}})"),
                      "main.operations[1]", R"(duplicate key "inputs")"));
  EXPECT_TRUE(failsAt(
      parseModel(
          R"({"referenced": [{"operands": [{"channelQuant": {"scales": [], "scales": []}}]}]})"),
      "referenced[0].operands[0].channelQuant", R"(duplicate key "scales")"));
  // The same key spelled with an escape is still the same key.
  EXPECT_TRUE(
      failsAt(parseModel(R"({"main": {}, "m\u0061in": {}})"), "(root)", R"(duplicate key "main")"));
  // Even where the schema would have rejected the object anyway.
  EXPECT_TRUE(failsAt(parseModel(R"({"x": [{"a": 1, "a": 2}]})"), "x[0]", R"(duplicate key "a")"));
  EXPECT_TRUE(failsAt(parseModel(R"({"we ird": {"a": 1, "a": 2}})"), R"(["we ird"])",
                      R"(duplicate key "a")"));
}

TEST(JsonDocument, NestingLimit) {
  const auto nested = [](size_t depth) {
    return std::string(depth, '[') + std::string(depth, ']');
  };
  EXPECT_TRUE(parses(parseJsonDocument(nested(json::kMaxJsonDepth))));
  EXPECT_TRUE(failsWith(parseJsonDocument(nested(json::kMaxJsonDepth + 1)),
                        "nesting deeper than 64 levels"));
  // The message names the path down to the offending level.
  const auto result = parseJsonDocument("{\"a\": [[{\"b\": " + nested(100) + "}]]}");
  ASSERT_FALSE(result.isOk());
  EXPECT_EQ(result.status().message().rfind("a[0][0].b[0][0][0]", 0), 0u)
      << result.status().message();
}

TEST(JsonDocument, KeysThatAreNotIdentifiersAreQuotedInPaths) {
  EXPECT_TRUE(
      failsAt(parseModel(R"({"main": {}, "a\"b\n": 1})"), "(root)", R"(unknown field "a\"b\x0a")"));
}

}  // namespace
}  // namespace nnfab::testing
