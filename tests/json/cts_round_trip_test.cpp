// Every conformance case parses, and its model, inputs and expected outputs
// survive write -> read unchanged.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <vector>

#include "json_test_util.h"

namespace nnfab::testing {
namespace {

std::vector<std::filesystem::path> ctsFiles(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file() && entry.path().extension() == ".json")
      files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

class Cts : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string lookedAt;
    const auto dir = ctsDirectory(lookedAt);
    if (!dir) GTEST_SKIP() << "no conformance folder; looked at: " << lookedAt;
    files_ = ctsFiles(*dir);
    ASSERT_FALSE(files_.empty()) << "no .json files under " << dir->string();
  }
  std::vector<std::filesystem::path> files_;
};

TEST_F(Cts, EveryCaseParses) {
  const auto start = std::chrono::steady_clock::now();
  for (const auto& file : files_) {
    const auto test = parseTestCase(readFile(file));
    EXPECT_TRUE(parses(test)) << file;
    if (!test.isOk()) continue;
    EXPECT_FALSE(test->name.empty()) << file;
    EXPECT_EQ(test->inputs.size(), test->model.main.inputIndexes.size()) << file;
    EXPECT_EQ(test->outputs.size(), test->model.main.outputIndexes.size()) << file;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  RecordProperty("files", static_cast<int>(files_.size()));
  std::printf("parsed %zu conformance cases in %.3f s\n", files_.size(), seconds);
}

TEST_F(Cts, ModelsInputsAndOutputsRoundTrip) {
  for (const auto& file : files_) {
    SCOPED_TRACE(file.string());
    const auto test = parseTestCase(readFile(file));
    ASSERT_TRUE(parses(test));

    const std::string modelText = writeModel(test->model);
    const auto model = parseModel(modelText);
    ASSERT_TRUE(parses(model)) << modelText;
    EXPECT_TRUE(sameModel(*model, test->model));
    EXPECT_EQ(writeModel(*model), modelText);

    const auto inputs = parseInputs(writeInputs(test->inputs), *model);
    ASSERT_TRUE(parses(inputs));
    ASSERT_EQ(inputs->size(), test->inputs.size());
    for (size_t i = 0; i < inputs->size(); ++i)
      EXPECT_TRUE(sameTensor((*inputs)[i], test->inputs[i])) << "input " << i;

    // Expected outputs through writeResult, reassembled into a test case.
    ExecutionResult result;
    for (const ExpectedOutput& output : test->outputs) result.outputs.push_back(output.value);
    nlohmann::json written = nlohmann::json::parse(writeResult(result));
    ASSERT_EQ(written["status"], "NO_ERROR");
    nlohmann::json outputs = written["outputs"];
    for (size_t i = 0; i < outputs.size(); ++i) outputs[i]["ignored"] = test->outputs[i].ignored;
    const std::string rebuilt =
        "{\"name\": " + nlohmann::json(test->name).dump() +
        ", \"source\": " + nlohmann::json(test->source).dump() + ", \"model\": " + modelText +
        ", \"inputs\": " + nlohmann::json::parse(writeInputs(test->inputs))["inputs"].dump() +
        ", \"outputs\": " + outputs.dump() +
        ", \"expectFailure\": " + (test->expectFailure ? "true" : "false") +
        ", \"isRelaxed\": " + (test->isRelaxed ? "true" : "false") + "}";
    const auto again = parseTestCase(rebuilt);
    ASSERT_TRUE(parses(again));
    ASSERT_EQ(again->outputs.size(), test->outputs.size());
    for (size_t i = 0; i < test->outputs.size(); ++i) {
      EXPECT_TRUE(sameTensor(again->outputs[i].value, test->outputs[i].value)) << "output " << i;
      EXPECT_EQ(again->outputs[i].ignored, test->outputs[i].ignored);
    }
    EXPECT_EQ(again->expectFailure, test->expectFailure);
    EXPECT_EQ(again->isRelaxed, test->isRelaxed);
  }
}

}  // namespace
}  // namespace nnfab::testing
