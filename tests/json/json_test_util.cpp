#include "json_test_util.h"

#include <fmt/format.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

namespace nnfab::testing {

std::string modelWithOperand(std::string_view operandJson) {
  return fmt::format(
      R"({{"main": {{"operands": [{}], "operations": [], "inputIndexes": [], "outputIndexes": []}}}})",
      operandJson);
}

std::string modelWithConstant(std::string_view type, std::string_view dims,
                              std::string_view value) {
  return modelWithOperand(
      fmt::format(R"({{"type": "{}", "dimensions": {}, "lifetime": "CONSTANT_COPY", "value": {}}})",
                  type, dims, value));
}

std::string modelWithInputAndOutput(std::string_view type, std::string_view dims) {
  return fmt::format(R"({{"main": {{"operands": [)"
                     R"({{"type": "{0}", "dimensions": {1}, "lifetime": "SUBGRAPH_INPUT"}},)"
                     R"({{"type": "{0}", "dimensions": {1}, "lifetime": "SUBGRAPH_OUTPUT"}}],)"
                     R"( "operations": [], "inputIndexes": [0], "outputIndexes": [1]}}}})",
                     type, dims);
}

namespace {

::testing::AssertionResult differ(const std::string& where) {
  return ::testing::AssertionFailure() << "differs at " << where;
}

::testing::AssertionResult sameOperand(const Operand& a, const Operand& b,
                                       const std::string& where) {
  if (a.type != b.type) return differ(where + ".type");
  if (a.dimensions != b.dimensions) return differ(where + ".dimensions");
  // Bitwise, so that NaN scales compare and -0.0 differs from 0.0.
  if (std::memcmp(&a.scale, &b.scale, sizeof a.scale) != 0) return differ(where + ".scale");
  if (a.zeroPoint != b.zeroPoint) return differ(where + ".zeroPoint");
  if (a.lifetime != b.lifetime) return differ(where + ".lifetime");
  if (a.value != b.value) return differ(where + ".value");
  if (a.subgraph != b.subgraph) return differ(where + ".subgraph");
  if (a.channelQuant.has_value() != b.channelQuant.has_value())
    return differ(where + ".channelQuant");
  if (a.channelQuant) {
    if (a.channelQuant->channelDim != b.channelQuant->channelDim ||
        a.channelQuant->scales.size() != b.channelQuant->scales.size() ||
        (!a.channelQuant->scales.empty() &&
         std::memcmp(a.channelQuant->scales.data(), b.channelQuant->scales.data(),
                     a.channelQuant->scales.size() * sizeof(float)) != 0)) {
      return differ(where + ".channelQuant");
    }
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult sameSubgraph(const Subgraph& a, const Subgraph& b,
                                        const std::string& where) {
  if (a.operands.size() != b.operands.size()) return differ(where + ".operands (count)");
  for (size_t i = 0; i < a.operands.size(); ++i) {
    auto r = sameOperand(a.operands[i], b.operands[i], fmt::format("{}.operands[{}]", where, i));
    if (!r) return r;
  }
  if (a.operations.size() != b.operations.size()) return differ(where + ".operations (count)");
  for (size_t i = 0; i < a.operations.size(); ++i) {
    const Operation& x = a.operations[i];
    const Operation& y = b.operations[i];
    if (x.type != y.type || x.inputs != y.inputs || x.outputs != y.outputs) {
      return differ(fmt::format("{}.operations[{}]", where, i));
    }
  }
  if (a.inputIndexes != b.inputIndexes) return differ(where + ".inputIndexes");
  if (a.outputIndexes != b.outputIndexes) return differ(where + ".outputIndexes");
  return ::testing::AssertionSuccess();
}

}  // namespace

::testing::AssertionResult sameModel(const Model& a, const Model& b) {
  if (auto r = sameSubgraph(a.main, b.main, "main"); !r) return r;
  if (a.referenced.size() != b.referenced.size()) return differ("referenced (count)");
  for (size_t i = 0; i < a.referenced.size(); ++i) {
    if (auto r = sameSubgraph(a.referenced[i], b.referenced[i], fmt::format("referenced[{}]", i));
        !r)
      return r;
  }
  if (a.relaxComputationFloat32toFloat16 != b.relaxComputationFloat32toFloat16) {
    return differ("relaxComputationFloat32toFloat16");
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult sameTensor(const TensorValue& a, const TensorValue& b) {
  if (a.type != b.type) return differ("type");
  if (a.dimensions != b.dimensions) return differ("dimensions");
  if (a.data != b.data) return differ("data");
  if (a.omitted != b.omitted) return differ("omitted");
  return ::testing::AssertionSuccess();
}

std::optional<std::filesystem::path> ctsDirectory(std::string& lookedAt) {
  std::vector<std::filesystem::path> candidates;
  if (const char* dir = std::getenv("NNFAB_CTS_DIR")) candidates.emplace_back(dir);
  if (const char* source = std::getenv("NNFAB_SOURCE_DIR")) {
    candidates.push_back(std::filesystem::path(source) / ".." / "shared" / "cts");
  }
  lookedAt.clear();
  for (const auto& candidate : candidates) {
    if (std::filesystem::is_directory(candidate)) return candidate;
    lookedAt += candidate.string() + " ";
  }
  if (candidates.empty()) lookedAt = "(neither NNFAB_CTS_DIR nor NNFAB_SOURCE_DIR is set)";
  return std::nullopt;
}

std::string readFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace nnfab::testing
