// A GoogleTest fixture that runs the nnfab binary the way users and external
// tools do: from the source root (so examples/ paths work), with stdout and
// stderr captured apart, in a scratch folder of its own per test.
// The including target defines NNFAB_CLI_PATH and NNFAB_SOURCE_ROOT.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#if !defined(NNFAB_CLI_PATH) || !defined(NNFAB_SOURCE_ROOT)
#error "define NNFAB_CLI_PATH and NNFAB_SOURCE_ROOT for the test target"
#endif

namespace nnfab::test {

struct CliOutcome {
  int exitCode = -1;
  std::string out;
  std::string err;
  std::chrono::milliseconds elapsed{0};
};

inline std::string slurpFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

class CliFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("nnfab_cli_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->test_suite_name() + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // Runs `nnfab ARGS` through the shell (ARGS may hold redirections).
  CliOutcome nnfab(const std::string& args) {
    const std::filesystem::path out = dir_ / "stdout", err = dir_ / "stderr";
    const std::string command = std::string("cd ") + NNFAB_SOURCE_ROOT + " && " + NNFAB_CLI_PATH +
                                " " + args + " >" + out.string() + " 2>" + err.string();
    const auto start = std::chrono::steady_clock::now();
    const int status = std::system(command.c_str());
    CliOutcome o;
    o.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now() - start);
    o.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    o.out = slurpFile(out);
    o.err = slurpFile(err);
    return o;
  }

  std::filesystem::path write(const std::string& name, const std::string& text) {
    const std::filesystem::path path = dir_ / name;
    std::ofstream(path) << text;
    return path;
  }

  std::filesystem::path dir_;
};

}  // namespace nnfab::test
