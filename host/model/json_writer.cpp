// Writers for the model, inputs and result files. Text is assembled by hand
// rather than through nlohmann::json: nlohmann prints NaN as null, spells a
// float through double (0.1f as 0.10000000149011612) and sorts object keys,
// while the result's key order is part of the contract.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <string>

#include "model/json_io.h"
#include "model/json_numbers.h"
#include "model/json_values.h"

namespace nnfab {
namespace {

// A JSON string literal. Messages may carry arbitrary bytes (file names,
// executor text); invalid UTF-8 becomes U+FFFD instead of breaking the file.
std::string quote(std::string_view text) {
  return nlohmann::json(std::string(text))
      .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

template <typename Integer>
void appendIntegers(std::string& out, const std::vector<Integer>& values) {
  out += fmt::format("[{}]", fmt::join(values, ", "));
}

bool isConstant(OperandLifeTime lifetime) {
  return lifetime == OperandLifeTime::CONSTANT_COPY ||
         lifetime == OperandLifeTime::CONSTANT_REFERENCE;
}

void appendOperand(std::string& out, const Operand& operand) {
  out += fmt::format(R"({{"type": "{}", "dimensions": )", toString(operand.type));
  appendIntegers(out, operand.dimensions);
  out += fmt::format(R"(, "scale": {}, "zeroPoint": {}, "lifetime": "{}")",
                     json::formatFloat32(operand.scale), operand.zeroPoint,
                     toString(operand.lifetime));
  if (operand.lifetime == OperandLifeTime::SUBGRAPH) {
    out += fmt::format(R"(, "value": {})", operand.subgraph);
  } else if (isConstant(operand.lifetime)) {
    out += R"(, "value": )";
    json::appendElements(out, operand.type, operand.value);
  }
  if (operand.channelQuant) {
    out += R"(, "channelQuant": {"scales": [)";
    for (size_t i = 0; i < operand.channelQuant->scales.size(); ++i) {
      if (i > 0) out += ", ";
      out += json::formatFloat32(operand.channelQuant->scales[i]);
    }
    out += fmt::format(R"(], "channelDim": {}}})", operand.channelQuant->channelDim);
  }
  out += '}';
}

void appendOperation(std::string& out, const Operation& operation) {
  out += fmt::format(R"({{"type": "{}", "inputs": )", toString(operation.type));
  appendIntegers(out, operation.inputs);
  out += R"(, "outputs": )";
  appendIntegers(out, operation.outputs);
  out += '}';
}

// "[\n<indent>  item,\n...<indent>]", or "[]" when empty.
template <typename Item, typename AppendFn>
void appendList(std::string& out, const std::vector<Item>& items, std::string_view indent,
                AppendFn append) {
  if (items.empty()) {
    out += "[]";
    return;
  }
  out += "[\n";
  for (size_t i = 0; i < items.size(); ++i) {
    out += indent;
    out += "  ";
    append(out, items[i]);
    out += i + 1 < items.size() ? ",\n" : "\n";
  }
  out += indent;
  out += ']';
}

void appendSubgraph(std::string& out, const Subgraph& subgraph, std::string_view indent) {
  const std::string inner = fmt::format("{}  ", indent);
  out += fmt::format("{{\n{}\"operands\": ", inner);
  appendList(out, subgraph.operands, inner, appendOperand);
  out += fmt::format(",\n{}\"operations\": ", inner);
  appendList(out, subgraph.operations, inner, appendOperation);
  out += fmt::format(",\n{}\"inputIndexes\": ", inner);
  appendIntegers(out, subgraph.inputIndexes);
  out += fmt::format(",\n{}\"outputIndexes\": ", inner);
  appendIntegers(out, subgraph.outputIndexes);
  out += fmt::format("\n{}}}", indent);
}

// {"dimensions": [...], "data": [...]}
void appendTensor(std::string& out, const TensorValue& value) {
  out += R"({"dimensions": )";
  appendIntegers(out, value.dimensions);
  out += R"(, "data": )";
  json::appendElements(out, value.type, value.data);
  out += '}';
}

}  // namespace

std::string writeModel(const Model& model) {
  std::string out = "{\n  \"main\": ";
  appendSubgraph(out, model.main, "  ");
  out += ",\n  \"referenced\": ";
  appendList(out, model.referenced, "  ",
             [](std::string& o, const Subgraph& subgraph) { appendSubgraph(o, subgraph, "    "); });
  out += fmt::format(",\n  \"relaxComputationFloat32toFloat16\": {}\n}}\n",
                     model.relaxComputationFloat32toFloat16);
  return out;
}

std::string writeInputs(const std::vector<TensorValue>& inputs) {
  std::string out = "{\"inputs\": ";
  appendList(out, inputs, "", [](std::string& o, const TensorValue& input) {
    if (input.omitted) {
      o += R"({"omitted": true})";
    } else {
      appendTensor(o, input);
    }
  });
  out += "}\n";
  return out;
}

std::string writeResult(const ExecutionResult& result) {
  std::string out = fmt::format(R"({{"status": {})", quote(toString(result.status.code())));
  if (!result.status.isOk()) {
    out += fmt::format(R"(, "message": {}}})", quote(result.status.message()));
    out += '\n';
    return out;
  }
  out += R"(, "outputs": [)";
  for (size_t i = 0; i < result.outputs.size(); ++i) {
    if (i > 0) out += ", ";
    appendTensor(out, result.outputs[i]);
  }
  out += ']';
  const Timing& timing = result.timing;
  if (timing.onDeviceNs || timing.inDriverNs) {
    out += R"(, "timing": {)";
    if (timing.onDeviceNs) out += fmt::format(R"("onDeviceNs": {})", *timing.onDeviceNs);
    if (timing.onDeviceNs && timing.inDriverNs) out += ", ";
    if (timing.inDriverNs) out += fmt::format(R"("inDriverNs": {})", *timing.inDriverNs);
    out += '}';
  }
  out += "}\n";
  return out;
}

}  // namespace nnfab
