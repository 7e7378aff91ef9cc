// The cycle-model lower bound (runtime/cycle_bound.h) never exceeds what the
// core really takes: for loops of any trip count, straight-line tensor code
// and random models, it is at most the CYCLES an uninterrupted run reports.
#include <gtest/gtest.h>

#include "backends/hls_backend.h"
#include "compiler/compiler.h"
#include "fabric/core_driver.h"
#include "fabric/device_program.h"
#include "qos/qos_test_util.h"
#include "runtime/cycle_bound.h"
#include "support/loop_models.h"
#include "support/model_builder.h"
#include "support/random_model.h"

namespace nnfab::qos {
namespace {

using testing::int32s;

struct Measured {
  uint64_t bound = 0;
  uint64_t cycles = 0;
};

// Compiles main whole (when the fabric takes it) and runs it once.
std::optional<Measured> measure(const Model& model, const std::vector<TensorValue>& inputs) {
  compiler::StepSpec spec;
  for (uint32_t i = 0; i < model.main.operations.size(); ++i) spec.operations.push_back(i);
  spec.inputs = model.main.inputIndexes;
  spec.outputs = model.main.outputIndexes;
  std::vector<Dimensions> dims;
  for (const TensorValue& v : inputs) dims.push_back(v.dimensions);
  auto program = compiler::compile(model, spec, dims);
  if (!program.isOk()) return std::nullopt;
  backends::HlsBackend backend;
  auto loaded = fabric::DeviceProgram::load(backend, program->code, program->dataImage, program->dataBytes);
  EXPECT_TRUE(loaded.isOk());
  if (!loaded.isOk()) return std::nullopt;
  for (size_t i = 0; i < inputs.size(); ++i) {
    EXPECT_TRUE(loaded->writeData(program->inputs[i].offset, inputs[i].data.data(), inputs[i].data.size()).isOk());
  }
  fabric::CoreDriver driver(backend);
  auto report = driver.run(loaded->loaded(), {});
  EXPECT_TRUE(report.isOk());
  if (!report.isOk() || !report->completed()) return std::nullopt;
  return Measured{runtime::lowerBoundCycles(*program), report->cycles};
}

TEST(QosBound, LoopsCountAsSkippedWhateverTheirTripCount) {
  for (int32_t n : {0, 1, 10, 100000}) {
    auto m = measure(testing::counterLoop(true), counterInputs(n));
    ASSERT_TRUE(m.has_value());
    EXPECT_LE(m->bound, m->cycles) << "n = " << n;
    EXPECT_GT(m->bound, 0u);
    EXPECT_LT(m->bound, 200u) << "n = " << n;  // program load and the loop's entry and exit only
  }
}

TEST(QosBound, StraightLineTensorCodeIsBoundedByItsWriteTraffic) {
  const uint32_t n = 1u << 16;
  auto m = measure(addChain(n, 4), {int32s({n}, std::vector<int32_t>(n, 1))});
  ASSERT_TRUE(m.has_value());
  EXPECT_LE(m->bound, m->cycles);
  EXPECT_GE(m->bound, 4u * (n * 4 / 64));  // four results of 4096 beats each
}

TEST(QosBound, NeverAboveTheCyclesOfRandomModels) {
  size_t compared = 0;
  for (uint64_t seed = 0; seed < 80; ++seed) {
    testing::RandomModelOptions options;
    options.unknownShapePercent = 0;  // whole-main programs need static shapes
    options.dynamicIfPercent = 0;
    const Model model = testing::randomModel(seed, options);
    testing::RandomSource source(seed * 31 + 7);
    auto m = measure(model, testing::randomInputs(model, source));
    if (!m) continue;
    EXPECT_LE(m->bound, m->cycles) << "seed " << seed;
    ++compared;
  }
  EXPECT_GE(compared, 20u);
}

}  // namespace
}  // namespace nnfab::qos
