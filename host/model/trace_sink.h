// Where a profiled run reports its timeline (`nnfab run --profile`,
// docs/runtime.md "Timeline"): spans of host wall-clock time (steady_clock),
// from preparation phases down to every step, IF branch and WHILE iteration
// the host interprets; and, from fabric steps, events in device cycles that
// the core's trace ring recorded (docs/runtime.md "Timeline"). Null
// everywhere by default: no cost when off.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
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

  // A span's name, category and arguments made once (the runtime makes one
  // per step when a model is prepared) and shared by every span of that
  // step: a profiled step then hands over a pointer and two times instead
  // of formatting strings in its own time. The default passes them on.
  struct SpanLabel {
    std::string name, category;
    TraceArgs args;
  };
  virtual void labelledSpan(const std::shared_ptr<const SpanLabel>& label, Clock::time_point start,
                            Clock::time_point end) {
    span(label->name, label->category, start, end, label->args);
  }

  // An event inside a fabric program, timed in device cycles of `device`
  // (at clockMhz) from the start of the program's execution, which began at
  // `anchor` in wall-clock time. cycles == 0: an instant. `counters`, when
  // not empty, are numeric series (a counter track) sampled at startCycle.
  struct DeviceEvent {
    std::string name, category;
    uint64_t startCycle = 0;
    uint64_t cycles = 0;
    TraceArgs args;
    std::vector<std::pair<std::string, uint64_t>> counters;
  };
  virtual void deviceEvents(std::string_view device, double clockMhz, Clock::time_point anchor,
                            std::vector<DeviceEvent> events) {
    (void)device, (void)clockMhz, (void)anchor, (void)events;
  }

  // The same events, made by `make` only when the sink needs them (ChromeTrace:
  // when it writes the file, after the run). A profiled fabric step hands over
  // its raw trace this way so that formatting one event per traced branch is
  // not part of the step's time. The default makes them at once.
  using DeviceEventMaker = std::function<std::vector<DeviceEvent>()>;
  virtual void deferredDeviceEvents(std::string_view device, double clockMhz, Clock::time_point anchor,
                                    DeviceEventMaker make) {
    deviceEvents(device, clockMhz, anchor, make());
  }
};

}  // namespace nnfab
