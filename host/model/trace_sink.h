// Where a profiled run reports its timeline (`nnfab run --profile`,
// docs/runtime.md "Timeline"): spans of host wall-clock time (steady_clock),
// from preparation phases down to every step, IF branch and WHILE iteration
// the host interprets. Null everywhere by default: no cost when off.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/execution.h"

namespace nnfab {

using TraceArgs = std::vector<std::pair<std::string, std::string>>;

class TraceSink {
 public:
  virtual ~TraceSink() = default;
  // May be called from the thread that runs the execution only.
  virtual void span(std::string_view name, std::string_view category, Clock::time_point start,
                    Clock::time_point end, TraceArgs args = {}) = 0;
};

}  // namespace nnfab
