// SystemC's reports go to stdout by default; nnfab keeps stdout for result
// JSON, so they go to stderr, and the "simulation stopped by user" note of
// every normal end is dropped.
#pragma once

namespace nnfab::sim {

void routeSystemCReportsToStderr();

}  // namespace nnfab::sim
