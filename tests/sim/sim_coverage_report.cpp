// Prints the functional coverage of the co-simulated core when a sim test
// process ends (sim/sim_coverage.h): retired opcodes (by mnemonic), stops by
// status, burst shapes and back-pressure patterns on the three data ports
// (summed). ctest runs
// each case in its own process, so each prints what it reached.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "compiler/disassembler.h"
#include "sim_coverage.h"

namespace nnfab::sim {
namespace {

std::string mnemonic(uint32_t opcode) {
  const std::string text = compiler::disassembleInstruction(opcode);
  return text.substr(0, text.find(' '));
}

class CoverageReport : public ::testing::Environment {
 public:
  void TearDown() override {
    const SimCoverage& c = SimCoverage::process();
    std::string out = "sim coverage: opcodes retired:";
    int opcodes = 0;
    for (uint32_t op = 0; op < c.opcodes.size(); ++op) {
      if (c.opcodes[op] == 0) continue;
      ++opcodes;
      append(out, mnemonic(op), c.opcodes[op]);
    }
    out += " (distinct: ";
    out += std::to_string(opcodes);
    out += ")\nsim coverage: stops by status:";
    for (uint32_t s = 0; s < c.stops.size(); ++s)
      if (c.stops[s] != 0) append(out, std::to_string(s), c.stops[s]);
    out += "\nsim coverage: data ports:";
    for (uint32_t e = 0; e < SimCoverage::kAxiEvents; ++e) append(out, SimCoverage::axiName(e), c.axi[e]);
    std::printf("%s\n", out.c_str());
  }

 private:
  // " name=count" (appended piecewise: g++ 12 warns falsely on chained +).
  static void append(std::string& out, const std::string& name, uint64_t count) {
    out += ' ';
    out += name;
    out += '=';
    out += std::to_string(count);
  }
};

const auto* const registered = ::testing::AddGlobalTestEnvironment(new CoverageReport);

}  // namespace
}  // namespace nnfab::sim
