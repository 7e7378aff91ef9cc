// Helpers shared by the JSON reader/writer tests: small documents to vary,
// error assertions on path and text, and structural equality of models.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "model/json_io.h"

namespace nnfab::testing {

// A model whose main subgraph holds exactly `operandJson` (one OPERAND
// object) and nothing else to check.
std::string modelWithOperand(std::string_view operandJson);

// A model with one constant operand of `type`: {"type": type, "dimensions":
// dims, "lifetime": "CONSTANT_COPY", "value": value}.
std::string modelWithConstant(std::string_view type, std::string_view dims, std::string_view value);

// An ADD-free two-operand model: main.operands[0] is a SUBGRAPH_INPUT of
// `type`/`dims`, operands[1] a SUBGRAPH_OUTPUT of the same; inputIndexes [0],
// outputIndexes [1]. Enough for inputs and test-case outputs.
std::string modelWithInputAndOutput(std::string_view type, std::string_view dims);

// Fails with INVALID_ARGUMENT, a message that starts with "`path`: " and
// contains `fragment`.
template <typename T>
::testing::AssertionResult failsAt(const Result<T>& result, std::string_view path,
                                   std::string_view fragment) {
  if (result.isOk()) return ::testing::AssertionFailure() << "parsed without error";
  const Status& status = result.status();
  const std::string& message = status.message();
  if (status.code() != ErrorStatus::INVALID_ARGUMENT) {
    return ::testing::AssertionFailure() << "status " << toString(status.code()) << ": " << message;
  }
  const std::string prefix = std::string(path) + ": ";
  if (message.rfind(prefix, 0) != 0 || message.find(fragment) == std::string::npos) {
    return ::testing::AssertionFailure() << "message: " << message;
  }
  return ::testing::AssertionSuccess();
}

// Fails with INVALID_ARGUMENT and a message containing `fragment`.
template <typename T>
::testing::AssertionResult failsWith(const Result<T>& result, std::string_view fragment) {
  if (result.isOk()) return ::testing::AssertionFailure() << "parsed without error";
  const std::string& message = result.status().message();
  if (result.status().code() != ErrorStatus::INVALID_ARGUMENT ||
      message.find(fragment) == std::string::npos) {
    return ::testing::AssertionFailure()
           << "status " << toString(result.status().code()) << ": " << message;
  }
  return ::testing::AssertionSuccess();
}

template <typename T>
::testing::AssertionResult parses(const Result<T>& result) {
  if (result.isOk()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << result.status().message();
}

// Structural equality; the message names the first difference.
::testing::AssertionResult sameModel(const Model& a, const Model& b);
::testing::AssertionResult sameTensor(const TensorValue& a, const TensorValue& b);

// The conformance folder: $NNFAB_CTS_DIR, else $NNFAB_SOURCE_DIR/../shared/cts.
// nullopt when neither exists; `lookedAt` lists what was tried.
std::optional<std::filesystem::path> ctsDirectory(std::string& lookedAt);

std::string readFile(const std::filesystem::path& path);

}  // namespace nnfab::testing
