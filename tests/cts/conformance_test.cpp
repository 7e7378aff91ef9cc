// Runs every conformance case of ../shared/cts (or $NNFAB_CTS_DIR) on every
// device of this build, through runModel — the code path of `nnfab run`.
// Cases a device cannot pass yet are listed, with the reason, in
// known_gaps.txt; a listed case that passes fails the test, so the list
// cannot go stale.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "model/json_io.h"
#include "runtime/device.h"
#include "api/run_model.h"
#include "support/tolerance.h"

namespace nnfab {
namespace {

namespace fs = std::filesystem;

fs::path ctsDir() {
  if (const char* env = std::getenv("NNFAB_CTS_DIR"); env && *env) return env;
  return NNFAB_DEFAULT_CTS_DIR;
}

std::vector<std::string> caseFiles() {
  std::vector<std::string> files;
  std::error_code ec;
  const fs::path root = ctsDir();
  if (!fs::is_directory(root, ec)) return files;
  for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    if (it->is_regular_file() && it->path().extension() == ".json") {
      files.push_back(fs::relative(it->path(), root).generic_string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

// known_gaps.txt: "<device> <case path relative to the cts folder> <reason...>",
// '#' starts a comment line.
std::map<std::string, std::string> knownGaps() {
  std::map<std::string, std::string> gaps;
  std::ifstream in(NNFAB_KNOWN_GAPS_FILE);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string device, path, reason;
    fields >> device >> path;
    std::getline(fields, reason);
    gaps[device + " " + path] = reason;
  }
  return gaps;
}

struct CaseParam {
  std::string device;
  std::string file;
};

// Keeps ctest's listing readable: without it gtest prints the struct's raw bytes.
void PrintTo(const CaseParam& param, std::ostream* os) { *os << param.device << ':' << param.file; }

// The devices the cases run on: every device of allDevices(), or the
// comma-separated names in NNFAB_CTS_DEVICES (e.g. xrt-emu, which is not in
// allDevices(): docs/xrt-emu.md).
std::vector<const Device*> ctsDevices() {
  const char* names = std::getenv("NNFAB_CTS_DEVICES");
  if (!names || !*names) return allDevices();
  std::vector<const Device*> devices;
  std::istringstream list(names);
  for (std::string name; std::getline(list, name, ',');) {
    if (const Device* d = findDevice(name)) devices.push_back(d);
    else ADD_FAILURE() << "NNFAB_CTS_DEVICES names an unknown device: " << name;
  }
  return devices;
}

std::vector<CaseParam> allCases() {
  std::vector<CaseParam> cases;
  const auto files = caseFiles();
  for (const Device* device : ctsDevices()) {
    for (const auto& file : files) cases.push_back({std::string(device->name()), file});
  }
  return cases;
}

std::string readAll(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// Empty when the case passes, else why not.
std::string runCase(const CaseParam& param) {
  const auto testCase = parseTestCase(readAll(ctsDir() / param.file));
  if (!testCase.isOk()) return "cannot parse: " + testCase.status().message();
  RunOptions options;
  options.device = findDevice(param.device);
  const ExecutionResult result = runModel(testCase->model, testCase->inputs, options);
  if (testCase->expectFailure) {
    return result.status.isOk() ? "expected a failure status, got NO_ERROR" : "";
  }
  if (!result.status.isOk()) {
    return std::string(toString(result.status.code())) + ": " + result.status.message();
  }
  if (result.outputs.size() != testCase->outputs.size()) {
    return "output count " + std::to_string(result.outputs.size()) + ", expected " +
           std::to_string(testCase->outputs.size());
  }
  for (size_t i = 0; i < result.outputs.size(); ++i) {
    if (testCase->outputs[i].ignored) continue;
    const std::string mismatch = testing::compareOutput(
        testCase->outputs[i].value, result.outputs[i],
        testCase->isRelaxed || testCase->model.relaxComputationFloat32toFloat16);
    if (!mismatch.empty()) return "output " + std::to_string(i) + ": " + mismatch;
  }
  return "";
}

class Conformance : public ::testing::TestWithParam<CaseParam> {};

TEST_P(Conformance, Passes) {
  const CaseParam& param = GetParam();
  const std::string failure = runCase(param);
  const auto gaps = knownGaps();
  const auto gap = gaps.find(param.device + " " + param.file);
  if (gap != gaps.end()) {
    ASSERT_FALSE(failure.empty()) << param.file << " is listed in known_gaps.txt for "
                                  << param.device << " but passes: remove it from the list";
    GTEST_SKIP() << "known gap:" << gap->second << " (" << failure << ")";
  }
  EXPECT_EQ(failure, "") << param.file;
}

std::string caseName(const ::testing::TestParamInfo<CaseParam>& info) {
  std::string name = info.param.device + "_" + info.param.file;
  name = name.substr(0, name.size() - 5);  // ".json"
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Cts, Conformance, ::testing::ValuesIn(allCases()), caseName);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Conformance);

TEST(ConformanceSuite, FolderIsPresent) {
  if (caseFiles().empty()) {
    GTEST_SKIP() << "no conformance cases found in " << ctsDir()
                 << " (set NNFAB_CTS_DIR, or put the shared folder beside the source tree); "
                    "the conformance suite did NOT run";
  }
  EXPECT_EQ(caseFiles().size(), 337u) << "the shared conformance folder changed size";
}

TEST(ConformanceSuite, KnownGapsNameExistingCases) {
  const auto files = caseFiles();
  if (files.empty()) GTEST_SKIP() << "no conformance folder";
  for (const auto& [key, reason] : knownGaps()) {
    const std::string path = key.substr(key.find(' ') + 1);
    EXPECT_TRUE(std::binary_search(files.begin(), files.end(), path)) << key;
    EXPECT_NE(findDevice(key.substr(0, key.find(' '))), nullptr) << key;
    EXPECT_FALSE(reason.empty()) << key << " has no reason";
  }
}

}  // namespace
}  // namespace nnfab

namespace nnfab {
namespace {

bool hasFloat32AndControlFlow(const Model& model) {
  bool float32 = false, controlFlow = false;
  for (uint32_t s = 0; s < model.subgraphCount(); ++s) {
    const Subgraph& sg = model.subgraph(s);
    for (const Operand& o : sg.operands) float32 |= o.type == OperandType::TENSOR_FLOAT32;
    for (const Operation& op : sg.operations) {
      controlFlow |= op.type == OperationType::IF || op.type == OperationType::WHILE;
    }
  }
  return float32 && controlFlow;
}

// Issue 12's goal on the fabric devices whose FEATURES say FLOAT32 and FC
// (hls, and sim: the RTL core's FP units and FC lane): every FLOAT32
// control-flow case of the suite plans with no host-interpreted step and
// every IF/WHILE of main inside a fabric step (Conformance.Passes runs them).
void expectFloat32ControlFlowWhollyOnTheFabric(const char* deviceName) {
  const Device* device = findDevice(deviceName);
  if (device == nullptr) GTEST_SKIP() << "no " << deviceName << " device in this build";
  int checked = 0;
  for (const std::string& file : caseFiles()) {
    const auto testCase = parseTestCase(readAll(ctsDir() / file));
    if (!testCase.isOk() || !hasFloat32AndControlFlow(testCase->model)) continue;
    const runtime::Plan plan = device->partition(testCase->model);
    for (const runtime::Step& step : plan.main().steps) {
      EXPECT_NE(step.kind, runtime::StepKind::IF) << file;
      EXPECT_NE(step.kind, runtime::StepKind::WHILE) << file;
      if (step.kind != runtime::StepKind::CPU) continue;
      for (uint32_t op : step.operations) {
        const OperationType type = testCase->model.main.operations[op].type;
        EXPECT_TRUE(type != OperationType::IF && type != OperationType::WHILE)
            << file << ": main operation " << op << " runs on the CPU";
      }
    }
    ++checked;
  }
  if (checked == 0) GTEST_SKIP() << "no FLOAT32 control-flow cases in " << ctsDir();
  ::testing::Test::RecordProperty("float32ControlFlowCases", checked);
  EXPECT_GE(checked, 10);  // if_simple, if_constant, if_no_value, while_fib, while_infinite_loop variants
}

TEST(ConformanceSuite, Float32ControlFlowRunsWhollyOnTheHlsFabric) { expectFloat32ControlFlowWhollyOnTheFabric("hls"); }

TEST(ConformanceSuite, Float32ControlFlowRunsWhollyOnTheSimFabric) { expectFloat32ControlFlowWhollyOnTheFabric("sim"); }

}  // namespace
}  // namespace nnfab
