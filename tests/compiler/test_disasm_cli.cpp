// `nnfab disasm` as a user runs it: the listing alone on stdout (exit 0),
// the reason on stderr with exit 1 when the model is not fabric-supported or
// does not compile, exit 2 on usage errors.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "compiler_test_util.h"
#include "model/json_io.h"
#include "support/loop_models.h"
#include "support/model_builder.h"
#include "support/cli_fixture.h"

namespace nnfab::compiler::test {
namespace {

namespace fs = std::filesystem;

using Outcome = nnfab::test::CliOutcome;

class DisasmCli : public nnfab::test::CliFixture {};

TEST_F(DisasmCli, PrintsTheListing) {
  const Outcome o = nnfab("disasm examples/while_sum.json");
  EXPECT_EQ(o.exitCode, 0) << o.err;
  EXPECT_TRUE(o.err.empty()) << o.err;
  EXPECT_EQ(o.out.rfind("; nnfab program: ", 0), 0u) << o.out;
  EXPECT_NE(o.out.find("wdarm"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find(", L0 !"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("halt 0"), std::string::npos) << o.out;
}

TEST_F(DisasmCli, InputsFileGivesTheShapes) {
  // x declared with an unknown dimension: its shape comes from --inputs.
  testing::SubgraphBuilder main;
  const uint32_t x = main.input(I32, {0});
  const uint32_t y = main.output(I32, {0});
  main.op(OperationType::NEG, {x}, {y});
  Model m;
  m.main = main.build();
  const fs::path model = write("m.json", writeModel(m));
  const Outcome without = nnfab("disasm " + model.string());
  EXPECT_EQ(without.exitCode, 1);
  EXPECT_NE(without.err.find("--inputs"), std::string::npos) << without.err;
  const fs::path inputs = write("in.json", writeInputs({testing::int32s({5}, {1, 2, 3, 4, 5})}));
  const Outcome with = nnfab("disasm " + model.string() + " --inputs " + inputs.string());
  EXPECT_EQ(with.exitCode, 0) << with.err;
  EXPECT_NE(with.out.find("tneg.int32"), std::string::npos) << with.out;
  EXPECT_NE(with.out.find("TENSOR_INT32 [5]"), std::string::npos) << with.out;
}

TEST_F(DisasmCli, UnsupportedOrUncompilableIsExitOne) {
  // RESHAPE whose shape is an input: the fabric needs it at compile time.
  testing::SubgraphBuilder r;
  const uint32_t in = r.input(OperandType::TENSOR_FLOAT32, {4});
  const uint32_t shape = r.input(OperandType::TENSOR_INT32, {2});
  const uint32_t out = r.output(OperandType::TENSOR_FLOAT32, {});
  r.op(OperationType::RESHAPE, {in, shape}, {out});
  Model unsupported;
  unsupported.main = r.build();
  const Outcome o = nnfab("disasm " + write("reshape_input_shape.json", writeModel(unsupported)).string());
  EXPECT_EQ(o.exitCode, 1);
  EXPECT_TRUE(o.out.empty()) << o.out;
  EXPECT_NE(o.err.find("not supported by the fabric"), std::string::npos) << o.err;
  // if_abs_scale (FLOAT32 in its branches) is the whole ISA's since version 2.
  const Outcome f = nnfab("disasm examples/if_abs_scale.json");
  EXPECT_EQ(f.exitCode, 0) << f.err;
  EXPECT_NE(f.out.find(".float32"), std::string::npos) << f.out;

  const fs::path deep = write("deep.json", writeModel(testing::deepWhileChain(100)));
  const Outcome d = nnfab("disasm " + deep.string());
  EXPECT_EQ(d.exitCode, 1);
  EXPECT_NE(d.err.find("does not compile"), std::string::npos) << d.err;
}

TEST_F(DisasmCli, UsageErrorsAreExitTwo) {
  EXPECT_EQ(nnfab("disasm").exitCode, 2);
  EXPECT_EQ(nnfab("disasm " + (dir_ / "missing.json").string()).exitCode, 2);
  EXPECT_EQ(nnfab("disasm examples/while_sum.json --bogus").exitCode, 2);
  const Outcome bad = nnfab("disasm " + write("bad.json", "{").string());
  EXPECT_EQ(bad.exitCode, 1);
  EXPECT_FALSE(bad.err.empty());
}

}  // namespace
}  // namespace nnfab::compiler::test
