#include "cli/chrome_trace.h"

#include <nlohmann/json.hpp>

namespace nnfab::cli {

void ChromeTrace::span(std::string_view name, std::string_view category, Clock::time_point start,
                       Clock::time_point end, TraceArgs args) {
  auto us = [this](Clock::time_point t) {
    return std::chrono::duration<double, std::micro>(t - origin_).count();
  };
  std::lock_guard lock(mutex_);
  events_.push_back({std::string(name), std::string(category), us(start), us(end) - us(start), std::move(args)});
}

size_t ChromeTrace::size() const {
  std::lock_guard lock(mutex_);
  return events_.size();
}

std::string ChromeTrace::json() const {
  std::lock_guard lock(mutex_);
  nlohmann::json events = nlohmann::json::array();
  for (const Event& e : events_) {
    nlohmann::json args = nlohmann::json::object();
    args["clock"] = "host wall clock";
    for (const auto& [k, v] : e.args) args[k] = v;
    events.push_back({{"name", e.name}, {"cat", e.category}, {"ph", "X"}, {"ts", e.startUs},
                      {"dur", e.durationUs}, {"pid", 1}, {"tid", 1}, {"args", args}});
  }
  nlohmann::json doc = {{"traceEvents", events},
                        {"displayTimeUnit", "ms"},
                        {"otherData", {{"clock", "host wall clock (steady_clock), microseconds from the start of the run"},
                                       {"producer", "nnfab run --profile"}}}};
  return doc.dump(1) + "\n";
}

}  // namespace nnfab::cli
