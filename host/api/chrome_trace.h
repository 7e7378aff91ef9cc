// `nnfab run --profile FILE`: the run's spans as a Chrome trace-event JSON
// file (the "JSON Object Format" that Perfetto and chrome://tracing open).
// Complete events ("ph": "X") with microsecond timestamps from the start of
// the run. Host spans are wall-clock time (process 1); events from inside
// fabric programs are device cycles (process 2, one thread per device),
// converted to microseconds at the device clock and placed at the wall-clock
// start of their step; each says which in args.clock, and carries its raw
// cycle numbers.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "model/trace_sink.h"

namespace nnfab::api {

class ChromeTrace final : public TraceSink {
 public:
  // Room for a run's spans and one device's deferred events made now, with
  // the writer, so that a profiled execution does not grow the lists (a
  // fresh process's first allocations of that size touch new heap pages).
  ChromeTrace() : origin_(Clock::now()) {
    devices_.reserve(kReserved);
    events_.reserve(kReserved);
    deferred_.reserve(kReserved);
  }
  void span(std::string_view name, std::string_view category, Clock::time_point start, Clock::time_point end,
            TraceArgs args = {}) override;
  // Keeps the shared label: a step's span copies no strings.
  void labelledSpan(const std::shared_ptr<const SpanLabel>& label, Clock::time_point start,
                    Clock::time_point end) override;
  void deviceEvents(std::string_view device, double clockMhz, Clock::time_point anchor,
                    std::vector<DeviceEvent> events) override;
  // Keeps `make` and calls it in json(): the run does not pay for the events.
  void deferredDeviceEvents(std::string_view device, double clockMhz, Clock::time_point anchor,
                            DeviceEventMaker make) override;
  std::string json() const;
  size_t size() const;

 private:
  struct Event {
    std::string name, category;
    double startUs = 0, durationUs = 0;
    TraceArgs args;
    int tid = 0;            // 0: a host span; else the device's thread on the device-cycles process
    bool instant = false;
    uint64_t startCycle = 0, cycles = 0;
    std::vector<std::pair<std::string, uint64_t>> counters;  // a counter sample ("ph": "C")
    std::shared_ptr<const SpanLabel> label;  // set: name, category and args are the label's
  };
  static constexpr size_t kReserved = 8;
  struct Deferred {
    int tid = 0;
    double anchorUs = 0, usPerCycle = 0;
    DeviceEventMaker make;
  };
  double us(Clock::time_point t) const;     // microseconds from origin_
  int deviceTid(std::string_view device);  // under mutex_
  static void append(std::vector<Event>& into, int tid, double anchorUs, double usPerCycle,
                     std::vector<DeviceEvent> events);
  std::vector<std::string> devices_;  // device-cycles threads, tid = index + 1
  Clock::time_point origin_;
  mutable std::mutex mutex_;
  std::vector<Event> events_;
  std::vector<Deferred> deferred_;
};

}  // namespace nnfab::api
