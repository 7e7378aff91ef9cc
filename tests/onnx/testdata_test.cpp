// The ONNX importer on the real thing: every control-flow node test (If,
// Loop, Scan) of Debian's libonnx-testdata is imported and, where it imports,
// run on cpu and on the fabric devices, and compared with the test's
// output_K.pb within the ONNX backend tests' tolerances (rtol 1e-3, atol 1e-7).
// The tests that cannot be imported are listed with the reason in
// control_flow_tests.json (and in docs/onnx.md); a test in the data that is
// missing from the list fails.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>

#include "api/run_model.h"
#include "onnx/onnx_import.h"
#include "runtime/device.h"
#include "validation/validate.h"

namespace nnfab {
namespace {

namespace fs = std::filesystem;

// The list lives in control_flow_tests.json beside this file (the peer
// driver bench/peers/onnx_testdata.sh reads the same file): test name -> ""
// when it imports and matches, else a substring of the refusal. Read once, at
// the instantiation below; a file that cannot be read gives an empty list,
// which ListIsReadable reports.
std::map<std::string, std::string> readControlFlowTests() {
  std::map<std::string, std::string> out;
  std::ifstream in(NNFAB_ONNX_CONTROL_FLOW_LIST);
  const nlohmann::json list = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (!list.is_object() || !list.contains("tests") || !list["tests"].is_object()) return out;
  for (const auto& [name, refusal] : list["tests"].items()) {
    if (refusal.is_string()) out[name] = refusal.get<std::string>();
  }
  return out;
}

const std::map<std::string, std::string>& controlFlowTests() {
  static const std::map<std::string, std::string> tests = readControlFlowTests();
  return tests;
}

std::string readBytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

bool usesControlFlow(const onnx::GraphProto& g) {
  for (const auto& n : g.node()) {
    if (n.op_type() == "If" || n.op_type() == "Loop" || n.op_type() == "Scan") return true;
  }
  return false;
}

fs::path dataDir() { return fs::path(NNFAB_ONNX_TESTDATA_DIR) / "node"; }

TEST(OnnxTestdata, ListIsReadable) {
  EXPECT_FALSE(controlFlowTests().empty())
      << NNFAB_ONNX_CONTROL_FLOW_LIST << " is missing or not {\"tests\": {name: refusal}}";
}

TEST(OnnxTestdata, ListCoversEveryControlFlowNodeTest) {
  if (!fs::exists(dataDir())) GTEST_SKIP() << "libonnx-testdata is not installed";
  size_t found = 0;
  for (const auto& entry : fs::directory_iterator(dataDir())) {
    onnx::ModelProto m;
    const std::string bytes = readBytes(entry.path() / "model.onnx");
    if (!m.ParseFromString(bytes) || !usesControlFlow(m.graph())) continue;
    ++found;
    EXPECT_TRUE(controlFlowTests().count(entry.path().filename().string()))
        << entry.path().filename() << " uses control flow but is not in the list";
  }
  EXPECT_EQ(found, controlFlowTests().size());
}

// ONNX [] results come back as [1].
Dimensions promoted(Dimensions d) { return d.empty() ? Dimensions{1} : d; }

std::string mismatch(const TensorValue& want, const TensorValue& got) {
  if (want.type != got.type) return "type differs";
  if (promoted(want.dimensions) != promoted(got.dimensions)) return "dimensions differ";
  if (want.data.size() != got.data.size()) return "size differs";
  const size_t n = want.data.size() / sizeOfElement(want.type);
  for (size_t i = 0; i < n; ++i) {
    if (want.type == OperandType::TENSOR_FLOAT32) {
      float w, g;
      std::memcpy(&w, want.data.data() + 4 * i, 4);
      std::memcpy(&g, got.data.data() + 4 * i, 4);
      // NaN equals NaN, an infinity only itself, and a NaN result is never
      // within tolerance of a number (hence the negated <=).
      const bool same = std::isnan(w) ? std::isnan(g)
                        : std::isinf(w) ? g == w
                                        : std::fabs(g - w) <= 1e-7 + 1e-3 * std::fabs(w);
      if (!same) {
        return "element " + std::to_string(i) + ": " + std::to_string(g) + " vs " + std::to_string(w);
      }
    } else if (std::memcmp(want.data.data() + i * sizeOfElement(want.type),
                           got.data.data() + i * sizeOfElement(want.type), sizeOfElement(want.type)) != 0) {
      return "element " + std::to_string(i) + " differs";
    }
  }
  return "";
}

TensorValue floats(const std::vector<float>& values) {
  TensorValue t;
  t.type = OperandType::TENSOR_FLOAT32;
  t.dimensions = {static_cast<uint32_t>(values.size())};
  t.data.resize(4 * values.size());
  std::memcpy(t.data.data(), values.data(), t.data.size());
  return t;
}

// The comparison itself: ONNX's backend-test tolerances (numpy's
// assert_allclose at rtol 1e-3, atol 1e-7, NaN equal to NaN).
TEST(OnnxTestdata, ComparisonUsesOnnxTolerances) {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(mismatch(floats({1, 1000}), floats({1.0005f, 1000.9f})), "");
  EXPECT_NE(mismatch(floats({1000}), floats({1001.1f})), "");
  EXPECT_EQ(mismatch(floats({0}), floats({5e-8f})), "");
  EXPECT_NE(mismatch(floats({0}), floats({2e-7f})), "");
  EXPECT_EQ(mismatch(floats({nan}), floats({nan})), "");
  EXPECT_NE(mismatch(floats({nan}), floats({0})), "");
  EXPECT_NE(mismatch(floats({0}), floats({nan})), "");
  EXPECT_EQ(mismatch(floats({-inf}), floats({-inf})), "");
  EXPECT_NE(mismatch(floats({inf}), floats({-inf})), "");
  EXPECT_NE(mismatch(floats({inf}), floats({5})), "");
  EXPECT_NE(mismatch(floats({1, 2}), floats({1})), "");
}

class ControlFlowTest : public ::testing::TestWithParam<std::string> {};

TEST_P(ControlFlowTest, ImportsAndMatchesOrIsRefusedForItsReason) {
  const fs::path dir = dataDir() / GetParam();
  if (!fs::exists(dir)) GTEST_SKIP() << "libonnx-testdata is not installed";
  onnx_import::ImportFailure failure;
  auto imported = onnx_import::importModel(readBytes(dir / "model.onnx"), &failure);
  const std::string& refusal = controlFlowTests().at(GetParam());
  if (!refusal.empty()) {
    ASSERT_FALSE(imported.isOk());
    EXPECT_EQ(failure, onnx_import::ImportFailure::UNSUPPORTED);
    EXPECT_NE(imported.status().message().find(refusal), std::string::npos) << imported.status().message();
    return;
  }
  ASSERT_TRUE(imported.isOk()) << imported.status().message();
  const fs::path set = dir / "test_data_set_0";
  std::vector<TensorValue> inputs, expected;
  for (size_t i = 0; i < imported->inputNames.size(); ++i) {
    auto t = onnx_import::readTensor(readBytes(set / ("input_" + std::to_string(i) + ".pb")));
    ASSERT_TRUE(t.isOk()) << t.status().message();
    inputs.push_back(*t);
  }
  for (size_t i = 0; i < imported->outputNames.size(); ++i) {
    auto t = onnx_import::readTensor(readBytes(set / ("output_" + std::to_string(i) + ".pb")));
    ASSERT_TRUE(t.isOk()) << t.status().message();
    expected.push_back(*t);
  }
  int devicesRun = 0;
  for (const char* name : {"cpu", "hls", "sim"}) {
    const Device* device = findDevice(name);
    if (device == nullptr) continue;
    SCOPED_TRACE(name);
    ++devicesRun;
    RunOptions options;
    options.device = device;
    const ExecutionResult result = runModel(imported->model, inputs, options);
    ASSERT_TRUE(result.status.isOk()) << result.status.message();
    ASSERT_EQ(result.outputs.size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i) {
      EXPECT_EQ(mismatch(expected[i], result.outputs[i]), "") << "output " << i << " (" << imported->outputNames[i] << ")";
    }
  }
  EXPECT_GE(devicesRun, 2);  // cpu and hls are always built
}

std::vector<std::string> names() {
  std::vector<std::string> out;
  for (const auto& [name, reason] : controlFlowTests()) out.push_back(name);
  return out;
}

INSTANTIATE_TEST_SUITE_P(Node, ControlFlowTest, ::testing::ValuesIn(names()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace nnfab

namespace nnfab {
namespace {

// Every node test of the package (932 in 1.12), not only control flow: an
// import is either refused with a message or a model that passes NNAPI
// validation; the imported ones run on cpu against output_K.pb. The counts
// are printed (docs/onnx.md quotes them); the check is that nothing the
// importer accepts is invalid and that nothing crashes.
TEST(OnnxTestdata, EveryNodeTestImportsValidOrIsRefused) {
  if (!fs::exists(dataDir())) GTEST_SKIP() << "libonnx-testdata is not installed";
  size_t total = 0, imported = 0, ran = 0, matched = 0;
  std::map<std::string, size_t> reasons;
  for (const auto& entry : fs::directory_iterator(dataDir())) {
    ++total;
    auto model = onnx_import::importModel(readBytes(entry.path() / "model.onnx"));
    if (!model) {
      EXPECT_FALSE(model.status().message().empty());
      // "node 'n' (Op): why" -> Op; other refusals (types, sequences) by their kind.
      const std::string& m = model.status().message();
      const size_t close = m.find("): ");
      const size_t open = close == std::string::npos ? std::string::npos : m.rfind(" (", close);
      reasons[open != std::string::npos ? m.substr(open + 2, close - open - 2)
              : m.find("element type") != std::string::npos ? "element type"
              : m.find("imports tensors only") != std::string::npos ? "sequence/optional"
                                                                     : "other"]++;
      continue;
    }
    ++imported;
    EXPECT_TRUE(validateModel(model->model).isOk()) << entry.path().filename();
    const fs::path set = entry.path() / "test_data_set_0";
    std::vector<TensorValue> inputs, expected;
    bool readable = true;
    for (size_t i = 0; readable && i < model->inputNames.size(); ++i) {
      auto t = onnx_import::readTensor(readBytes(set / ("input_" + std::to_string(i) + ".pb")));
      if (t) inputs.push_back(*t); else readable = false;
    }
    for (size_t i = 0; readable && i < model->outputNames.size(); ++i) {
      auto t = onnx_import::readTensor(readBytes(set / ("output_" + std::to_string(i) + ".pb")));
      if (t) expected.push_back(*t); else readable = false;
    }
    if (!readable) continue;
    RunOptions options;
    options.device = findDevice("cpu");
    const ExecutionResult r = runModel(model->model, inputs, options);
    ++ran;
    bool same = r.status.isOk() && r.outputs.size() == expected.size();
    for (size_t i = 0; same && i < expected.size(); ++i) same = mismatch(expected[i], r.outputs[i]).empty();
    if (same) ++matched;
    else std::printf("  imported but differs on cpu: %s (%s)\n", entry.path().filename().c_str(),
                     r.status.isOk() ? "values" : r.status.message().substr(0, 160).c_str());
  }
  std::printf("node tests: %zu, imported: %zu, ran on cpu: %zu, matched output_K.pb: %zu\n", total, imported, ran,
              matched);
  std::vector<std::pair<size_t, std::string>> top;
  for (const auto& [why, n] : reasons) top.emplace_back(n, why);
  std::sort(top.rbegin(), top.rend());
  std::printf("most frequent refusals:");
  for (size_t i = 0; i < top.size() && i < 12; ++i) std::printf(" %s %zu;", top[i].second.c_str(), top[i].first);
  std::printf("\n");
  EXPECT_GT(imported, 0u);
}

}  // namespace
}  // namespace nnfab
