#include "sim_coverage.h"

namespace nnfab::sim {

SimCoverage& SimCoverage::process() {
  static SimCoverage coverage;
  return coverage;
}

const char* SimCoverage::axiName(uint32_t event) {
  static const char* const names[kAxiEvents] = {
      "read burst 1 beat",   "read burst 2-15",   "read burst 16-63",   "read burst 64",
      "write burst 1 beat",  "write burst 2-15",  "write burst 16-63",  "write burst 64",
      "AR waits for slave",  "AW waits for slave", "W waits for slave", "R waits for core",
      "W before its AW",     "reads and writes in flight at once"};
  return event < kAxiEvents ? names[event] : "?";
}

}  // namespace nnfab::sim
