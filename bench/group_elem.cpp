// The tensor unit's element engine (docs/rtl.md "Element engine"): the path
// of every TENSOR instruction the vector engine cannot take — broadcasts and
// other strides, mixed element sizes, every FLOAT32 function. ADDs of
// addElements elements: INT32 [rows, 256] + [256] (B broadcast along the
// rows), [rows, 256] + [rows, 1] (B broadcast along each row), [n] + [1]
// (tensor + scalar), [rows, 4, 64] + [rows, 1, 64] (B's strides 64, 0, 1:
// broadcast along a middle dimension), FLOAT32 [rows, 256] + [256] and FLOAT32 [n] + [n] (contiguous, but
// FLOAT32), and the same two shapes for FLOAT32 SUB and MUL (FLOAT32 wide
// mode: docs/rtl.md "FLOAT32 wide mode"). Elements per cycle against the bound of the one read port
// (64 bytes per cycle): the engine reads a [256] operand again for every
// row, so an ADD with two operands per element is bound at 8 elements per
// cycle; one whose B is read once per row or once at all, at 64 / 4 = 16
// (the write port's bound too). Issue 15 asks for half of the bound on the
// general path.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "bench_groups.h"
#include "fabric_run.h"
#include "isa/cycle_model.h"
#include "models/model_builder.h"
#include "nnfab_isa.h"

namespace nnfab::bench {
namespace {

constexpr double kTargetEfficiencyPercent = 50.0;  // issue 15: the general path at half the port bound
constexpr uint32_t kRow = 256;                      // the broadcast operand's length

Model binaryModel(OperationType op, OperandType type, Dimensions a, Dimensions b) {
  Model model;
  models::SubgraphBuilder main;
  const Dimensions out = a;
  const uint32_t x = main.input(type, std::move(a));
  const uint32_t y = main.input(type, std::move(b));
  const uint32_t z = main.output(type, out);
  main.op(op, {x, y, main.scalar(0)}, {z});
  model.main = main.build();
  return model;
}

// The shapes of B against A.
enum class Shape {
  kRowBroadcast,   // A [n / kRow, kRow], B [kRow]
  kColBroadcast,   // A [n / kRow, kRow], B [n / kRow, 1]
  kScalar,         // A [n], B [1]
  kContiguous,     // A [n], B [n]
  kMidBroadcast,   // A [n / kRow, 4, kRow / 4], B [n / kRow, 1, kRow / 4]
};

struct Case {
  std::string id;
  std::string what;
  bool isFloat;
  Shape shape;
  OperationType op = OperationType::ADD;  // ADD, SUB or MUL
};

float floatResult(OperationType op, float a, float b) {
  switch (op) {
    case OperationType::SUB: return a - b;
    case OperationType::MUL: return a * b;
    default: return a + b;
  }
}

// 4-byte reads per element on the read port: B once per element, once per
// row of kRow elements, or once.
double readsPerElement(Shape shape, uint32_t n) {
  switch (shape) {
    case Shape::kColBroadcast: return 1.0 + 1.0 / kRow;
    case Shape::kScalar: return 1.0 + 1.0 / n;
    default: return 2.0;
  }
}

Status runCase(const Context& context, fabric::FabricBackend& backend, Report& report, const Case& c) {
  const uint32_t n = std::max(context.sizes.addElements / kRow, 1u) * kRow;
  const uint32_t rows = n / kRow;
  Dimensions da{n}, db{n};
  const uint32_t na = n;
  uint32_t nb = n;
  switch (c.shape) {
    case Shape::kRowBroadcast: da = {rows, kRow}; db = {kRow}; nb = kRow; break;
    case Shape::kColBroadcast: da = {rows, kRow}; db = {rows, 1}; nb = rows; break;
    case Shape::kScalar: db = {1}; nb = 1; break;
    case Shape::kContiguous: break;
    case Shape::kMidBroadcast: da = {rows, 4, kRow / 4}; db = {rows, 1, kRow / 4}; nb = n / 4; break;
  }
  // B's element for output element i, A's.
  auto bIndex = [&](uint32_t i) {
    switch (c.shape) {
      case Shape::kRowBroadcast: return i % kRow;
      case Shape::kColBroadcast: return i / kRow;
      case Shape::kScalar: return 0u;
      case Shape::kMidBroadcast: return (i / kRow) * (kRow / 4) + i % (kRow / 4);
      default: return i;
    }
  };

  const OperandType type = c.isFloat ? OperandType::TENSOR_FLOAT32 : OperandType::TENSOR_INT32;
  std::vector<int32_t> ia(na), ib(nb);
  std::vector<float> fa(na), fb(nb);
  for (uint32_t i = 0; i < na; ++i) {
    ia[i] = static_cast<int32_t>(i * 2654435761u);
    fa[i] = static_cast<float>(static_cast<int>(i % 1001) - 500) / 16.0f;
  }
  for (uint32_t i = 0; i < nb; ++i) {
    ib[i] = static_cast<int32_t>(i) - 5;
    fb[i] = static_cast<float>(static_cast<int>(i % 37) - 18) / 4.0f;
  }
  context.tell(fmt::format("{} ({} elements) on {}", c.what, n, context.device));
  const std::vector<TensorValue> inputs =
      c.isFloat ? std::vector<TensorValue>{models::floats(da, fa), models::floats(db, fb)}
                : std::vector<TensorValue>{models::int32s(da, ia), models::int32s(db, ib)};
  auto run = runToCompletion(backend, binaryModel(c.op, type, da, db), inputs);
  if (!run.isOk()) return std::move(run).takeStatus().withContext(c.id);
  const std::vector<float> fz = c.isFloat ? models::values<float>(run->outputs[0]) : std::vector<float>(n);
  const std::vector<int32_t> iz = c.isFloat ? std::vector<int32_t>(n) : models::values<int32_t>(run->outputs[0]);
  if (fz.size() != n || iz.size() != n) return generalFailure(fmt::format("{}: the output has the wrong size", c.id));
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t j = bIndex(i), k = i;
    if (c.isFloat) {
      const float want = floatResult(c.op, fa[k], fb[j]);
      const float got = fz[i];
      if (std::memcmp(&got, &want, sizeof(float)) != 0) {
        return generalFailure(fmt::format("{}: element {} is {}, expected {}", c.id, i, got, want));
      }
    } else {
      const int32_t want = static_cast<int32_t>(static_cast<uint32_t>(ia[k]) + static_cast<uint32_t>(ib[j]));
      const int32_t got = iz[i];
      if (got != want) return generalFailure(fmt::format("{}: element {} is {}, expected {}", c.id, i, got, want));
    }
  }
  const double cycles = static_cast<double>(run->report.cycles);
  const double perCycle = n / cycles;
  const double bytesPerElement = readsPerElement(c.shape, n) * 4.0;  // what must cross the read port
  const double bound = std::min(isa::kMEM_BEAT_BYTES / bytesPerElement, isa::kMEM_BEAT_BYTES / 4.0);
  const nlohmann::ordered_json params = {{"elements", n}, {"type", c.isFloat ? "FLOAT32" : "INT32"},
                                         {"shape", c.what}};
  report.add(c.id + ".cycles", "cycles", cycles, "CYCLES of the whole execution (program load and halt included)")
      .with(params);
  report.add(c.id + ".elements_per_cycle", "elements/cycle", perCycle, "elements / CYCLES").with(params);
  report
      .add(c.id + ".bound_elements_per_cycle", "elements/cycle", bound,
           fmt::format("memory-port bound: {} bytes per cycle per port and direction; {:.3f} bytes read, 4 bytes "
                       "written per element",
                       isa::kMEM_BEAT_BYTES, bytesPerElement))
      .from(Source::DERIVED)
      .with(params);
  report
      .add(c.id + ".efficiency_percent", "%", 100.0 * perCycle / bound, "elements per cycle as a share of the bound")
      .against(atLeast(kTargetEfficiencyPercent))
      .with(params);
  return Status::ok();
}

}  // namespace

Status runElemGroup(const Context& context, Report& report) {
  auto device = context.open();
  if (!device.isOk()) return std::move(device).takeStatus();
  fabric::FabricBackend& backend = *device->backend;
  const bool float32 = (backend.readRegister(isa::kRegFEATURES) & isa::kFEATURE_FLOAT32) != 0;
  const std::vector<Case> cases = {
      {"elem_add_int32_broadcast", "INT32 ADD [rows, 256] + [256]", false, Shape::kRowBroadcast},
      {"elem_add_int32_row_broadcast", "INT32 ADD [rows, 256] + [rows, 1]", false, Shape::kColBroadcast},
      {"elem_add_int32_scalar", "INT32 ADD [n] + [1]", false, Shape::kScalar},
      {"elem_add_int32_mid_broadcast", "INT32 ADD [rows, 4, 64] + [rows, 1, 64]", false, Shape::kMidBroadcast},
      {"elem_add_float32_broadcast", "FLOAT32 ADD [rows, 256] + [256]", true, Shape::kRowBroadcast},
      {"elem_add_float32", "FLOAT32 ADD [n] + [n]", true, Shape::kContiguous},
      {"elem_sub_float32_broadcast", "FLOAT32 SUB [rows, 256] - [256]", true, Shape::kRowBroadcast,
       OperationType::SUB},
      {"elem_sub_float32", "FLOAT32 SUB [n] - [n]", true, Shape::kContiguous, OperationType::SUB},
      {"elem_mul_float32_broadcast", "FLOAT32 MUL [rows, 256] * [256]", true, Shape::kRowBroadcast,
       OperationType::MUL},
      {"elem_mul_float32", "FLOAT32 MUL [n] * [n]", true, Shape::kContiguous, OperationType::MUL},
  };
  for (const Case& c : cases) {
    if (c.isFloat && !float32) {
      report.note("elem", fmt::format("{}: {}: FEATURES has no FLOAT32", c.id, context.device));
      continue;
    }
    if (Status s = runCase(context, backend, report, c); !s.isOk()) return s;
  }
  return Status::ok();
}

}  // namespace nnfab::bench
