// What `nnfab bench` produces: a flat list of metrics, each with its unit,
// where the figure comes from, and the target it is held against, plus notes
// on method. Printed as a table for people and written as JSON for tools
// (docs/bench.md describes every field).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace nnfab::bench {

// MEASURED: read from the device's counters or the wall clock in this run.
// MODEL: what the cycle model says (the device cannot measure it).
// DERIVED: computed from measured figures and cited constants.
enum class Source { MEASURED, MODEL, DERIVED };

struct Target {
  enum class Kind { AT_MOST, AT_LEAST };
  Kind kind = Kind::AT_MOST;
  double bound = 0;
  bool metBy(double value) const { return kind == Kind::AT_MOST ? value <= bound : value >= bound; }
  std::string text() const;  // "<= 2"
};

inline Target atMost(double bound) { return {Target::Kind::AT_MOST, bound}; }
inline Target atLeast(double bound) { return {Target::Kind::AT_LEAST, bound}; }

struct Metric {
  std::string group;  // filled in by Report::add
  std::string id;     // stable JSON key, e.g. "counter_loop.marginal_cycles_per_iteration"
  std::string unit;   // e.g. "cycles/iteration"
  double value = 0;
  Source source = Source::MEASURED;
  std::optional<Target> target;
  std::string description;
  nlohmann::ordered_json params = nlohmann::ordered_json::object();  // e.g. {"n": 1000}

  Metric& from(Source s) {
    source = s;
    return *this;
  }
  Metric& against(Target t) {
    target = t;
    return *this;
  }
  Metric& with(nlohmann::ordered_json p) {
    params = std::move(p);
    return *this;
  }
};

class Report {
 public:
  // A measured metric without target; refine it with from(), against(), with().
  Metric& add(std::string id, std::string unit, double value, std::string description);
  void note(const std::string& group, std::string text);
  void error(const std::string& group, std::string text);
  // The group whose metrics and notes add() and note() file under.
  void setGroup(std::string group) { group_ = std::move(group); }

  const std::vector<Metric>& metrics() const { return metrics_; }
  bool hasErrors() const { return !errors_.empty(); }

  // `header` carries the run's settings (device, clock, quick, ...).
  nlohmann::ordered_json toJson(const nlohmann::ordered_json& header) const;
  std::string toTable() const;

 private:
  struct Text {
    std::string group;
    std::string text;
  };
  std::string group_;
  std::vector<Metric> metrics_;
  std::vector<Text> notes_;
  std::vector<Text> errors_;
};

std::string sourceName(Source source);

}  // namespace nnfab::bench
