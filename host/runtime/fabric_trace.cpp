#include "runtime/fabric_trace.h"

#include <map>

#include <fmt/format.h>

#include "nnfab_isa.h"

namespace nnfab::runtime {

namespace {

constexpr const char* kClassNames[isa::kNumTraceClasses] = {"ctrl", "mem", "salu", "branch", "tensor"};

// The back edge that closes the loop whose entry test is the branch at `pc`
// (its target is the loop's exit), or -1 for an IF.
int64_t loopOfEntryTest(const std::vector<uint64_t>& code, uint32_t pc) {
  if (pc >= code.size()) return -1;
  const isa::Fields test = isa::decodeFields(code[pc]);
  const uint32_t exit = test.imm;
  if (exit == 0 || exit <= pc + 1 || exit > code.size()) return -1;
  const isa::Fields back = isa::decodeFields(code[exit - 1]);
  if (back.backedge == 0 || back.imm <= pc || back.imm >= exit) return -1;
  return exit - 1;
}

}  // namespace

std::vector<TraceSink::DeviceEvent> fabricTraceEvents(const std::vector<uint64_t>& code,
                                                      const fabric::DeviceTrace& trace, uint64_t cycles) {
  std::vector<TraceSink::DeviceEvent> out;
  TraceSink::DeviceEvent program;
  program.name = "fabric program";
  program.category = "fabric";
  program.cycles = cycles;
  program.args = {{"traced_branches", std::to_string(trace.entries.size())},
                  {"dropped_branches", std::to_string(trace.dropped)}};
  TraceSink::DeviceEvent counters;
  counters.name = "cycles by instruction class";
  counters.category = "fabric";
  for (uint32_t k = 0; k < isa::kNumTraceClasses; ++k) {
    program.args.emplace_back(fmt::format("cycles_{}", kClassNames[k]), std::to_string(trace.classCycles[k]));
    counters.counters.emplace_back(kClassNames[k], trace.classCycles[k]);
  }
  out.push_back(std::move(program));
  out.push_back(std::move(counters));

  // Per loop (its back edge's pc): where the running iteration began, and
  // how many iterations it has had.
  struct Loop {
    uint64_t begin = 0;
    uint64_t iterations = 0;
  };
  std::map<uint32_t, Loop> loops;
  for (uint64_t raw : trace.entries) {
    const fabric::TraceEntry e = fabric::decodeTraceEntry(raw);
    const uint64_t after = e.cycle + 1;  // a branch costs one cycle
    if (e.backedge) {
      auto [it, fresh] = loops.try_emplace(e.pc);
      Loop& loop = it->second;
      if (fresh) loop.begin = e.cycle;  // its entry is not in the ring
      ++loop.iterations;
      TraceSink::DeviceEvent iteration;
      iteration.name = fmt::format("WHILE iteration {}", loop.iterations);
      iteration.category = "while";
      iteration.startCycle = loop.begin;
      iteration.cycles = after - loop.begin;
      iteration.args = {{"pc", std::to_string(e.pc)}, {"iteration", std::to_string(loop.iterations)}};
      out.push_back(std::move(iteration));
      if (e.taken) {
        loop.begin = after;
      } else {
        TraceSink::DeviceEvent exit;
        exit.name = fmt::format("WHILE exit after {} iterations", loop.iterations);
        exit.category = "while";
        exit.startCycle = after;
        exit.args = {{"pc", std::to_string(e.pc)}};
        out.push_back(std::move(exit));
        loops.erase(it);
      }
      continue;
    }
    const int64_t loopPc = loopOfEntryTest(code, e.pc);
    if (loopPc >= 0) {
      if (e.taken) {
        TraceSink::DeviceEvent skip;
        skip.name = "WHILE: condition false at entry (0 iterations)";
        skip.category = "while";
        skip.startCycle = e.cycle;
        skip.args = {{"pc", std::to_string(e.pc)}};
        out.push_back(std::move(skip));
      } else {
        loops[static_cast<uint32_t>(loopPc)] = Loop{after, 0};
      }
      continue;
    }
    TraceSink::DeviceEvent branch;
    branch.name = e.taken ? "IF: else branch" : "IF: then branch";
    branch.category = "if";
    branch.startCycle = e.cycle;
    branch.args = {{"pc", std::to_string(e.pc)}};
    out.push_back(std::move(branch));
  }
  if (trace.dropped != 0) {
    TraceSink::DeviceEvent full;
    full.name = fmt::format("trace ring full: {} later branches not recorded", trace.dropped);
    full.category = "fabric";
    full.startCycle = trace.entries.empty() ? 0 : fabric::decodeTraceEntry(trace.entries.back()).cycle + 1;
    full.args = {{"dropped_branches", std::to_string(trace.dropped)}};
    out.push_back(std::move(full));
  }
  return out;
}

}  // namespace nnfab::runtime
