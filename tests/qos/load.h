// The concurrent load of the QoS tests and benchmark: several clients submit
// asynchronous executions at mixed priorities to one device; every result is
// checked against the cpu device; nothing may be lost or completed twice.
#pragma once

#include <cstdint>
#include <string>

#include "runtime/device.h"

namespace nnfab::qos {

struct LoadOptions {
  uint64_t executions = 400;
  uint32_t clients = 4;
  uint32_t inFlightPerClient = 16;
  uint64_t seed = 1;
};

struct LoadReport {
  uint64_t submitted = 0;
  uint64_t completed = 0;      // onDone calls
  uint64_t ok = 0;             // NO_ERROR
  uint64_t mismatches = 0;     // status or outputs differ from the cpu device
  uint64_t completedTwice = 0; // executions whose onDone ran more than once
  uint64_t lost = 0;           // executions whose onDone never ran
  double seconds = 0;
  std::string firstMismatch;
};

LoadReport runLoad(const Device& device, const LoadOptions& options);

}  // namespace nnfab::qos
