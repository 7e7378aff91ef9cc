// Rewrites of the intermediate form between building and emitting.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "compiler/ir.h"

namespace nnfab::compiler {

// A scalar comparison whose BOOL8 result only feeds the branch right after
// it becomes one fused compare-and-branch (BRCMP), with the inverse
// comparison when the branch is taken on false.
void fuseCompareBranches(ir::Function& fn);

// Live range of every storage as positions in fn.code, [start, end]
// inclusive (start == SIZE_MAX: never used). A storage live when a loop
// starts stays live to the loop's end (the next iteration may read it);
// input slots live from position 0 (the host writes them before the run),
// output slots to fn.code.size() (the host reads them after).
struct Intervals {
  std::vector<size_t> start, end;
};
Intervals liveIntervals(const ir::Function& fn);

// A register-to-register MOVE whose source dies where its destination is
// born makes the two one register: the move disappears (e.g. a WHILE's
// initial value that nothing reads after the loop starts).
void coalesceMoves(ir::Function& fn);

// Every storage an instruction reads or writes (values resolved); a BUFFER
// also reports the block base register it is addressed through.
template <typename F>
void forEachStorage(const ir::Function& fn, const ir::Inst& inst, F&& f) {
  auto report = [&](uint32_t s) {
    f(s);
    if (fn.storages[s].kind == ir::StorageKind::BUFFER) f(fn.storages[s].base);
  };
  if (inst.dst != ir::kNone) report(fn.values[inst.dst].storage);
  for (uint32_t v : inst.src) {
    if (v != ir::kNone) report(fn.values[v].storage);
  }
  if (inst.storage != ir::kNone) report(inst.storage);
  if (inst.storage2 != ir::kNone) report(inst.storage2);
}

}  // namespace nnfab::compiler

namespace nnfab::compiler {
// The intermediate form as text, one instruction per line (for debugging).
std::string dumpIr(const ir::Function& fn);
}  // namespace nnfab::compiler
