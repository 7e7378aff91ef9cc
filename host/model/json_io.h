// The JSON file formats of docs/file-formats.md: model, inputs, result,
// conformance test case. Readers are strict: unknown
// fields, duplicate keys, wrong types, bad indexes and wrong value counts are
// INVALID_ARGUMENT with a message that names the JSON path
// (e.g. "main.operands[3].dimensions[1]: expected a non-negative integer").
// No input, however malformed, deep or large, crashes or hangs them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/execution.h"
#include "model/model.h"
#include "model/status.h"

namespace nnfab {

Result<Model> parseModel(std::string_view jsonText);

// One TensorValue per main.inputIndexes, typed by the model's operand; missing
// dimensions are taken from the model operand (which must then be fully
// specified); {"omitted": true} gives an omitted value.
Result<std::vector<TensorValue>> parseInputs(std::string_view jsonText, const Model& model);

struct ExpectedOutput {
  TensorValue value;
  bool ignored = false;
};

struct TestCase {
  std::string name;
  std::string source;
  Model model;
  std::vector<TensorValue> inputs;
  std::vector<ExpectedOutput> outputs;  // typed by main.outputIndexes
  bool expectFailure = false;
  bool isRelaxed = false;
};

Result<TestCase> parseTestCase(std::string_view jsonText);

// Writers produce text the readers accept (round trip). NaN and infinities are
// the strings "NaN", "Infinity", "-Infinity".
std::string writeModel(const Model& model);
std::string writeInputs(const std::vector<TensorValue>& inputs);
// The result printed by `nnfab run`: status name (NONE as "NO_ERROR"), outputs
// and timing on success, message otherwise.
std::string writeResult(const ExecutionResult& result);

}  // namespace nnfab
