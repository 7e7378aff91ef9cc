// The model, inputs and test-case readers: the schema of docs/file-formats.md
// over a strictly parsed document. Checks here
// are those the format itself makes (shapes, names, index ranges, value
// counts); NNAPI's semantic rules are the validator's.
#include <fmt/format.h>

#include <exception>
#include <new>

#include "model/json_document.h"
#include "model/json_io.h"
#include "model/json_schema.h"
#include "model/json_values.h"

namespace nnfab {
namespace {

using json::BoolSpelling;
using json::fail;
using json::JsonObjectReader;
using json::JsonPath;
using json::JsonValue;

std::string dimensionsText(const Dimensions& dims) {
  return fmt::format("[{}]", fmt::join(dims, ", "));
}

template <typename Enum>
Enum readName(JsonValue value, const JsonPath& path,
              std::optional<Enum> (*fromString)(std::string_view), std::string_view what) {
  const std::string_view name = json::readString(value, path);
  const std::optional<Enum> result = fromString(name);
  if (!result) fail(path, fmt::format("unknown {} {}", what, json::quoteForMessage(name)));
  return *result;
}

Dimensions readDimensions(JsonValue value, const JsonPath& path) {
  json::expectArray(value, path);
  Dimensions dims;
  dims.reserve(value.size());
  for (const JsonValue d : value) dims.push_back(json::readUint32(d, path.child(dims.size())));
  if (!elementCount(dims))
    fail(path, fmt::format("element count of {} overflows uint32", dimensionsText(dims)));
  return dims;
}

// Indexes into a list of `limit` things ("operand index 9 out of range (7 operands)").
std::vector<uint32_t> readIndexes(JsonValue value, const JsonPath& path, size_t limit,
                                  std::string_view what) {
  json::expectArray(value, path);
  std::vector<uint32_t> indexes;
  indexes.reserve(value.size());
  for (const JsonValue v : value) {
    const JsonPath indexPath = path.child(indexes.size());
    const uint32_t index = json::readUint32(v, indexPath);
    if (index >= limit) {
      fail(indexPath, fmt::format("{} index {} out of range ({} {}s)", what, index, limit, what));
    }
    indexes.push_back(index);
  }
  return indexes;
}

// The values of a tensor of `type` with `dims`, as many as the dimensions say.
std::vector<uint8_t> readTensorValues(JsonValue value, const JsonPath& path, OperandType type,
                                      const Dimensions& dims, BoolSpelling bools) {
  json::expectArray(value, path);
  const uint64_t expected = *elementCount(dims);  // readDimensions checked overflow
  if (value.size() != expected) {
    fail(path, fmt::format("{} values for dimensions {}, which hold {} element{}", value.size(),
                           dimensionsText(dims), expected, expected == 1 ? "" : "s"));
  }
  return json::readElements(value, path, type, bools);
}

bool isConstant(OperandLifeTime lifetime) {
  return lifetime == OperandLifeTime::CONSTANT_COPY ||
         lifetime == OperandLifeTime::CONSTANT_REFERENCE;
}

ChannelQuant readChannelQuant(JsonValue value, const JsonPath& path) {
  const JsonObjectReader object(value, path, {"scales", "channelDim"});
  ChannelQuant quant;
  const JsonPath scalesPath = path.child("scales");
  const JsonValue scales = object.required("scales");
  json::expectArray(scales, scalesPath);
  for (const JsonValue s : scales)
    quant.scales.push_back(json::readFloat32(s, scalesPath.child(quant.scales.size())));
  quant.channelDim = json::readUint32(object.required("channelDim"), path.child("channelDim"));
  return quant;
}

void readOperandValue(const JsonObjectReader& object, const JsonPath& path, Operand& operand,
                      size_t referencedCount) {
  const JsonPath valuePath = path.child("value");
  const std::optional<JsonValue> value = object.optional("value");
  const bool constant = isConstant(operand.lifetime);
  if (!constant && operand.lifetime != OperandLifeTime::SUBGRAPH) {
    if (value)
      fail(valuePath, fmt::format("not allowed with lifetime {}", toString(operand.lifetime)));
    return;
  }
  if (!value) {
    fail(path, fmt::format("missing field \"value\" (required with lifetime {})",
                           toString(operand.lifetime)));
  }
  if (operand.lifetime == OperandLifeTime::SUBGRAPH) {
    operand.subgraph = json::readUint32(*value, valuePath);
    if (operand.subgraph >= referencedCount) {
      fail(valuePath, fmt::format("subgraph index {} out of range ({} referenced subgraphs)",
                                  operand.subgraph, referencedCount));
    }
    return;
  }
  if (operand.type == OperandType::SUBGRAPH) {
    fail(path.child("lifetime"),
         fmt::format("a SUBGRAPH operand cannot have lifetime {}", toString(operand.lifetime)));
  }
  if (!isFullySpecified(operand)) {
    fail(path.child("dimensions"),
         fmt::format("a constant needs fully specified dimensions, got {}",
                     dimensionsText(operand.dimensions)));
  }
  operand.value = readTensorValues(*value, valuePath, operand.type, operand.dimensions,
                                   BoolSpelling::TrueFalse);
}

Operand readOperand(JsonValue value, const JsonPath& path, size_t referencedCount) {
  const JsonObjectReader object(
      value, path,
      {"type", "dimensions", "scale", "zeroPoint", "lifetime", "value", "channelQuant"});
  Operand operand;
  operand.type =
      readName(object.required("type"), path.child("type"), operandTypeFromString, "operand type");
  const JsonPath dimsPath = path.child("dimensions");
  operand.dimensions = readDimensions(object.required("dimensions"), dimsPath);
  if (isScalarType(operand.type) && !operand.dimensions.empty()) {
    fail(dimsPath,
         fmt::format("{} is a scalar type, its dimensions are []", toString(operand.type)));
  }
  if (const auto scale = object.optional("scale"))
    operand.scale = json::readFloat32(*scale, path.child("scale"));
  if (const auto zeroPoint = object.optional("zeroPoint")) {
    operand.zeroPoint = json::readInt32(*zeroPoint, path.child("zeroPoint"));
  }
  operand.lifetime =
      readName(object.required("lifetime"), path.child("lifetime"), lifetimeFromString, "lifetime");
  readOperandValue(object, path, operand, referencedCount);
  if (const auto quant = object.optional("channelQuant")) {
    const JsonPath quantPath = path.child("channelQuant");
    if (operand.type != OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL) {
      fail(quantPath, fmt::format("only allowed on TENSOR_QUANT8_SYMM_PER_CHANNEL operands, not {}",
                                  toString(operand.type)));
    }
    operand.channelQuant = readChannelQuant(*quant, quantPath);
  }
  return operand;
}

Operation readOperation(JsonValue value, const JsonPath& path, size_t operandCount) {
  const JsonObjectReader object(value, path, {"type", "inputs", "outputs"});
  Operation operation;
  operation.type = readName(object.required("type"), path.child("type"), operationTypeFromString,
                            "operation type");
  operation.inputs =
      readIndexes(object.required("inputs"), path.child("inputs"), operandCount, "operand");
  operation.outputs =
      readIndexes(object.required("outputs"), path.child("outputs"), operandCount, "operand");
  return operation;
}

Subgraph readSubgraph(JsonValue value, const JsonPath& path, size_t referencedCount) {
  const JsonObjectReader object(value, path,
                                {"operands", "operations", "inputIndexes", "outputIndexes"});
  Subgraph subgraph;
  const JsonPath operandsPath = path.child("operands");
  const JsonValue operands = object.required("operands");
  json::expectArray(operands, operandsPath);
  subgraph.operands.reserve(operands.size());
  for (const JsonValue operand : operands) {
    subgraph.operands.push_back(
        readOperand(operand, operandsPath.child(subgraph.operands.size()), referencedCount));
  }
  const size_t operandCount = subgraph.operands.size();
  const JsonPath operationsPath = path.child("operations");
  const JsonValue operations = object.required("operations");
  json::expectArray(operations, operationsPath);
  subgraph.operations.reserve(operations.size());
  for (const JsonValue operation : operations) {
    subgraph.operations.push_back(
        readOperation(operation, operationsPath.child(subgraph.operations.size()), operandCount));
  }
  subgraph.inputIndexes = readIndexes(object.required("inputIndexes"), path.child("inputIndexes"),
                                      operandCount, "operand");
  subgraph.outputIndexes = readIndexes(object.required("outputIndexes"),
                                       path.child("outputIndexes"), operandCount, "operand");
  return subgraph;
}

Model readModel(JsonValue value, const JsonPath& path) {
  const JsonObjectReader object(value, path,
                                {"main", "referenced", "relaxComputationFloat32toFloat16"});
  const JsonPath referencedPath = path.child("referenced");
  const std::optional<JsonValue> referenced = object.optional("referenced");
  // SUBGRAPH operands of main refer into `referenced`: its size comes first.
  if (referenced) json::expectArray(*referenced, referencedPath);
  const size_t referencedCount = referenced ? referenced->size() : 0;
  Model model;
  model.main = readSubgraph(object.required("main"), path.child("main"), referencedCount);
  if (referenced) {
    model.referenced.reserve(referencedCount);
    for (const JsonValue subgraph : *referenced) {
      model.referenced.push_back(
          readSubgraph(subgraph, referencedPath.child(model.referenced.size()), referencedCount));
    }
  }
  if (const auto relax = object.optional("relaxComputationFloat32toFloat16")) {
    model.relaxComputationFloat32toFloat16 =
        json::readBool(*relax, path.child("relaxComputationFloat32toFloat16"));
  }
  return model;
}

// The main operand behind inputIndexes/outputIndexes[i]; the model may come
// from anywhere, so its indexes are not trusted.
const Operand& mainOperand(const Model& model, const std::vector<uint32_t>& indexes, size_t i,
                           std::string_view listName, const JsonPath& path) {
  const uint32_t index = indexes[i];
  if (index >= model.main.operands.size()) {
    fail(path, fmt::format("main.{}[{}] = {} is out of range ({} operands)", listName, i, index,
                           model.main.operands.size()));
  }
  const Operand& operand = model.main.operands[index];
  if (operand.type == OperandType::SUBGRAPH) {
    fail(path, fmt::format("main.operands[{}] has type SUBGRAPH, which carries no data", index));
  }
  return operand;
}

// One entry of an inputs list: {"dimensions", "data"} or {"omitted": true}.
TensorValue readInput(JsonValue value, const JsonPath& path, const Operand& operand,
                      uint32_t operandIndex) {
  json::expectObject(value, path);
  TensorValue input;
  input.type = operand.type;
  for (const JsonValue member : value) {
    if (member.key() != "omitted") continue;
    if (value.size() != 1)
      fail(path, "an omitted input is exactly {\"omitted\": true}, without other fields");
    if (!member.isBool() || !member.boolean()) {
      fail(path.child("omitted"),
           "expected true (an omitted input is exactly {\"omitted\": true}), got " +
               member.describe());
    }
    input.omitted = true;
    return input;
  }
  const JsonObjectReader object(value, path, {"dimensions", "data"});
  if (const auto dims = object.optional("dimensions")) {
    input.dimensions = readDimensions(*dims, path.child("dimensions"));
  } else if (isFullySpecified(operand)) {
    input.dimensions = operand.dimensions;
  } else {
    fail(path,
         fmt::format(
             "missing field \"dimensions\" (required because main.operands[{}] has dimensions {})",
             operandIndex, dimensionsText(operand.dimensions)));
  }
  input.data = readTensorValues(object.required("data"), path.child("data"), input.type,
                                input.dimensions, BoolSpelling::TrueFalseOrZeroOne);
  return input;
}

std::vector<TensorValue> readInputs(JsonValue value, const JsonPath& path, const Model& model) {
  json::expectArray(value, path);
  const std::vector<uint32_t>& indexes = model.main.inputIndexes;
  if (value.size() != indexes.size()) {
    fail(path, fmt::format("{} entries, but the model has {} inputs (main.inputIndexes)",
                           value.size(), indexes.size()));
  }
  std::vector<TensorValue> inputs;
  inputs.reserve(indexes.size());
  for (const JsonValue entry : value) {
    const size_t i = inputs.size();
    const JsonPath entryPath = path.child(i);
    const Operand& operand = mainOperand(model, indexes, i, "inputIndexes", entryPath);
    inputs.push_back(readInput(entry, entryPath, operand, indexes[i]));
  }
  return inputs;
}

ExpectedOutput readExpectedOutput(JsonValue value, const JsonPath& path, const Operand& operand) {
  const JsonObjectReader object(value, path, {"dimensions", "data", "ignored"});
  ExpectedOutput output;
  output.value.type = operand.type;
  output.value.dimensions = readDimensions(object.required("dimensions"), path.child("dimensions"));
  output.value.data = readTensorValues(object.required("data"), path.child("data"), operand.type,
                                       output.value.dimensions, BoolSpelling::TrueFalse);
  output.ignored = json::readBool(object.required("ignored"), path.child("ignored"));
  return output;
}

std::vector<ExpectedOutput> readExpectedOutputs(JsonValue value, const JsonPath& path,
                                                const Model& model) {
  json::expectArray(value, path);
  const std::vector<uint32_t>& indexes = model.main.outputIndexes;
  if (value.size() != indexes.size()) {
    fail(path, fmt::format("{} entries, but the model has {} outputs (main.outputIndexes)",
                           value.size(), indexes.size()));
  }
  std::vector<ExpectedOutput> outputs;
  outputs.reserve(indexes.size());
  for (const JsonValue entry : value) {
    const JsonPath entryPath = path.child(outputs.size());
    outputs.push_back(readExpectedOutput(
        entry, entryPath, mainOperand(model, indexes, outputs.size(), "outputIndexes", entryPath)));
  }
  return outputs;
}

// Parses `text` and runs `read` on its root; every failure becomes
// INVALID_ARGUMENT. The document outlives everything `read` returns a
// reference into, since results are copied out.
template <typename T, typename ReadFn>
Result<T> parseWith(std::string_view text, ReadFn read) {
  Result<json::JsonDocument> doc = json::parseJsonDocument(text);
  if (!doc.isOk()) return std::move(doc).takeStatus();
  try {
    const JsonPath root;
    return read(doc->root(), root);
  } catch (const json::JsonSchemaError& e) {
    return invalidArgument(e.message);
  } catch (const std::bad_alloc&) {
    return invalidArgument(fmt::format("{}: out of memory", json::kRootPath));
  } catch (const std::exception& e) {
    return invalidArgument(
        fmt::format("{}: {}", json::kRootPath, json::escapeForMessage(e.what(), 200)));
  }
}

}  // namespace

Result<Model> parseModel(std::string_view jsonText) {
  return parseWith<Model>(
      jsonText, [](JsonValue root, const JsonPath& path) { return readModel(root, path); });
}

Result<std::vector<TensorValue>> parseInputs(std::string_view jsonText, const Model& model) {
  return parseWith<std::vector<TensorValue>>(
      jsonText, [&model](JsonValue root, const JsonPath& path) {
        const JsonObjectReader object(root, path, {"inputs"});
        return readInputs(object.required("inputs"), path.child("inputs"), model);
      });
}

Result<TestCase> parseTestCase(std::string_view jsonText) {
  return parseWith<TestCase>(jsonText, [](JsonValue root, const JsonPath& path) {
    const JsonObjectReader object(
        root, path, {"name", "source", "model", "inputs", "outputs", "expectFailure", "isRelaxed"});
    TestCase test;
    test.name = json::readString(object.required("name"), path.child("name"));
    test.source = json::readString(object.required("source"), path.child("source"));
    test.model = readModel(object.required("model"), path.child("model"));
    test.inputs = readInputs(object.required("inputs"), path.child("inputs"), test.model);
    test.outputs =
        readExpectedOutputs(object.required("outputs"), path.child("outputs"), test.model);
    test.expectFailure =
        json::readBool(object.required("expectFailure"), path.child("expectFailure"));
    test.isRelaxed = json::readBool(object.required("isRelaxed"), path.child("isRelaxed"));
    return test;
  });
}

}  // namespace nnfab
