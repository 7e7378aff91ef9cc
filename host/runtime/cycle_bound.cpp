#include "runtime/cycle_bound.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <limits>
#include <queue>
#include <utility>
#include <vector>

#include "isa/cycle_model.h"
#include "nnfab_isa.h"

namespace nnfab::runtime {
namespace {

using hls::CycleQuery;

struct Edges {
  uint64_t cost = 0;
  uint32_t next[2] = {0, 0};
  uint32_t count = 0;     // successors in next
  bool completes = false;  // HALT 0
};

// The write traffic of a tensor instruction from its descriptor in the data
// image (the compiler never writes descriptors at run time); the fixed cost
// only when the descriptor is not in the image.
uint64_t tensorCycles(const compiler::Program& program, const isa::Fields& f) {
  const uint32_t fn = f.opcode & isa::kFnMask;
  uint64_t writeBytes = 0;
  uint64_t elements = 0;
  if (uint64_t{f.imm} + isa::kDESCRIPTOR_BYTES <= program.dataImage.size()) {
    uint32_t dims[isa::kMAX_RANK];
    std::memcpy(dims, program.dataImage.data() + f.imm + isa::kDescDIM * sizeof(uint32_t), sizeof(dims));
    elements = 1;
    // A region the core accepts holds < 2^32 elements; saturating there keeps
    // the product from overflowing (a larger one faults, it never completes).
    constexpr uint64_t kMaxElements = uint64_t{1} << 32;
    for (uint32_t d : dims) elements = std::min(elements * d, kMaxElements);
    writeBytes = elements * isa::typeBytes(isa::fnResultIsBool(fn) ? uint32_t{isa::kTypeBOOL8} : f.type);
  }
  // Read bytes 0: the formulas take a maximum, so leaving reads out bounds below.
  return hls::cycleCost(hls::kDefaultCycleParams, CycleQuery{hls::kCycleTensor, fn, 0, 0, writeBytes});
}

Edges edgesOf(const compiler::Program& program, uint32_t pc) {
  const isa::Fields f = isa::decodeFields(program.code[pc]);
  Edges e;
  const uint32_t cls = f.opcode & isa::kClassMask;
  auto add = [&e](uint32_t to) { e.next[e.count++] = to; };
  if (cls == isa::kClassTENSOR) {
    e.cost = tensorCycles(program, f);
    add(pc + 1);
    return e;
  }
  e.cost = hls::cycleCost(hls::kDefaultCycleParams, CycleQuery{hls::kCycleInstruction, f.opcode, 0, 0, 0});
  if (cls == isa::kClassBRCMP) {
    add(pc + 1);
    add(f.imm);
  } else if (cls == isa::kClassSALU) {
    add(pc + 1);
  } else {
    switch (f.opcode) {
      case isa::kOpHALT: e.completes = f.imm == 0; break;
      case isa::kOpJMP: add(f.imm); break;
      case isa::kOpBZ:
      case isa::kOpBNZ:
        add(pc + 1);
        add(f.imm);
        break;
      default: add(pc + 1); break;
    }
  }
  return e;
}

}  // namespace

uint64_t lowerBoundCycles(const compiler::Program& program) {
  const size_t n = program.code.size();
  if (n == 0) return 0;
  constexpr uint64_t kUnreached = std::numeric_limits<uint64_t>::max();
  // Dijkstra over pcs: dist[pc] = cheapest cycles before pc executes.
  std::vector<uint64_t> dist(n, kUnreached);
  using Entry = std::pair<uint64_t, uint32_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue;
  dist[0] = 0;
  queue.emplace(0, 0);
  uint64_t best = kUnreached;
  while (!queue.empty()) {
    const auto [d, pc] = queue.top();
    queue.pop();
    if (d != dist[pc] || d >= best) continue;
    const Edges e = edgesOf(program, pc);
    if (e.completes) best = std::min(best, d + e.cost);
    for (uint32_t i = 0; i < e.count; ++i) {
      const uint32_t to = e.next[i];
      if (to >= n) continue;  // leaving the program faults: not a completing path
      if (d + e.cost < dist[to]) {
        dist[to] = d + e.cost;
        queue.emplace(dist[to], to);
      }
    }
  }
  if (best == kUnreached) return 0;
  const uint64_t load = hls::cycleCost(
      hls::kDefaultCycleParams, CycleQuery{hls::kCycleProgramLoad, n * isa::kINSTRUCTION_BYTES, 0, 0, 0});
  return load + best;
}

std::chrono::nanoseconds lowerBoundTime(const compiler::Program& program, double clockMhz) {
  if (!(clockMhz > 0)) return std::chrono::nanoseconds(0);
  const long double ns = static_cast<long double>(lowerBoundCycles(program)) * 1000.0L / clockMhz;
  return std::chrono::nanoseconds(static_cast<int64_t>(ns));
}

}  // namespace nnfab::runtime
