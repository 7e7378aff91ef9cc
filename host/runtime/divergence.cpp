#include "runtime/divergence.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <condition_variable>
#include <cstring>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>

#include "model/cancel_signal.h"
#include "model/json_float16.h"

namespace nnfab::runtime {
namespace {

// One side's current operation, held until the other side reaches its own.
struct Snapshot {
  ObservedAt at;
  std::vector<ObservedOutput> outputs;
};

Snapshot snapshot(const Model& model, const Observation& seen) {
  Snapshot s;
  s.at.subgraph = seen.subgraph;
  s.at.operation = seen.operations.empty() ? 0 : seen.operations.back();
  s.at.type = model.subgraph(seen.subgraph).operations[s.at.operation].type;
  s.at.path = seen.path;
  s.at.ranOn = std::string(seen.ranOn);
  s.outputs = seen.outputs;
  return s;
}

bool samePath(const std::vector<ControlPathEntry>& x, const std::vector<ControlPathEntry>& y) {
  if (x.size() != y.size()) return false;
  for (size_t i = 0; i < x.size(); ++i) {
    if (x[i].subgraph != y[i].subgraph || x[i].operation != y[i].operation || x[i].part != y[i].part ||
        x[i].child != y[i].child || x[i].iteration != y[i].iteration) {
      return false;
    }
  }
  return true;
}

bool isFloat16(OperandType t) { return t == OperandType::FLOAT16 || t == OperandType::TENSOR_FLOAT16; }
bool isFloat32(OperandType t) { return t == OperandType::FLOAT32 || t == OperandType::TENSOR_FLOAT32; }

// Elements compare bit for bit, except that any NaN equals any NaN (NaN
// payloads may differ between devices, docs/isa.md), as the differential
// tests compare; +0 and -0 differ.
bool sameElement(OperandType type, const uint8_t* x, const uint8_t* y, size_t size) {
  if (std::memcmp(x, y, size) == 0) return true;
  if (isFloat32(type)) {
    float a, b;
    std::memcpy(&a, x, 4);
    std::memcpy(&b, y, 4);
    return std::isnan(a) && std::isnan(b);
  }
  if (isFloat16(type)) {
    uint16_t a, b;
    std::memcpy(&a, x, 2);
    std::memcpy(&b, y, 2);
    auto nan = [](uint16_t h) { return (h & 0x7C00u) == 0x7C00u && (h & 0x03FFu) != 0; };
    return nan(a) && nan(b);
  }
  return false;
}

std::vector<uint32_t> unflatten(uint64_t flat, const Dimensions& dims) {
  std::vector<uint32_t> index(dims.size(), 0);
  for (size_t d = dims.size(); d-- > 0;) {
    if (dims[d] == 0) break;
    index[d] = static_cast<uint32_t>(flat % dims[d]);
    flat /= dims[d];
  }
  return index;
}

// The first difference between two observations of the same step, if any.
std::optional<Divergence> compare(const Snapshot& a, const Snapshot& b) {
  Divergence d;
  d.a = a.at;
  d.b = b.at;
  if (a.at.subgraph != b.at.subgraph || a.at.operation != b.at.operation || !samePath(a.at.path, b.at.path)) {
    d.kind = DivergenceKind::OPERATION;
    return d;
  }
  if (a.outputs.size() != b.outputs.size()) {
    d.kind = DivergenceKind::OUTPUTS;
    return d;
  }
  for (size_t k = 0; k < a.outputs.size(); ++k) {
    const ObservedOutput& x = a.outputs[k];
    const ObservedOutput& y = b.outputs[k];
    if (x.operand != y.operand) {
      d.kind = DivergenceKind::OUTPUTS;
      return d;
    }
    d.output = static_cast<uint32_t>(k);
    d.operand = x.operand;
    d.type = x.type;
    d.dimsA = x.dimensions;
    d.dimsB = y.dimensions;
    const size_t size = sizeOfElement(x.type);
    const size_t bytesA = x.bytes ? x.bytes->size() : 0, bytesB = y.bytes ? y.bytes->size() : 0;
    if (x.dimensions != y.dimensions || bytesA != bytesB) {
      d.kind = DivergenceKind::DIMENSIONS;
      return d;
    }
    if (size == 0 || bytesA == 0 || x.bytes == y.bytes) continue;
    const uint8_t* p = x.bytes->data();
    const uint8_t* q = y.bytes->data();
    if (std::memcmp(p, q, bytesA) == 0) continue;
    for (size_t e = 0; e + size <= bytesA; e += size) {
      if (sameElement(x.type, p + e, q + e, size)) continue;
      d.kind = DivergenceKind::VALUE;
      d.element = e / size;
      d.index = unflatten(d.element, x.dimensions);
      d.elementA.assign(p + e, p + e + size);
      d.elementB.assign(q + e, q + e + size);
      return d;
    }
  }
  return std::nullopt;
}

// The two executions meet here after every operation: the second to arrive
// compares both, and either lets both go on or stops both at the divergence.
class Lockstep {
 public:
  explicit Lockstep(const Model& model) : model_(model) {}

  class Side final : public ExecutionObserver {
   public:
    Side(Lockstep& owner, int index) : owner_(owner), index_(index) {}
    void observe(const Observation& seen) override { owner_.arrive(index_, snapshot(owner_.model_, seen)); }

   private:
    Lockstep& owner_;
    const int index_;
  };

  void arrive(int index, Snapshot s) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (stopped_) return;  // the execution ends at its next step (cancelled)
    State& self = state_[index];
    State& other = state_[1 - index];
    self.pending = std::move(s);
    if (other.finished) {
      stop(statusDivergence());
      return;
    }
    if (!other.pending) {
      // First to arrive: wait for the other's verdict.
      changed_.wait(lock, [&] { return stopped_ || !self.pending; });
      return;
    }
    if (auto found = compare(*state_[0].pending, *state_[1].pending)) {
      stop(std::move(*found));
      return;
    }
    ++compared_;
    state_[0].pending.reset();
    state_[1].pending.reset();
    changed_.notify_all();
  }

  void finish(int index, Status status) {
    std::lock_guard<std::mutex> lock(mutex_);
    State& self = state_[index];
    if (!stopped_) self.status = status;  // else: cancelled at the divergence
    self.finished = true;
    if (!stopped_ && state_[1 - index].pending) stop(statusDivergence());
    changed_.notify_all();
  }

  std::shared_ptr<CancelSignal> cancelHandle(int index) { return state_[index].cancel; }

  // After both finished.
  DiffReport report(const Device& a, const Device& b) {
    DiffReport r;
    r.a.device = std::string(a.name());
    r.b.device = std::string(b.name());
    r.a.status = state_[0].status;
    r.b.status = state_[1].status;
    r.operationsCompared = compared_;
    r.divergence = divergence_;
    if (!r.divergence && r.a.status && r.b.status && !sameStatus(*r.a.status, *r.b.status)) {
      Divergence d;
      d.kind = DivergenceKind::STATUS;
      r.divergence = std::move(d);
    }
    return r;
  }

 private:
  struct State {
    std::optional<Snapshot> pending;
    bool finished = false;
    std::optional<Status> status;
    std::shared_ptr<CancelSignal> cancel = std::make_shared<CancelSignal>();
  };

  static bool sameStatus(const Status& x, const Status& y) { return x.code() == y.code(); }

  // One side ended while the other had reached an operation.
  Divergence statusDivergence() const {
    Divergence d;
    d.kind = DivergenceKind::STATUS;
    if (state_[0].pending) d.a = state_[0].pending->at;
    if (state_[1].pending) d.b = state_[1].pending->at;
    return d;
  }

  void stop(Divergence found) {
    stopped_ = true;
    divergence_ = std::move(found);
    for (State& s : state_) {
      if (!s.finished) s.cancel->cancel();
    }
    changed_.notify_all();
  }

  const Model& model_;
  std::mutex mutex_;
  std::condition_variable changed_;
  State state_[2];
  bool stopped_ = false;
  uint64_t compared_ = 0;
  std::optional<Divergence> divergence_;
};

std::string dimsText(const Dimensions& dims) {
  return fmt::format("[{}]", fmt::join(dims, ", "));
}

std::string pathText(const std::vector<ControlPathEntry>& path) {
  std::string text;
  for (const ControlPathEntry& e : path) {
    text += fmt::format("\n  in subgraph {} operation {} ({})", e.subgraph, e.operation, toString(e.type));
    if (e.type == OperationType::WHILE) {
      text += fmt::format(" iteration {} {}", e.iteration, toString(e.part));
    } else {
      text += fmt::format(" {} branch", toString(e.part));
    }
    text += fmt::format(" (subgraph {})", e.child);
  }
  return text;
}

std::string atText(const ObservedAt& at) {
  return fmt::format("subgraph {} operation {} ({}), ran on {}{}", at.subgraph, at.operation, toString(at.type),
                     at.ranOn, pathText(at.path));
}

std::string statusText(const std::optional<Status>& status) {
  if (!status) return "stopped at the divergence";
  std::string text(toString(status->code()));
  if (!status->message().empty()) text += ": " + status->message();
  return text;
}

nlohmann::ordered_json elementJson(OperandType type, const std::vector<uint8_t>& bytes) {
  double value = 0;
  if (isFloat32(type) && bytes.size() == 4) {
    float f;
    std::memcpy(&f, bytes.data(), 4);
    value = f;
  } else if (isFloat16(type) && bytes.size() == 2) {
    uint16_t h;
    std::memcpy(&h, bytes.data(), 2);
    value = json::float16ToFloat(h);
  } else {
    return nlohmann::ordered_json::parse(elementText(type, bytes));  // an integer
  }
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  return value;
}

nlohmann::ordered_json atJson(const ObservedAt& at) {
  nlohmann::ordered_json path = nlohmann::ordered_json::array();
  for (const ControlPathEntry& e : at.path) {
    nlohmann::ordered_json j = {{"subgraph", e.subgraph},
                                {"operation", e.operation},
                                {"type", std::string(toString(e.type))},
                                {"part", std::string(toString(e.part))},
                                {"child", e.child}};
    if (e.type == OperationType::WHILE) j["iteration"] = e.iteration;
    path.push_back(std::move(j));
  }
  return {{"subgraph", at.subgraph},
          {"operation", at.operation},
          {"type", std::string(toString(at.type))},
          {"ranOn", at.ranOn},
          {"path", std::move(path)}};
}

nlohmann::ordered_json sideJson(const DiffSide& side) {
  nlohmann::ordered_json j = {{"device", side.device}, {"finished", side.status.has_value()}};
  if (side.status) {
    j["status"] = std::string(toString(side.status->code()));
    if (!side.status->message().empty()) j["message"] = side.status->message();
  }
  return j;
}

}  // namespace

std::string_view toString(DivergenceKind kind) {
  switch (kind) {
    case DivergenceKind::VALUE: return "value";
    case DivergenceKind::DIMENSIONS: return "dimensions";
    case DivergenceKind::OUTPUTS: return "outputs";
    case DivergenceKind::OPERATION: return "operation";
    case DivergenceKind::STATUS: return "status";
  }
  return "unknown";
}

std::string elementText(OperandType type, const std::vector<uint8_t>& bytes) {
  auto as = [&](auto zero) {
    decltype(zero) v{};
    if (bytes.size() == sizeof v) std::memcpy(&v, bytes.data(), sizeof v);
    return v;
  };
  auto real = [](double v) -> std::string {
    if (std::isnan(v)) return "NaN";
    if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
    return fmt::format("{}", v);
  };
  switch (type) {
    case OperandType::FLOAT32:
    case OperandType::TENSOR_FLOAT32: return real(as(0.0f));
    case OperandType::FLOAT16:
    case OperandType::TENSOR_FLOAT16: return real(json::float16ToFloat(as(uint16_t{0})));
    case OperandType::INT32:
    case OperandType::TENSOR_INT32: return fmt::format("{}", as(int32_t{0}));
    case OperandType::UINT32: return fmt::format("{}", as(uint32_t{0}));
    case OperandType::TENSOR_QUANT8_SYMM:
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
    case OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL: return fmt::format("{}", as(int8_t{0}));
    case OperandType::TENSOR_QUANT16_SYMM: return fmt::format("{}", as(int16_t{0}));
    case OperandType::TENSOR_QUANT16_ASYMM: return fmt::format("{}", as(uint16_t{0}));
    default: return fmt::format("{}", as(uint8_t{0}));  // BOOL, TENSOR_BOOL8, TENSOR_QUANT8_ASYMM
  }
}

Result<DiffReport> diffDevices(const Model& model, const std::vector<TensorValue>& inputs, const Device& a,
                               const Device& b, const DiffOptions& options) {
  PrepareOptions prepare;
  prepare.observed = true;
  auto preparedA = a.prepare(model, prepare);
  if (!preparedA.isOk()) return std::move(preparedA).takeStatus().withContext(fmt::format("preparing on {}", a.name()));
  auto preparedB = b.prepare(model, prepare);
  if (!preparedB.isOk()) return std::move(preparedB).takeStatus().withContext(fmt::format("preparing on {}", b.name()));
  const PreparedModel* models[2] = {preparedA.value().get(), preparedB.value().get()};

  Lockstep lockstep(model);
  Lockstep::Side sides[2] = {Lockstep::Side(lockstep, 0), Lockstep::Side(lockstep, 1)};
  ExecutionResult results[2];
  auto run = [&](int index) {
    ExecutionOptions execution;
    execution.loopTimeout = options.loopTimeout;
    execution.memoryLimitBytes = options.memoryLimitBytes;
    execution.cancel = lockstep.cancelHandle(index);
    execution.observer = &sides[index];
    try {
      results[index] = models[index]->execute(inputs, execution);
    } catch (const std::exception& e) {
      // Executions report failures as statuses; should one throw, the other
      // side must still be released, not left waiting for it.
      results[index] = ExecutionResult{};
      results[index].status = generalFailure(std::string("the execution threw: ") + e.what());
    }
    lockstep.finish(index, results[index].status);
  };
  std::thread second;
  try {
    second = std::thread([&] { run(1); });
  } catch (const std::system_error& e) {
    return Status(ErrorStatus::RESOURCE_EXHAUSTED_TRANSIENT,
                  std::string("cannot start the second device's thread: ") + e.what());
  }
  run(0);
  second.join();

  DiffReport report = lockstep.report(a, b);
  if (report.agree() && results[0].status.isOk() && results[1].status.isOk()) {
    // Every operation agreed; the outputs are their values or main's inputs.
    // Checked anyway, so that the verdict is about the results themselves.
    for (size_t k = 0; k < results[0].outputs.size() && k < results[1].outputs.size(); ++k) {
      const TensorValue& x = results[0].outputs[k];
      const TensorValue& y = results[1].outputs[k];
      Snapshot sx, sy;
      sx.outputs.push_back(ObservedOutput{model.main.outputIndexes[k], x.type, x.dimensions,
                                          std::make_shared<const std::vector<uint8_t>>(x.data)});
      sy.outputs.push_back(ObservedOutput{model.main.outputIndexes[k], y.type, y.dimensions,
                                          std::make_shared<const std::vector<uint8_t>>(y.data)});
      if (auto found = compare(sx, sy)) {
        found->a.reset();
        found->b.reset();
        found->output = static_cast<uint32_t>(k);
        report.divergence = std::move(found);
        break;
      }
    }
  }
  return report;
}

std::string formatDiff(const DiffReport& report) {
  const std::string& a = report.a.device;
  const std::string& b = report.b.device;
  if (report.agree()) {
    return fmt::format("{} and {} agree: {} operations with equal results, status {}\n", a, b,
                       report.operationsCompared, statusText(report.a.status));
  }
  const Divergence& d = *report.divergence;
  std::string text = fmt::format("{} and {} disagree after {} operations with equal results\n", a, b,
                                 report.operationsCompared);
  switch (d.kind) {
    case DivergenceKind::VALUE:
    case DivergenceKind::DIMENSIONS:
    case DivergenceKind::OUTPUTS:
      if (d.a) {
        text += fmt::format("first divergence: {}\n", atText(*d.a));
        if (d.b && d.b->ranOn != d.a->ranOn) text += fmt::format("  ({} ran it on {})\n", b, d.b->ranOn);
      } else {
        text += "first divergence: in the model's outputs\n";
      }
      break;
    case DivergenceKind::OPERATION:
      text += fmt::format("the runs reached different operations:\n{}: {}\n{}: {}\n", a, atText(*d.a), b,
                          atText(*d.b));
      break;
    case DivergenceKind::STATUS:
      break;
  }
  const std::string operand =
      fmt::format("{}output {} (operand {}, {})", d.a ? "" : "main ", d.output, d.operand, toString(d.type));
  switch (d.kind) {
    case DivergenceKind::VALUE:
      text += fmt::format("  {} {} element {} {}: {} {}, {} {}\n", operand, dimsText(d.dimsA), d.element,
                          dimsText(d.index), a, elementText(d.type, d.elementA), b,
                          elementText(d.type, d.elementB));
      break;
    case DivergenceKind::DIMENSIONS:
      text += fmt::format("  {} dimensions: {} {}, {} {}\n", operand, a, dimsText(d.dimsA), b, dimsText(d.dimsB));
      break;
    case DivergenceKind::OUTPUTS:
      text += "  the operation's outputs differ in which values were produced\n";
      break;
    case DivergenceKind::OPERATION:
      break;
    case DivergenceKind::STATUS:
      text += fmt::format("the runs ended differently:\n{}: {}\n{}: {}\n", a, statusText(report.a.status), b,
                          statusText(report.b.status));
      if (d.a) text += fmt::format("{} went on to {}\n", a, atText(*d.a));
      if (d.b) text += fmt::format("{} went on to {}\n", b, atText(*d.b));
      for (const DiffSide* side : {&report.a, &report.b}) {
        if (side->status && side->status->code() == ErrorStatus::MISSED_DEADLINE_TRANSIENT) {
          text += "(an observed run is much slower than a normal one, one hand-off per operation: a loop "
                  "timeout may come from the observation itself; nnfab diff --loop-timeout-ms sets it)\n";
          break;
        }
      }
      break;
  }
  return text;
}

std::string formatDiffJson(const DiffReport& report) {
  nlohmann::ordered_json j;
  j["agree"] = report.agree();
  j["a"] = sideJson(report.a);
  j["b"] = sideJson(report.b);
  j["operationsCompared"] = report.operationsCompared;
  if (report.divergence) {
    const Divergence& d = *report.divergence;
    nlohmann::ordered_json div;
    div["kind"] = std::string(toString(d.kind));
    div["a"] = d.a ? atJson(*d.a) : nlohmann::ordered_json(nullptr);
    div["b"] = d.b ? atJson(*d.b) : nlohmann::ordered_json(nullptr);
    if (d.kind == DivergenceKind::VALUE || d.kind == DivergenceKind::DIMENSIONS) {
      div["output"] = d.output;
      div["operand"] = d.operand;
      div["operandType"] = std::string(toString(d.type));
      div["dimensions"] = {{"a", d.dimsA}, {"b", d.dimsB}};
    }
    if (d.kind == DivergenceKind::VALUE) {
      div["element"] = d.element;
      div["index"] = d.index;
      div["values"] = {{"a", elementJson(d.type, d.elementA)}, {"b", elementJson(d.type, d.elementB)}};
    }
    j["divergence"] = std::move(div);
  } else {
    j["divergence"] = nullptr;
  }
  return j.dump() + "\n";
}

}  // namespace nnfab::runtime
