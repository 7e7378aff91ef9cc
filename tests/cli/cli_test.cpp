// The nnfab binary as users and external tools run it: exit codes, stdout
// carrying only the result JSON, usage errors, the examples.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

struct Outcome {
  int exitCode = -1;
  std::string out;
  std::string err;
  std::chrono::milliseconds elapsed{0};
};

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

class Cli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("nnfab_cli_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Runs `nnfab ARGS` with stdout and stderr captured separately.
  Outcome nnfab(const std::string& args) {
    const fs::path out = dir_ / "stdout", err = dir_ / "stderr";
    const std::string command = std::string("cd ") + NNFAB_SOURCE_ROOT + " && " + NNFAB_CLI_PATH +
                                " " + args + " >" + out.string() + " 2>" + err.string();
    const auto start = std::chrono::steady_clock::now();
    const int status = std::system(command.c_str());
    Outcome o;
    o.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now() - start);
    o.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    o.out = slurp(out);
    o.err = slurp(err);
    return o;
  }

  fs::path write(const std::string& name, const std::string& text) {
    const fs::path path = dir_ / name;
    std::ofstream(path) << text;
    return path;
  }

  // stdout must be one JSON document and nothing else.
  static Json result(const Outcome& o) {
    EXPECT_TRUE(Json::accept(o.out)) << "stdout is not just JSON:\n" << o.out;
    return Json::parse(o.out, nullptr, false);
  }

  fs::path dir_;
};

TEST_F(Cli, RunsTheWhileExample) {
  const Outcome o = nnfab("run examples/while_sum.json --inputs examples/while_sum.inputs.json");
  EXPECT_EQ(o.exitCode, 0) << o.err;
  const Json r = result(o);
  EXPECT_EQ(r["status"], "NO_ERROR");
  EXPECT_EQ(r["outputs"][0]["data"], Json::parse("[100]"));
  EXPECT_EQ(r["outputs"][1]["data"], Json::parse("[4950]"));
  EXPECT_EQ(r["outputs"][1]["dimensions"], Json::parse("[1]"));
  EXPECT_TRUE(r["timing"].contains("onDeviceNs"));
}

TEST_F(Cli, RunsTheIfExampleWithInfinities) {
  const Outcome o = nnfab("run examples/if_abs_scale.json --inputs examples/if_abs_scale.inputs.json --device cpu");
  EXPECT_EQ(o.exitCode, 0) << o.err;
  const Json r = result(o);
  // else branch: RELU(x * 0.5) of [-1.5, 2, -inf, 0.25]
  EXPECT_EQ(r["outputs"][0]["data"], Json::parse("[0.0, 1.0, 0.0, 0.125]"));
}

TEST_F(Cli, InfiniteLoopEndsAtTheLoopTimeout) {
  const Outcome o = nnfab(
      "run examples/while_infinite.json --inputs examples/while_infinite.inputs.json "
      "--loop-timeout-ms 100");
  EXPECT_EQ(o.exitCode, 1);
  const Json r = result(o);
  EXPECT_EQ(r["status"], "MISSED_DEADLINE_TRANSIENT");
  EXPECT_TRUE(r.contains("message"));
  EXPECT_FALSE(r.contains("outputs"));
  EXPECT_GE(o.elapsed.count(), 100);
  EXPECT_LT(o.elapsed.count(), 5000);  // generous: catches a hang, not a slow machine
}

TEST_F(Cli, DeadlineEndsAnInfiniteLoop) {
  const Outcome o = nnfab(
      "run examples/while_infinite.json --inputs examples/while_infinite.inputs.json "
      "--loop-timeout-ms 15000 --timeout-ms 100");
  EXPECT_EQ(o.exitCode, 1);
  EXPECT_EQ(result(o)["status"], "MISSED_DEADLINE_TRANSIENT");
  EXPECT_LT(o.elapsed.count(), 5000);
}

TEST_F(Cli, LoopTimeoutAboveTheMaximumIsClamped) {
  const Outcome o = nnfab(
      "run examples/while_sum.json --inputs examples/while_sum.inputs.json "
      "--loop-timeout-ms 99999999999 --timeout-ms 0 --priority high");
  EXPECT_EQ(o.exitCode, 0) << o.err;
  EXPECT_EQ(result(o)["status"], "NO_ERROR");
}

TEST_F(Cli, UsageErrorsExitTwoWithNothingOnStdout) {
  const char* cases[] = {
      "run examples/while_sum.json --inputs examples/while_sum.inputs.json --bogus",
      "run examples/while_sum.json --inputs examples/while_sum.inputs.json --priority urgent",
      "run examples/while_sum.json --inputs examples/while_sum.inputs.json --device nosuch",
      "run examples/while_sum.json --inputs examples/while_sum.inputs.json --timeout-ms -1",
      "run examples/while_sum.json --inputs examples/while_sum.inputs.json --timeout-ms abc",
      "run examples/while_sum.json",                                   // --inputs missing
      "run no_such_model.json --inputs examples/while_sum.inputs.json",
      "run examples --inputs examples/while_sum.inputs.json",          // a directory
      "run examples/while_sum.json --inputs no_such_inputs.json",
      "frobnicate",
      "",
  };
  for (const char* args : cases) {
    const Outcome o = nnfab(args);
    EXPECT_EQ(o.exitCode, 2) << args;
    EXPECT_EQ(o.out, "") << args;
    EXPECT_NE(o.err, "") << args;
  }
}

TEST_F(Cli, MalformedModelIsAnInvalidArgumentResult) {
  const fs::path model = write("bad.json", R"({"main": {"operands": [], "operations": [)");
  const Outcome o = nnfab("run " + model.string() + " --inputs examples/while_sum.inputs.json");
  EXPECT_EQ(o.exitCode, 1);
  const Json r = result(o);
  EXPECT_EQ(r["status"], "INVALID_ARGUMENT");
  EXPECT_FALSE(r["message"].get<std::string>().empty());
}

TEST_F(Cli, InvalidModelNamesTheJsonPathOrPlace) {
  std::string text = slurp(fs::path(NNFAB_SOURCE_ROOT) / "examples/while_sum.json");
  text.replace(text.find("\"LESS\""), 6, "\"LESS_THAN\"");  // not an operation name
  const fs::path model = write("bad_op.json", text);
  const Outcome o = nnfab("run " + model.string() + " --inputs examples/while_sum.inputs.json");
  EXPECT_EQ(o.exitCode, 1);
  const Json r = result(o);
  EXPECT_EQ(r["status"], "INVALID_ARGUMENT");
  EXPECT_NE(r["message"].get<std::string>().find("referenced[0].operations[0]"), std::string::npos)
      << r["message"];
}

TEST_F(Cli, WrongInputCountIsInvalidArgument) {
  const fs::path inputs = write("two.json", R"({"inputs": [{"data": [1]}, {"data": [2]}]})");
  const Outcome o = nnfab("run examples/while_sum.json --inputs " + inputs.string());
  EXPECT_EQ(o.exitCode, 1);
  EXPECT_EQ(result(o)["status"], "INVALID_ARGUMENT");
}

TEST_F(Cli, HelpIsAvailableEverywhere) {
  for (const char* args : {"--help", "run --help", "validate --help", "devices --help"}) {
    const Outcome o = nnfab(args);
    EXPECT_EQ(o.exitCode, 0) << args;
    EXPECT_NE(o.out.find("Usage"), std::string::npos) << args << o.out;
  }
}

TEST_F(Cli, ValidateReportsStatus) {
  Outcome o = nnfab("validate examples/while_sum.json");
  EXPECT_EQ(o.exitCode, 0) << o.err;
  EXPECT_EQ(result(o)["status"], "NO_ERROR");
  o = nnfab("validate examples/while_sum.json --driver");
  EXPECT_EQ(o.exitCode, 0) << o.err;

  std::string text = slurp(fs::path(NNFAB_SOURCE_ROOT) / "examples/while_sum.json");
  // Make the condition's output TENSOR_INT32: a WHILE rule violation.
  text.replace(text.find("\"TENSOR_BOOL8\""), 14, "\"TENSOR_INT32\"");
  const fs::path model = write("bad_cond.json", text);
  o = nnfab("validate " + model.string());
  EXPECT_EQ(o.exitCode, 1);
  const Json r = result(o);
  EXPECT_EQ(r["status"], "INVALID_ARGUMENT");
  EXPECT_NE(r["message"].get<std::string>().find("WHILE"), std::string::npos) << r["message"];
}

TEST_F(Cli, DevicesListsTheCpu) {
  Outcome o = nnfab("devices");
  EXPECT_EQ(o.exitCode, 0);
  EXPECT_NE(o.out.find("cpu"), std::string::npos);
  o = nnfab("devices --json");
  EXPECT_EQ(o.exitCode, 0);
  const Json devices = result(o);
  ASSERT_TRUE(devices.is_array());
  bool cpu = false;
  for (const auto& d : devices) cpu |= d["name"] == "cpu";
  EXPECT_TRUE(cpu);
}

}  // namespace
