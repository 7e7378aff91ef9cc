// Whole models compiled as one step and run on the hls backend against the
// CPU reference: the examples, every conformance case whose main operations
// are all fabric-supported, and random INT32/BOOL8 models with nested
// IF/WHILE. Where compile() refuses a case, the reason must be one the CPU
// also stumbles on or a documented fabric limit, never a silent gap.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "compiler_test_util.h"
#include "fabric_runner.h"
#include "model/json_io.h"
#include "support/random_model.h"
#include "validation/validate.h"

namespace nnfab::compiler::test {
namespace {

namespace fs = std::filesystem;

std::string readText(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

bool allMainSupported(const Model& m) {
  for (uint32_t i = 0; i < m.main.operations.size(); ++i) {
    if (!isOperationSupported(m, 0, i, nullptr)) return false;
  }
  return true;
}

// Failures compile() may legitimately report for a model the generator or
// the conformance suite produces.
bool acceptableRefusal(const std::string& message) {
  for (const char* reason : {"different shapes", "changes", "zero-sized", "no value", "unknown rank"}) {
    if (message.find(reason) != std::string::npos) return true;
  }
  return false;
}

TEST(ExecutionModels, Examples) {
  size_t ran = 0;
  for (const auto& entry : fs::directory_iterator(NNFAB_EXAMPLES_DIR)) {
    const fs::path path = entry.path();
    if (path.extension() != ".json" || path.stem().extension() == ".inputs") continue;
    const fs::path inputsPath = path.parent_path() / (path.stem().string() + ".inputs.json");
    if (!fs::exists(inputsPath)) continue;
    auto model = parseModel(readText(path));
    ASSERT_TRUE(model.isOk()) << path << ": " << model.status().message();
    if (!allMainSupported(*model)) continue;
    auto inputs = parseInputs(readText(inputsPath), *model);
    ASSERT_TRUE(inputs.isOk()) << inputs.status().message();
    const auto timeout = std::chrono::milliseconds(50);  // while_infinite must time out
    const ExecutionResult cpu = runOnCpu(*model, *inputs, timeout);
    const FabricRun fabric = runOnFabric(*model, *inputs, timeout);
    EXPECT_EQ(compareWithCpu(cpu, fabric), "") << path;
    ++ran;
  }
  EXPECT_GE(ran, 2u);
}

fs::path ctsDir() {
  if (const char* env = std::getenv("NNFAB_CTS_DIR"); env && *env) return env;
  return NNFAB_DEFAULT_CTS_DIR;
}

TEST(ExecutionModels, ConformanceCasesTheFabricSupports) {
  std::error_code ec;
  if (!fs::is_directory(ctsDir(), ec)) GTEST_SKIP() << "no conformance suite at " << ctsDir();
  size_t supported = 0, compared = 0;
  for (auto it = fs::recursive_directory_iterator(ctsDir(), ec); !ec && it != fs::end(it); it.increment(ec)) {
    if (!it->is_regular_file() || it->path().extension() != ".json") continue;
    auto tc = parseTestCase(readText(it->path()));
    if (!tc.isOk()) continue;  // the conformance runner reports unreadable cases
    if (!allMainSupported(tc->model)) continue;
    ++supported;
    SCOPED_TRACE(it->path().string());
    const auto timeout = std::chrono::milliseconds(50);
    const ExecutionResult cpu = runOnCpu(tc->model, tc->inputs, timeout);
    const FabricRun fabric = runOnFabric(tc->model, tc->inputs, timeout);
    if (!fabric.compiled) {
      // The runtime then runs the step on the CPU: fine where the CPU fails too.
      EXPECT_TRUE(!cpu.status.isOk() || acceptableRefusal(fabric.compileStatus.message()))
          << fabric.compileStatus.message();
      continue;
    }
    EXPECT_EQ(compareWithCpu(cpu, fabric), "");
    if (tc->expectFailure) {
      EXPECT_FALSE(fabric.status.isOk());
    }
    ++compared;
  }
  RecordProperty("supported", static_cast<int>(supported));
  RecordProperty("compared", static_cast<int>(compared));
  EXPECT_GT(compared, 0u);
}

// NNFAB_COMPILER_RANDOM_SEEDS=N runs N seeds (a long run); the suite runs 1000.
uint64_t randomSeeds() {
  if (const char* env = std::getenv("NNFAB_COMPILER_RANDOM_SEEDS"); env && *env) return std::strtoull(env, nullptr, 10);
  return 1000;
}

TEST(ExecutionModels, RandomModels) {
  size_t compiled = 0, refused = 0, outOfRegisters = 0;
  const uint64_t seeds = randomSeeds();
  for (uint64_t seed = 1; seed <= seeds; ++seed) {
    testing::RandomModelOptions options;
    options.maxLoopBound = 6;
    // Every third seed nests deeper and runs longer loops.
    if (seed % 3 == 0) {
      options.maxDepth = 5;
      options.maxOperations = 8;
      options.maxLoopBound = 20;
    }
    const Model model = testing::randomModel(seed, options);
    if (!allMainSupported(model)) continue;
    testing::RandomSource rng(seed * 7919);
    testing::RandomInputOptions inputOptions;
    inputOptions.nonCanonicalBools = seed % 2 == 1;
    const std::vector<TensorValue> inputs = testing::randomInputs(model, rng, inputOptions);
    const ExecutionResult cpu = runOnCpu(model, inputs);
    const FabricRun fabric = runOnFabric(model, inputs);
    if (!fabric.compiled) {
      ++refused;
      const std::string& why = fabric.compileStatus.message();
      // Deeply nested loops carrying many values can need more than 31
      // registers: a documented limit (the CPU runs such steps), kept rare.
      if (why.find("not enough registers") != std::string::npos) {
        ++outOfRegisters;
        continue;
      }
      EXPECT_TRUE(acceptableRefusal(why) || !cpu.status.isOk()) << "seed " << seed << ": " << why;
      continue;
    }
    ++compiled;
    EXPECT_EQ(compareWithCpu(cpu, fabric), "") << "seed " << seed;
  }
  RecordProperty("compiled", static_cast<int>(compiled));
  RecordProperty("refused", static_cast<int>(refused));
  RecordProperty("outOfRegisters", static_cast<int>(outOfRegisters));
  EXPECT_GT(compiled, seeds * 9 / 10) << refused << " refused";
  EXPECT_LT(outOfRegisters, seeds / 50 + 1);
}

}  // namespace
}  // namespace nnfab::compiler::test
