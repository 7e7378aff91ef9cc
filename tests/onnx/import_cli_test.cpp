// `nnfab import` and `nnfab run MODEL.onnx` as users call them: the exit
// codes of docs/onnx.md and the JSON model it writes.
#include "support/cli_fixture.h"

namespace nnfab::test {
namespace {

const std::string kLoop11 = std::string(NNFAB_ONNX_TESTDATA_DIR) + "/node/test_loop11/model.onnx";

class OnnxCli : public CliFixture {
 protected:
  void SetUp() override {
    CliFixture::SetUp();
    if (!std::filesystem::exists(kLoop11)) GTEST_SKIP() << "libonnx-testdata is not installed";
  }
};

#ifndef NNFAB_TEST_HAVE_ONNX
// A build without libonnx-dev says so, as a usage error.
TEST_F(OnnxCli, BuiltWithoutOnnxSaysSo) {
  auto o = nnfab("import " + kLoop11);
  EXPECT_EQ(o.exitCode, 2);
  EXPECT_NE(o.err.find("built without ONNX support"), std::string::npos) << o.err;
  const auto inputs = write("in.json", R"({"inputs": []})");
  o = nnfab("run " + kLoop11 + " --inputs " + inputs.string());
  EXPECT_EQ(o.exitCode, 2);
  EXPECT_NE(o.err.find("built without ONNX support"), std::string::npos) << o.err;
}
#else
TEST_F(OnnxCli, ImportWritesAModelThatRuns) {
  const auto json = dir_ / "loop11.json";
  auto o = nnfab("import " + kLoop11 + " -o " + json.string());
  ASSERT_EQ(o.exitCode, 0) << o.err;
  EXPECT_NE(o.err.find("inputs (in this order): trip_count, cond, y"), std::string::npos) << o.err;
  const auto inputs = write("in.json",
                            R"({"inputs": [{"dimensions": [1], "data": [3]}, {"dimensions": [1], "data": [true]},)"
                            R"( {"dimensions": [1], "data": [-2.0]}]})");
  o = nnfab("run " + json.string() + " --inputs " + inputs.string() + " --device cpu");
  ASSERT_EQ(o.exitCode, 0) << o.err;
  EXPECT_NE(o.out.find(R"({"dimensions": [3, 1], "data": [-1.0, 1.0, 4.0]})"), std::string::npos) << o.out;
  // The same straight from the .onnx file, and to stdout.
  auto direct = nnfab("run " + kLoop11 + " --inputs " + inputs.string() + " --device cpu");
  ASSERT_EQ(direct.exitCode, 0) << direct.err;
  EXPECT_NE(direct.out.find(R"({"dimensions": [3, 1], "data": [-1.0, 1.0, 4.0]})"), std::string::npos);
  o = nnfab("import " + kLoop11);
  EXPECT_EQ(o.exitCode, 0);
  EXPECT_EQ(o.out, slurpFile(json));
  // partition reads .onnx too: the float loop runs on the CPU.
  o = nnfab("partition " + kLoop11 + " --device hls");
  ASSERT_EQ(o.exitCode, 0) << o.err;
  EXPECT_NE(o.out.find("plan on hls"), std::string::npos) << o.out;
}

TEST_F(OnnxCli, ExitCodes) {
  // Not an ONNX model: a usage error.
  const auto garbage = write("garbage.onnx", "definitely not protobuf \x01\x02\x03");
  auto o = nnfab("import " + garbage.string());
  EXPECT_EQ(o.exitCode, 2);
  EXPECT_NE(o.err.find("not a valid ONNX model"), std::string::npos) << o.err;
  const auto inputs = write("in.json", R"({"inputs": []})");
  o = nnfab("run " + garbage.string() + " --inputs " + inputs.string());
  EXPECT_EQ(o.exitCode, 2);
  // A valid model nnfab cannot express: refused with the reason.
  const std::string seq = std::string(NNFAB_ONNX_TESTDATA_DIR) + "/node/test_if_seq/model.onnx";
  o = nnfab("import " + seq);
  EXPECT_EQ(o.exitCode, 1);
  EXPECT_NE(o.err.find("output 'res' is a sequence"), std::string::npos) << o.err;
  o = nnfab("run " + seq + " --inputs " + inputs.string());
  EXPECT_EQ(o.exitCode, 1);
  EXPECT_NE(o.out.find("INVALID_ARGUMENT"), std::string::npos) << o.out;
  // A missing file.
  o = nnfab("import " + (dir_ / "missing.onnx").string());
  EXPECT_EQ(o.exitCode, 2);
}
#endif

}  // namespace
}  // namespace nnfab::test

namespace nnfab::test {
namespace {

// --profile writes a Chrome trace-event file: the phases, the execution
// with its device, the steps; wall-clock time, said in the file.
TEST_F(CliFixture, ProfileWritesAChromeTrace) {
  const std::string model = std::string(NNFAB_SOURCE_ROOT) + "/examples/while_sum.json";
  const auto trace = dir_ / "trace.json";
  auto o = nnfab("run " + model + " --inputs examples/while_sum.inputs.json --device hls --profile " + trace.string());
  ASSERT_EQ(o.exitCode, 0) << o.err;
  const std::string text = slurpFile(trace);
  EXPECT_EQ(text.rfind("{", 0), 0u);
  for (const char* needle : {"\"traceEvents\"", "\"ph\": \"X\"", "\"name\": \"execute\"", "\"device\": \"hls\"",
                             "\"runs_on\": \"fabric\"", "host wall clock", "\"name\": \"read and parse the model\""}) {
    EXPECT_NE(text.find(needle), std::string::npos) << needle << " in " << text;
  }
  o = nnfab("run " + model + " --inputs examples/while_sum.inputs.json --profile " + (dir_ / "no/such/dir.json").string());
  EXPECT_EQ(o.exitCode, 2);
}

}  // namespace
}  // namespace nnfab::test
