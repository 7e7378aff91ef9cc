// Hostile files and outputs, as a user's shell can produce them: special files
// in place of a model, results written to a full disk, unwritable traces, and
// inputs built to make the reader use memory out of proportion to their size.
// Every one ends with a clear message and the documented exit code, quickly.
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <string>

#include "support/cli_fixture.h"

namespace nnfab::test {
namespace {

using namespace std::chrono_literals;

constexpr const char* kModel = "examples/while_sum.json";
constexpr const char* kInputs = "examples/while_sum.inputs.json";

class HostileCli : public CliFixture {
 protected:
  // Runs nnfab directly (no shell) with stdout to `out` and stderr to the
  // file `err`, from the source root; returns its exit code and peak resident
  // memory in KiB, measured for that process alone.
  std::pair<int, long> runMeasured(const std::vector<std::string>& args, const char* out = "/dev/null",
                                   const std::string& err = "/dev/null") {
    const pid_t pid = ::fork();
    if (pid == 0) {
      if (::chdir(NNFAB_SOURCE_ROOT) != 0) ::_exit(126);
      ::dup2(::open(out, O_WRONLY), STDOUT_FILENO);
      ::dup2(::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644), STDERR_FILENO);
      std::vector<char*> argv;
      argv.push_back(const_cast<char*>(NNFAB_CLI_PATH));
      for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
      argv.push_back(nullptr);
      ::execv(NNFAB_CLI_PATH, argv.data());
      ::_exit(127);
    }
    int status = 0;
    struct rusage usage {};
    ::wait4(pid, &status, 0, &usage);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), usage.ru_maxrss};
  }

  // A file of `bytes` bytes made by repeating `unit`, written in large blocks.
  std::filesystem::path writeRepeated(const std::string& name, const std::string& prefix,
                                      const std::string& unit, size_t bytes) {
    const std::filesystem::path path = dir_ / name;
    std::ofstream out(path, std::ios::binary);
    out << prefix;
    std::string block;
    while (block.size() < (1 << 20)) block += unit;
    for (size_t written = prefix.size(); written < bytes; written += block.size()) out << block;
    return path;
  }
};

TEST_F(HostileCli, AFifoIsRefusedAtOnceInsteadOfBlocking) {
  const std::filesystem::path fifo = dir_ / "model.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string& args : {"run " + fifo.string() + " --inputs " + kInputs,
                                  std::string("run ") + kModel + " --inputs " + fifo.string(),
                                  "validate " + fifo.string()}) {
    const CliOutcome o = nnfab(args);
    EXPECT_EQ(o.exitCode, 2) << args << "\n" << o.err;
    EXPECT_NE(o.err.find("a FIFO"), std::string::npos) << o.err;
    EXPECT_TRUE(o.out.empty());
    EXPECT_LT(o.elapsed, 10s);
  }
}

TEST_F(HostileCli, DevicesAndSocketsAreNotModels) {
  const std::filesystem::path socketPath = dir_ / "model.sock";
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::snprintf(address.sun_path, sizeof address.sun_path, "%s", socketPath.c_str());
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  ASSERT_EQ(::listen(fd, 1), 0);
  const std::pair<std::string, std::string> cases[] = {
      {"/dev/zero", "a character device"}, {"/dev/null", "a character device"},
      {socketPath.string(), "a socket"}, {dir_.string(), "a directory"}};
  for (const auto& [path, kind] : cases) {
    const CliOutcome o = nnfab("run " + path + " --inputs " + kInputs);
    EXPECT_EQ(o.exitCode, 2) << path << "\n" << o.err;
    EXPECT_NE(o.err.find(kind), std::string::npos) << o.err;
    EXPECT_LT(o.elapsed, 10s);
  }
  ::close(fd);
}

TEST_F(HostileCli, ADashReadsStandardInput) {
  const CliOutcome viaStdin = nnfab(std::string("run - --inputs ") + kInputs + " --device cpu < " + kModel);
  const CliOutcome viaFile = nnfab(std::string("run ") + kModel + " --inputs " + kInputs + " --device cpu");
  ASSERT_EQ(viaStdin.exitCode, 0) << viaStdin.err;
  EXPECT_EQ(viaStdin.out.substr(0, viaStdin.out.find("\"timing\"")),
            viaFile.out.substr(0, viaFile.out.find("\"timing\"")));
}

TEST_F(HostileCli, AResultThatCannotBeWrittenIsAnError) {
  const std::string err = (dir_ / "stderr").string();
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"run", kModel, "--inputs", kInputs, "--device", "cpu"},
        {"validate", kModel}, {"devices"}, {"devices", "--json"}, {"partition", kModel}}) {
    const int code = runMeasured(args, "/dev/full", err).first;
    EXPECT_EQ(code, 2) << args[0];
    const std::string message = slurpFile(err);
    EXPECT_NE(message.find("writing to standard output failed: No space left on device"), std::string::npos)
        << args[0] << ": " << message;
  }
}

TEST_F(HostileCli, ATraceThatCannotBeWrittenIsAUsageError) {
#ifdef NNFAB_TEST_HAS_SIM
  const CliOutcome o = nnfab(std::string("run ") + kModel + " --inputs " + kInputs +
                             " --device sim --trace /nonexistent-dir/trace.fst");
  EXPECT_EQ(o.exitCode, 2) << o.err;
  EXPECT_NE(o.err.find("--trace"), std::string::npos) << o.err;
  EXPECT_TRUE(o.out.empty());
#else
  GTEST_SKIP() << "no sim device in this build";
#endif
}

TEST_F(HostileCli, AFileAboveTheLimitIsRefusedBeforeItIsRead) {
  // A sparse file: 600 MiB long, no disk used, never read.
  const std::filesystem::path big = dir_ / "big.json";
  { std::ofstream(big) << "{"; }
  std::filesystem::resize_file(big, size_t{600} << 20);
  const auto [code, kib] = runMeasured({"validate", big.string()});
  EXPECT_EQ(code, 2);
  EXPECT_LT(kib, 200 * 1024);  // far below the file's size
  const CliOutcome o = nnfab("validate " + big.string());
  EXPECT_NE(o.err.find("larger than the limit of 512 MiB"), std::string::npos) << o.err;
}

// Whitespace, line feeds and control characters are each one byte of input;
// the reader must not turn them into many bytes (an error message spelling
// every one out) before it reports the error.
TEST_F(HostileCli, MalformedInputCostsASmallMultipleOfItsSize) {
  constexpr size_t kBytes = size_t{64} << 20;
  const auto [baseCode, baseKib] = runMeasured({"validate", kModel});  // from the source root
  ASSERT_EQ(baseCode, 0);
  struct Case {
    const char* name;
    std::string prefix, unit;
  };
  const Case cases[] = {{"spaces.json", "", " "},
                        {"newlines.json", "", "\n"},
                        {"array-then-newlines.json", "[1,", "\n\r\t "},
                        {"control.json", "", "\x01"},
                        {"newlines-then-control.json", "{", "\n\n\n\x01"}};
  for (const Case& c : cases) {
    const std::filesystem::path file = writeRepeated(c.name, c.prefix, c.unit, kBytes);
    const auto [code, kib] = runMeasured({"validate", file.string()});
    EXPECT_EQ(code, 1) << c.name;  // an INVALID_ARGUMENT result
    // The file is held once; anything beyond about twice that is amplification.
    EXPECT_LT(kib - baseKib, static_cast<long>(3 * kBytes / 1024)) << c.name << ": peak " << kib << " KiB";
    std::filesystem::remove(file);
  }
}

TEST_F(HostileCli, AnErrorAfterLongWhitespaceNamesTheOriginalOffset) {
  const std::string text = "[1," + std::string(100000, '\n') + "x]";
  const CliOutcome o = nnfab("validate " + write("late.json", text).string());
  EXPECT_EQ(o.exitCode, 1);
  EXPECT_NE(o.out.find("byte offset 100003 (line 100001, column 1)"), std::string::npos) << o.out;
}

}  // namespace
}  // namespace nnfab::test
