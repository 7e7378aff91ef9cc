#include "report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace nnfab::bench {

std::string Target::text() const { return fmt::format("{} {}", kind == Kind::AT_MOST ? "<=" : ">=", bound); }

std::string sourceName(Source source) {
  switch (source) {
    case Source::MEASURED:
      return "measured";
    case Source::MODEL:
      return "model";
    case Source::DERIVED:
      return "derived";
  }
  return "?";
}

Metric& Report::add(std::string id, std::string unit, double value, std::string description) {
  Metric m;
  m.group = group_;
  m.id = std::move(id);
  m.unit = std::move(unit);
  m.value = value;
  m.description = std::move(description);
  metrics_.push_back(std::move(m));
  return metrics_.back();
}

void Report::note(const std::string& group, std::string text) { notes_.push_back({group, std::move(text)}); }
void Report::error(const std::string& group, std::string text) { errors_.push_back({group, std::move(text)}); }

nlohmann::ordered_json Report::toJson(const nlohmann::ordered_json& header) const {
  nlohmann::ordered_json out = header;
  nlohmann::ordered_json metrics = nlohmann::ordered_json::object();
  for (const Metric& m : metrics_) {
    nlohmann::ordered_json j;
    j["group"] = m.group;
    j["value"] = m.value;
    j["unit"] = m.unit;
    j["source"] = sourceName(m.source);
    if (m.target) {
      j["target"] = {{"op", m.target->kind == Target::Kind::AT_MOST ? "<=" : ">="}, {"bound", m.target->bound}};
      j["met"] = m.target->metBy(m.value);
    } else {
      j["target"] = nullptr;
      j["met"] = nullptr;
    }
    j["description"] = m.description;
    j["params"] = m.params;
    metrics[m.id] = std::move(j);
  }
  out["metrics"] = std::move(metrics);
  auto texts = [](const std::vector<Text>& list) {
    nlohmann::ordered_json a = nlohmann::ordered_json::array();
    for (const Text& t : list) a.push_back({{"group", t.group}, {"text", t.text}});
    return a;
  };
  out["notes"] = texts(notes_);
  out["errors"] = texts(errors_);
  return out;
}

namespace {

// Counts print whole; rates keep four significant digits without switching
// to exponents a reader has to decode.
std::string formatValue(double v) {
  if (!std::isfinite(v)) return fmt::format("{}", v);
  if (v == std::floor(v) && std::fabs(v) < 1e15) return fmt::format("{:.0f}", v);
  if (std::fabs(v) >= 1000) return fmt::format("{:.1f}", v);
  return fmt::format("{:.4g}", v);
}

}  // namespace

std::string Report::toTable() const {
  size_t idWidth = 6, unitWidth = 4;
  for (const Metric& m : metrics_) {
    idWidth = std::max(idWidth, m.id.size());
    unitWidth = std::max(unitWidth, m.unit.size());
  }
  std::string out = fmt::format("{:<{}}  {:>14}  {:<{}}  {:<10}  {:<3}  {}\n", "METRIC", idWidth, "VALUE", "UNIT",
                                unitWidth, "TARGET", "MET", "SOURCE");
  std::string group;
  for (const Metric& m : metrics_) {
    if (m.group != group) {
      group = m.group;
      out += fmt::format("-- {}\n", group);
    }
    out += fmt::format("{:<{}}  {:>14}  {:<{}}  {:<10}  {:<3}  {}\n", m.id, idWidth, formatValue(m.value), m.unit,
                       unitWidth, m.target ? m.target->text() : "",
                       m.target ? (m.target->metBy(m.value) ? "yes" : "NO") : "", sourceName(m.source));
  }
  if (!notes_.empty()) {
    out += "\nNotes:\n";
    for (const Text& t : notes_) out += fmt::format("  [{}] {}\n", t.group, t.text);
  }
  if (!errors_.empty()) {
    out += "\nErrors:\n";
    for (const Text& t : errors_) out += fmt::format("  [{}] {}\n", t.group, t.text);
  }
  return out;
}

}  // namespace nnfab::bench
