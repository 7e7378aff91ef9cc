#include "api/chrome_trace.h"

#include <algorithm>

#include <nlohmann/json.hpp>

namespace nnfab::api {

namespace {
constexpr int kHostPid = 1;
constexpr int kDevicePid = 2;
}  // namespace

double ChromeTrace::us(Clock::time_point t) const {
  return std::chrono::duration<double, std::micro>(t - origin_).count();
}

// From the two times themselves, not as a difference of two offsets from
// the origin: exact for whole nanoseconds, whatever the origin.
static double durationUs(Clock::time_point start, Clock::time_point end) {
  return std::chrono::duration<double, std::micro>(end - start).count();
}

void ChromeTrace::span(std::string_view name, std::string_view category, Clock::time_point start,
                       Clock::time_point end, TraceArgs args) {
  std::lock_guard lock(mutex_);
  events_.push_back({std::string(name), std::string(category), us(start), durationUs(start, end), std::move(args), 0,
                     false, 0, 0, {}, nullptr});
}

void ChromeTrace::labelledSpan(const std::shared_ptr<const SpanLabel>& label, Clock::time_point start,
                               Clock::time_point end) {
  std::lock_guard lock(mutex_);
  events_.push_back({{}, {}, us(start), durationUs(start, end), {}, 0, false, 0, 0, {}, label});
}

int ChromeTrace::deviceTid(std::string_view device) {
  auto known = std::find(devices_.begin(), devices_.end(), device);
  if (known == devices_.end()) known = devices_.insert(devices_.end(), std::string(device));
  return static_cast<int>(known - devices_.begin()) + 1;
}

void ChromeTrace::append(std::vector<Event>& into, int tid, double anchorUs, double usPerCycle,
                         std::vector<DeviceEvent> events) {
  for (DeviceEvent& e : events) {
    Event out{std::move(e.name), std::move(e.category), anchorUs + static_cast<double>(e.startCycle) * usPerCycle,
              static_cast<double>(e.cycles) * usPerCycle, std::move(e.args), tid, e.cycles == 0, e.startCycle,
              e.cycles, std::move(e.counters), nullptr};
    into.push_back(std::move(out));
  }
}

void ChromeTrace::deviceEvents(std::string_view device, double clockMhz, Clock::time_point anchor,
                               std::vector<DeviceEvent> events) {
  const double anchorUs = std::chrono::duration<double, std::micro>(anchor - origin_).count();
  const double usPerCycle = clockMhz > 0 ? 1.0 / clockMhz : 0.0;
  std::lock_guard lock(mutex_);
  append(events_, deviceTid(device), anchorUs, usPerCycle, std::move(events));
}

void ChromeTrace::deferredDeviceEvents(std::string_view device, double clockMhz, Clock::time_point anchor,
                                       DeviceEventMaker make) {
  const double anchorUs = std::chrono::duration<double, std::micro>(anchor - origin_).count();
  const double usPerCycle = clockMhz > 0 ? 1.0 / clockMhz : 0.0;
  std::lock_guard lock(mutex_);
  deferred_.push_back(Deferred{deviceTid(device), anchorUs, usPerCycle, std::move(make)});
}

size_t ChromeTrace::size() const {
  std::lock_guard lock(mutex_);
  size_t n = events_.size();
  for (const Deferred& d : deferred_) n += d.make().size();
  return n;
}

std::string ChromeTrace::json() const {
  std::lock_guard lock(mutex_);
  std::vector<Event> made;  // the deferred device events, made now
  for (const Deferred& d : deferred_) append(made, d.tid, d.anchorUs, d.usPerCycle, d.make());
  nlohmann::json events = nlohmann::json::array();
  // Names of the two processes and the device threads (metadata events).
  auto meta = [&](const char* what, int pid, int tid, const std::string& name) {
    events.push_back({{"name", what}, {"ph", "M"}, {"ts", 0}, {"pid", pid}, {"tid", tid}, {"args", {{"name", name}}}});
  };
  meta("process_name", kHostPid, 1, "host (wall clock)");
  if (!devices_.empty()) meta("process_name", kDevicePid, 1, "fabric programs (device cycles)");
  for (size_t i = 0; i < devices_.size(); ++i) {
    meta("thread_name", kDevicePid, static_cast<int>(i) + 1, devices_[i] + " (device cycles)");
  }
  auto emit = [&](const Event& e) {
    nlohmann::json args = nlohmann::json::object();
    if (e.tid == 0) {
      args["clock"] = "host wall clock";
    } else {
      args["clock"] = "device cycles";
      args["start_cycle"] = e.startCycle;
      if (!e.instant) args["cycles"] = e.cycles;
    }
    const std::string& name = e.label ? e.label->name : e.name;
    const std::string& category = e.label ? e.label->category : e.category;
    for (const auto& [k, v] : e.label ? e.label->args : e.args) args[k] = v;
    const int pid = e.tid == 0 ? kHostPid : kDevicePid;
    const int tid = e.tid == 0 ? 1 : e.tid;
    if (!e.counters.empty()) {
      nlohmann::json values = nlohmann::json::object();
      for (const auto& [k, v] : e.counters) values[k] = v;
      events.push_back({{"name", name}, {"cat", category}, {"ph", "C"}, {"ts", e.startUs}, {"pid", pid},
                        {"tid", tid}, {"args", values}});
    } else if (e.instant) {
      events.push_back({{"name", name}, {"cat", category}, {"ph", "i"}, {"s", "t"}, {"ts", e.startUs},
                        {"pid", pid}, {"tid", tid}, {"args", args}});
    } else {
      events.push_back({{"name", name}, {"cat", category}, {"ph", "X"}, {"ts", e.startUs},
                        {"dur", e.durationUs}, {"pid", pid}, {"tid", tid}, {"args", args}});
    }
  };
  for (const Event& e : events_) emit(e);
  for (const Event& e : made) emit(e);
  nlohmann::json doc = {{"traceEvents", events},
                        {"displayTimeUnit", "ms"},
                        {"otherData", {{"clock", "host wall clock (steady_clock), microseconds from the start of the run"},
                                       {"device_clock", "process 2: device cycles, shown in microseconds at the "
                                                        "device clock from the wall-clock start of their step; "
                                                        "args.start_cycle and args.cycles are exact"},
                                       {"producer", "nnfab run --profile"}}}};
  return doc.dump(1) + "\n";
}

}  // namespace nnfab::api
