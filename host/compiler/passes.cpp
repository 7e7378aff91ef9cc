#include "compiler/passes.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

namespace nnfab::compiler {
namespace {

uint32_t inverse(uint32_t fn) {
  switch (fn) {
    case isa::kFnEQ: return isa::kFnNE;
    case isa::kFnNE: return isa::kFnEQ;
    case isa::kFnLT: return isa::kFnGE;
    case isa::kFnGE: return isa::kFnLT;
    case isa::kFnLE: return isa::kFnGT;
    default: return isa::kFnLE;  // GT
  }
}

}  // namespace

void fuseCompareBranches(ir::Function& fn) {
  std::vector<uint32_t> refs(fn.storages.size(), 0);
  for (const ir::Inst& inst : fn.code) forEachStorage(fn, inst, [&](uint32_t s) { ++refs[s]; });

  std::vector<ir::Inst> out;
  out.reserve(fn.code.size());
  for (const ir::Inst& inst : fn.code) {
    if (inst.kind == ir::Kind::BRANCH && !out.empty()) {
      const ir::Inst& prev = out.back();
      const uint32_t cond = inst.src[0];
      const uint32_t storage = fn.values[cond].storage;
      if (prev.kind == ir::Kind::OP && prev.dst == cond && isa::fnIsComparison(prev.fn) &&
          fn.values[cond].scalar() && fn.storages[storage].kind == ir::StorageKind::REG && refs[storage] == 2) {
        ir::Inst fused;
        fused.kind = ir::Kind::BRANCH_CMP;
        fused.fn = inst.sense ? prev.fn : inverse(prev.fn);
        fused.src[0] = prev.src[0];
        fused.src[1] = prev.src[1];
        fused.label = inst.label;
        fused.backedge = inst.backedge;
        out.back() = fused;
        continue;
      }
    }
    out.push_back(inst);
  }
  fn.code = std::move(out);
}

Intervals liveIntervals(const ir::Function& fn) {
  const size_t n = fn.code.size();
  Intervals iv;
  iv.start.assign(fn.storages.size(), SIZE_MAX);
  iv.end.assign(fn.storages.size(), 0);
  for (size_t p = 0; p < n; ++p) {
    forEachStorage(fn, fn.code[p], [&](uint32_t s) {
      iv.start[s] = std::min(iv.start[s], p);
      iv.end[s] = std::max(iv.end[s], p);
    });
  }
  struct Loop {
    size_t begin, end;
  };
  std::vector<Loop> loops;
  std::vector<size_t> open;
  for (size_t p = 0; p < n; ++p) {
    if (fn.code[p].kind == ir::Kind::LOOP_BEGIN) open.push_back(p);
    if (fn.code[p].kind == ir::Kind::LOOP_END && !open.empty()) {
      loops.push_back({open.back(), p});
      open.pop_back();
    }
  }
  std::sort(loops.begin(), loops.end(), [](const Loop& a, const Loop& b) { return a.begin < b.begin; });
  for (size_t s = 0; s < fn.storages.size(); ++s) {
    if (iv.start[s] == SIZE_MAX) continue;
    // Loops are nested or disjoint, so extending by each loop that begins
    // inside the (growing) range reaches a fixed point in one pass.
    auto it = std::upper_bound(loops.begin(), loops.end(), iv.start[s],
                               [](size_t v, const Loop& l) { return v < l.begin; });
    for (; it != loops.end() && it->begin < iv.end[s]; ++it) iv.end[s] = std::max(iv.end[s], it->end);
    if (fn.storages[s].outputSlot >= 0) iv.end[s] = n;
    if (fn.storages[s].inputSlot >= 0) iv.start[s] = 0;
  }
  return iv;
}

void coalesceMoves(ir::Function& fn) {
  Intervals iv = liveIntervals(fn);
  std::vector<uint32_t> parent(fn.storages.size());
  for (uint32_t s = 0; s < parent.size(); ++s) parent[s] = s;
  auto find = [&](uint32_t s) {
    while (parent[s] != s) s = parent[s] = parent[parent[s]];
    return s;
  };
  for (size_t p = 0; p < fn.code.size(); ++p) {
    const ir::Inst& i = fn.code[p];
    if (i.kind != ir::Kind::MOVE) continue;
    const uint32_t a = find(fn.values[i.src[0]].storage);
    const uint32_t b = find(fn.values[i.dst].storage);
    if (a == b || fn.storages[a].kind != ir::StorageKind::REG || fn.storages[b].kind != ir::StorageKind::REG) continue;
    if (iv.end[a] != p || iv.start[b] != p) continue;
    parent[b] = a;
    iv.end[a] = iv.end[b];
  }
  for (ir::Value& v : fn.values) {
    if (v.storage != ir::kNone) v.storage = find(v.storage);
  }
}

}  // namespace nnfab::compiler

namespace nnfab::compiler {

std::string dumpIr(const ir::Function& fn) {
  static const char* kinds[] = {"op", "move", "load", "store", "define_input", "init_buffer", "swap", "label",
                                "jump", "branch", "branch_cmp", "wdarm", "wdoff", "loop_begin", "loop_end"};
  static const char* storageKinds[] = {"reg", "zero", "region", "buffer", "const"};
  auto value = [&](uint32_t v) {
    if (v == ir::kNone) return std::string("-");
    const ir::Value& x = fn.values[v];
    return fmt::format("v{}/{}{}", v, storageKinds[static_cast<int>(fn.storages[x.storage].kind)], x.storage);
  };
  std::string out;
  for (size_t p = 0; p < fn.code.size(); ++p) {
    const ir::Inst& i = fn.code[p];
    out += fmt::format("{}: {}", p, kinds[static_cast<int>(i.kind)]);
    if (i.kind == ir::Kind::OP || i.kind == ir::Kind::BRANCH_CMP) out += fmt::format(" fn{}", i.fn);
    if (i.dst != ir::kNone) out += fmt::format(" {} <-", value(i.dst));
    for (uint32_t s : i.src) {
      if (s != ir::kNone) out += fmt::format(" {}", value(s));
    }
    if (i.storage != ir::kNone) out += fmt::format(" s{}", i.storage);
    if (i.storage2 != ir::kNone) out += fmt::format(" s{}", i.storage2);
    if (i.label != ir::kNone) out += fmt::format(" L{}", i.label);
    out += '\n';
  }
  return out;
}

}  // namespace nnfab::compiler
