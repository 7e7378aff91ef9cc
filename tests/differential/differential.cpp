#include "differential/differential.h"

#include <chrono>
#include <cmath>
#include <cstring>
#include <string>
#include <utility>

#include "model/json_io.h"
#include "api/run_model.h"

namespace nnfab::differential {
namespace {

std::string dimsText(const Dimensions& dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i > 0) s += ',';
    s += std::to_string(dims[i]);
  }
  return s + "]";
}

// Element i of a value as text, in its type's terms.
std::string elementText(const TensorValue& v, size_t i) {
  if (v.type == OperandType::TENSOR_INT32) {
    int32_t x;
    std::memcpy(&x, v.data.data() + 4 * i, 4);
    return std::to_string(x);
  }
  if (v.type == OperandType::TENSOR_FLOAT32) {
    float x;
    std::memcpy(&x, v.data.data() + 4 * i, 4);
    return std::to_string(x);
  }
  return std::to_string(v.data[i]);
}

std::string valuesText(const TensorValue& v, size_t limit = 8) {
  const size_t size = sizeOfElement(v.type);
  const size_t n = size ? v.data.size() / size : 0;
  std::string s = "{";
  for (size_t i = 0; i < n && i < limit; ++i) {
    if (i > 0) s += ',';
    s += elementText(v, i);
  }
  if (n > limit) s += ",...";
  return s + "}";
}

// FLOAT32 values compare bit for bit except that any NaN equals any NaN
// (docs/isa.md: NaN payloads may differ between devices); +0 and -0 differ.
bool sameFloatsNanAsNan(const std::vector<uint8_t>& x, const std::vector<uint8_t>& y) {
  if (x.size() != y.size() || x.size() % 4 != 0) return false;
  for (size_t i = 0; i < x.size(); i += 4) {
    float a, b;
    std::memcpy(&a, x.data() + i, 4);
    std::memcpy(&b, y.data() + i, 4);
    if (std::isnan(a) && std::isnan(b)) continue;
    if (std::memcmp(x.data() + i, y.data() + i, 4) != 0) return false;
  }
  return true;
}

std::string compareValues(const std::vector<TensorValue>& expected,
                          const std::vector<TensorValue>& actual) {
  if (expected.size() != actual.size()) {
    return "output count " + std::to_string(actual.size()) + " vs " + std::to_string(expected.size());
  }
  for (size_t i = 0; i < expected.size(); ++i) {
    const TensorValue& e = expected[i];
    const TensorValue& a = actual[i];
    const std::string where = "output " + std::to_string(i) + ": ";
    if (e.type != a.type) {
      return where + "type " + std::string(toString(a.type)) + " vs " + std::string(toString(e.type));
    }
    if (e.dimensions != a.dimensions) {
      return where + "dimensions " + dimsText(a.dimensions) + " vs " + dimsText(e.dimensions);
    }
    if (e.data != a.data && !(e.type == OperandType::TENSOR_FLOAT32 && sameFloatsNanAsNan(e.data, a.data))) {
      const size_t size = sizeOfElement(e.type);
      size_t first = 0;
      while (first * size < e.data.size() && first * size < a.data.size() &&
             std::memcmp(e.data.data() + first * size, a.data.data() + first * size, size) == 0) {
        ++first;
      }
      if (first * size >= e.data.size() || first * size >= a.data.size()) {
        return where + "byte count " + std::to_string(a.data.size()) + " vs " +
               std::to_string(e.data.size());
      }
      return where + "element " + std::to_string(first) + " is " + elementText(a, first) +
             ", expected " + elementText(e, first) + " (got " + valuesText(a) + ", expected " +
             valuesText(e) + ")";
    }
  }
  return "";
}

ExecutionResult run(const Model& model, const std::vector<TensorValue>& inputs, const Device* device,
                    uint64_t loopTimeoutMs) {
  RunOptions options;
  options.device = device;
  options.loopTimeoutMs = loopTimeoutMs;
  return runModel(model, inputs, options);
}

}  // namespace

namespace {

Case caseWith(uint64_t seed, const testing::RandomModelOptions& options, bool nonCanonicalBools) {
  Case c;
  c.seed = seed;
  c.options = options;
  c.inputOptions.nonCanonicalBools = nonCanonicalBools;
  c.inputOptions.floatEdges = options.floatEdges;
  c.model = testing::randomModel(seed, c.options);
  // Inputs from their own stream, so that changing how inputs are drawn
  // leaves the models of every seed unchanged.
  testing::RandomSource rng(seed ^ 0x9E3779B97F4A7C15ull);
  c.inputs = testing::randomInputs(c.model, rng, c.inputOptions);
  c.otherInputs = testing::randomInputs(c.model, rng, c.inputOptions);
  return c;
}

}  // namespace

Case makeCase(uint64_t seed) {
  testing::RandomModelOptions options;
  options.float32 = seed % 4 == 3;
  options.floatEdges = options.float32;
  if (seed % 8 == 5) {
    // Rows of up to 40 INT32 elements, broadcast against each other: the
    // element engine's wide mode with full groups of 16 and multi-beat bursts
    // (docs/rtl.md "Wide mode"), which rows of at most 6 never reach.
    options.maxRank = 2;
    options.maxDimension = 40;
  }
  if (seed % 8 == 7) {
    // The same for FLOAT32 (seed % 4 == 3): FLOAT32 wide mode's groups of
    // elem_fp_lanes, broadcasts, fused activations, edge values.
    options.maxRank = 2;
    options.maxDimension = 40;
  }
  return caseWith(seed, options, seed % 2 == 1);
}

Case makeCase(uint64_t seed, const testing::RandomModelOptions& options) {
  return caseWith(seed, options, seed % 2 == 1);
}

std::string compareResults(const ExecutionResult& expected, const ExecutionResult& actual) {
  if (expected.status.code() != actual.status.code()) {
    return "status " + std::string(toString(actual.status.code())) + " (" +
           actual.status.message() + ") vs " + std::string(toString(expected.status.code())) +
           " (" + expected.status.message() + ")";
  }
  if (!expected.status.isOk()) return "";
  return compareValues(expected.outputs, actual.outputs);
}

std::string describe(const ExecutionResult& result) {
  std::string s(toString(result.status.code()));
  if (!result.status.isOk()) return s + ": " + result.status.message();
  for (const TensorValue& v : result.outputs) {
    s += ' ';
    s += toString(v.type);
    s += dimsText(v.dimensions);
    s += valuesText(v);
  }
  return s;
}

CaseReport checkCase(const Case& c, const std::vector<const Device*>& devices,
                     const CheckOptions& options) {
  CaseReport report;
  report.seed = c.seed;
  const std::string tag = "seed " + std::to_string(c.seed) + ": ";
  const Device* cpu = findDevice("cpu");
  report.reference = run(c.model, c.inputs, cpu, options.loopTimeoutMs);
  report.devicesRun.push_back("cpu");
  ++report.executions["cpu"];

  if (options.oracle) {
    auto expected = oracleRun(c.model, c.inputs, &report.oracleStats);
    ExecutionResult oracleResult;
    if (expected.isOk()) {
      oracleResult.outputs = std::move(expected).value();
    } else {
      oracleResult.status = std::move(expected).takeStatus();
    }
    if (std::string diff = compareResults(oracleResult, report.reference); !diff.empty()) {
      report.mismatches.push_back(tag + "cpu vs oracle: " + diff);
    }
  }

  if (options.roundTrip) {
    const std::string text = writeModel(c.model);
    auto parsed = parseModel(text);
    if (!parsed.isOk()) {
      report.mismatches.push_back(tag + "the written model does not parse: " +
                                  parsed.status().message());
    } else {
      if (writeModel(*parsed) != text) {
        report.mismatches.push_back(tag + "write(parse(write(model))) differs from write(model)");
      }
      const ExecutionResult again = run(*parsed, c.inputs, cpu, options.loopTimeoutMs);
      ++report.executions["cpu"];
      if (std::string diff = compareResults(report.reference, again); !diff.empty()) {
        report.mismatches.push_back(tag + "cpu after JSON round trip vs cpu: " + diff);
      }
    }
  }

  const bool other = options.reexecute && c.otherInputs.size() == c.inputs.size();
  ExecutionResult otherReference;
  if (other) {
    otherReference = run(c.model, c.otherInputs, cpu, options.loopTimeoutMs);
    ++report.executions["cpu"];
  }

  for (const Device* device : devices) {
    if (device == cpu) continue;
    const std::string name(device->name());
    const ExecutionResult result = run(c.model, c.inputs, device, options.loopTimeoutMs);
    report.devicesRun.push_back(name);
    ++report.executions[name];
    if (std::string diff = compareResults(report.reference, result); !diff.empty()) {
      report.mismatches.push_back(tag + name + " vs cpu: " + diff);
    }
    if (!other) continue;
    // One prepared model, three executions: other inputs, then the first
    // inputs again, then the other inputs again.
    auto prepared = device->prepare(c.model, PrepareOptions{});
    if (!prepared.isOk()) {
      if (result.status.isOk()) {
        report.mismatches.push_back(tag + name + " prepare failed after a successful run: " +
                                    prepared.status().message());
      }
      continue;
    }
    ExecutionOptions execution;
    execution.loopTimeout = std::chrono::milliseconds(options.loopTimeoutMs);
    const std::pair<const std::vector<TensorValue>*, const ExecutionResult*> sequence[] = {
        {&c.otherInputs, &otherReference}, {&c.inputs, &report.reference}, {&c.otherInputs, &otherReference}};
    for (size_t i = 0; i < 3; ++i) {
      const ExecutionResult again = prepared.value()->execute(*sequence[i].first, execution);
      ++report.executions[name];
      if (std::string diff = compareResults(*sequence[i].second, again); !diff.empty()) {
        report.mismatches.push_back(tag + name + " (prepared once, execution " + std::to_string(i + 2) +
                                    (i == 1 ? ", first inputs" : ", other inputs") + ") vs cpu: " + diff);
        break;
      }
    }
  }
  return report;
}

}  // namespace nnfab::differential
