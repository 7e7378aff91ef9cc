// The differential check shared by the GoogleTest suite and the long-run
// tool: one random case per seed, run on every device, compared with the
// "cpu" device bit for bit; "cpu" itself is compared with the oracle and
// with a run of the model after a JSON write/parse round trip.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "differential/oracle.h"
#include "model/execution.h"
#include "model/model.h"
#include "runtime/device.h"
#include "support/random_model.h"

namespace nnfab::differential {

struct Case {
  uint64_t seed = 0;
  testing::RandomModelOptions options;
  testing::RandomInputOptions inputOptions;
  Model model;
  std::vector<TensorValue> inputs;
  // A second set of inputs for the same prepared model (state must not leak
  // from one execution into the next).
  std::vector<TensorValue> otherInputs;
};

// The generator options vary with the seed so that the seed alone
// reproduces a case: every 4th seed (seed % 4 == 3) mixes in FLOAT32, odd
// seeds feed BOOL8 inputs bytes other than 0/1.
Case makeCase(uint64_t seed);
// With exactly these generator options (no variation by seed).
Case makeCase(uint64_t seed, const testing::RandomModelOptions& options);

// "" when both have the same status and, on success, the same outputs
// (type, dimensions, bytes); otherwise the first difference.
std::string compareResults(const ExecutionResult& expected, const ExecutionResult& actual);

// One line: status, and output shapes and a prefix of the values.
std::string describe(const ExecutionResult& result);

struct CheckOptions {
  bool oracle = true;     // compare cpu with the oracle
  bool roundTrip = true;  // compare cpu with cpu on the JSON round-tripped model
  // Also prepare each device once and execute otherInputs, then inputs again.
  bool reexecute = true;
  // Generated loops run at most 7 iterations each, but nested and
  // host-interpreted on a slow simulated device under load they can take a
  // second: 10 s never fires for a correct device and still bounds the cost
  // of one that loops forever.
  uint64_t loopTimeoutMs = 10000;
};

struct CaseReport {
  uint64_t seed = 0;
  ExecutionResult reference;             // the cpu device's result
  std::vector<std::string> mismatches;   // each names the seed and the device
  std::vector<std::string> devicesRun;   // names, in the order run (cpu first)
  std::map<std::string, uint64_t> executions;  // per device, re-executions included
  OracleStats oracleStats;
};

// Runs `c` on cpu, then on each of `devices` other than cpu. Every mismatch
// message starts with "seed <S>".
CaseReport checkCase(const Case& c, const std::vector<const Device*>& devices,
                     const CheckOptions& options = {});

}  // namespace nnfab::differential
