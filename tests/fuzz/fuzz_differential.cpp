// libFuzzer target that reaches the executors: the input's bytes drive the
// random-model generator (tests/support/random_model.h: nested IF/WHILE,
// broadcasting, INT32/BOOL8/FLOAT32, edge values), and every valid model runs
// on cpu (checked against the oracle and a JSON round trip), on hls and, for
// one input in 16, on sim. A crash, a sanitizer report, a hang past libFuzzer's
// -timeout, or any status or result that differs between devices is a
// finding: the target aborts so that libFuzzer keeps and minimises the input.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <vector>

#include "differential/differential.h"
#include "runtime/device.h"
#include "support/random_model.h"
#include "validation/validate.h"

namespace {

using nnfab::differential::Case;
using nnfab::testing::RandomModelOptions;
using nnfab::testing::RandomSource;

// The first byte chooses the generator's options, the rest its every draw.
RandomModelOptions optionsFrom(uint8_t b) {
  RandomModelOptions options;
  options.float32 = (b & 1) != 0;
  options.floatEdges = options.float32;  // FLOAT32 edge values, DIV, activations, FC
  options.maxDepth = (b >> 1) & 3;
  options.maxOperations = 2 + ((b >> 3) & 3) * 2;
  options.maxLoopBound = 3;  // short loops: many models per second
  options.maxDimension = 4;
  return options;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const RandomModelOptions options = optionsFrom(data[0]);
  RandomSource rng(std::span<const uint8_t>(data + 1, size - 1));
  Case c;
  c.options = options;
  c.model = nnfab::testing::randomModel(std::move(rng), options);
  // The generator promises a valid model; a broken promise is a finding too.
  if (nnfab::Status s = nnfab::validateModel(c.model, nnfab::ValidationMode::RUNTIME); !s.isOk()) {
    std::fprintf(stderr, "fuzz_differential: the generator made an invalid model: %s\n", s.message().c_str());
    std::abort();
  }
  RandomSource inputRng(std::span<const uint8_t>(data, size));
  c.inputOptions.nonCanonicalBools = (data[0] & 0x80) != 0;
  c.inputOptions.floatEdges = options.floatEdges;
  c.inputs = nnfab::testing::randomInputs(c.model, inputRng, c.inputOptions);

  static const std::vector<const nnfab::Device*> cheap = [] {
    std::vector<const nnfab::Device*> devices;
    for (const char* name : {"cpu", "hls"}) {
      if (const nnfab::Device* d = nnfab::findDevice(name)) devices.push_back(d);
    }
    return devices;
  }();
  std::vector<const nnfab::Device*> devices = cheap;
  const nnfab::Device* sim = nnfab::findDevice("sim");
  if (sim && (data[size - 1] & 15) == 0) devices.push_back(sim);

  nnfab::differential::CheckOptions check;
  check.reexecute = false;
  check.loopTimeoutMs = 2000;  // generated loops run a few iterations: never fires on a correct device
  const auto report = nnfab::differential::checkCase(c, devices, check);
  if (!report.mismatches.empty()) {
    for (const std::string& m : report.mismatches) std::fprintf(stderr, "fuzz_differential: %s\n", m.c_str());
    std::abort();
  }
  return 0;
}
