// `nnfab run --profile FILE`: the run's spans as a Chrome trace-event JSON
// file (the "JSON Object Format" that Perfetto and chrome://tracing open).
// Complete events ("ph": "X") with microsecond timestamps from the start of
// the run; all of them are host wall-clock time, which the file says
// (otherData.clock and every event's args.clock).
#pragma once

#include <mutex>
#include <string>
#include <vector>

#include "model/trace_sink.h"

namespace nnfab::cli {

class ChromeTrace final : public TraceSink {
 public:
  ChromeTrace() : origin_(Clock::now()) {}
  void span(std::string_view name, std::string_view category, Clock::time_point start, Clock::time_point end,
            TraceArgs args = {}) override;
  std::string json() const;
  size_t size() const;

 private:
  struct Event {
    std::string name, category;
    double startUs = 0, durationUs = 0;
    TraceArgs args;
  };
  Clock::time_point origin_;
  mutable std::mutex mutex_;
  std::vector<Event> events_;
};

}  // namespace nnfab::cli
