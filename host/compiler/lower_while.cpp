// WHILE: the rotated loop with loop state in registers and in two swapped
// blocks, constants hoisted to the preheader, and the coalescing of body
// results with their loop registers (with a little scheduling to allow it).
#include "compiler/builder_internal.h"

#include <algorithm>

namespace nnfab::compiler::lowering {
namespace {

// Positions of `code` mapped to the outermost enclosing loop of `code`
// itself: a read inside a nested loop happens until that loop's end, a
// write inside one may happen as early as its start.
struct NestedLoops {
  explicit NestedLoops(const std::vector<Inst>& code) : begin(code.size()), end(code.size()) {
    std::vector<size_t> open;
    size_t outerBegin = 0;
    for (size_t p = 0; p < code.size(); ++p) {
      if (code[p].kind == Kind::LOOP_BEGIN) {
        if (open.empty()) outerBegin = p;
        open.push_back(p);
      }
      begin[p] = open.empty() ? p : outerBegin;
      if (code[p].kind == Kind::LOOP_END && !open.empty()) open.pop_back();
    }
    size_t outerEnd = code.size();
    int depth = 0;
    for (size_t p = code.size(); p-- > 0;) {
      if (code[p].kind == Kind::LOOP_END) {
        if (depth == 0) outerEnd = p;
        ++depth;
      }
      end[p] = depth == 0 ? p : outerEnd;
      if (code[p].kind == Kind::LOOP_BEGIN && depth > 0) --depth;
    }
  }
  std::vector<size_t> begin, end;
};

}  // namespace

// A scalar body result shares the loop-carried register when every read of
// the carried value in the body happens before the result is first written,
// or in the very instruction that writes it (a single machine instruction
// reads its sources before it writes): then `add r_i, r_i, r_one` needs no
// move at the end of the iteration.
bool Builder::canCoalesce(const std::vector<Inst>& body, uint32_t carried, uint32_t bodyValue,
                          uint32_t firstBodyStorage) const {
  const uint32_t loopStorage = fn_.values[carried].storage;
  const uint32_t resultStorage = fn_.values[bodyValue].storage;
  if (resultStorage == loopStorage) return true;
  if (resultStorage < firstBodyStorage || fn_.storages[resultStorage].kind != StorageKind::REG) return false;
  const NestedLoops loops(body);
  auto storageOf = [&](uint32_t v) { return v == kNone ? kNone : fn_.values[v].storage; };
  size_t lastRead = 0;
  bool anyRead = false;
  size_t firstWrite = SIZE_MAX;
  size_t firstWriteAt = SIZE_MAX;
  for (size_t p = 0; p < body.size(); ++p) {
    const Inst& i = body[p];
    for (uint32_t s : i.src) {
      if (storageOf(s) == loopStorage) {
        lastRead = std::max(lastRead, loops.end[p]);
        anyRead = true;
      }
    }
    if (storageOf(i.dst) == loopStorage) return false;  // the body writes the carried register itself
    if (storageOf(i.dst) == resultStorage && loops.begin[p] < firstWrite) {
      firstWrite = loops.begin[p];
      firstWriteAt = p;
    }
  }
  if (firstWrite == SIZE_MAX) return false;
  const Inst& writer = body[firstWriteAt];
  const bool single = (writer.kind == Kind::OP || writer.kind == Kind::MOVE) && firstWrite == firstWriteAt;
  return !anyRead || lastRead < firstWrite || (lastRead == firstWrite && single);
}

void Builder::mergeStorage(uint32_t from, uint32_t into) {
  for (ir::Value& v : fn_.values) {
    if (v.storage == from) v.storage = into;
  }
}

// Moves the instruction that first writes a carried value's result below
// the body's last read of the carried value, when nothing in between
// depends on it, and keeps the move if more results then coalesce:
// `i' = i + 1; acc' = acc + i` becomes `acc' = acc + i; i' = i + 1`, and
// both updates happen in place.
void Builder::scheduleForCoalescing(std::vector<Inst>& body, const std::vector<uint32_t>& state,
                                    const std::vector<uint32_t>& results, const std::vector<uint32_t>& next,
                                    uint32_t firstBodyStorage) const {
  auto storageOf = [&](uint32_t v) { return v == kNone ? kNone : fn_.values[v].storage; };
  auto coalescible = [&](const std::vector<Inst>& code) {
    size_t n = 0;
    for (size_t j = 0; j < state.size(); ++j) {
      if (next[j] == kNone && canCoalesce(code, state[j], results[j], firstBodyStorage)) ++n;
    }
    return n;
  };
  auto simple = [&](const Inst& i) {
    return (i.kind == Kind::OP || i.kind == Kind::MOVE) && fn_.values[i.dst].scalar();
  };
  size_t best = coalescible(body);
  for (size_t j = 0; j < state.size(); ++j) {
    if (next[j] != kNone || canCoalesce(body, state[j], results[j], firstBodyStorage)) continue;
    const uint32_t loopStorage = storageOf(state[j]);
    const uint32_t resultStorage = storageOf(results[j]);
    size_t p = SIZE_MAX, q = 0;
    for (size_t k = 0; k < body.size(); ++k) {
      if (p == SIZE_MAX && storageOf(body[k].dst) == resultStorage) p = k;
      for (uint32_t s : body[k].src) {
        if (storageOf(s) == loopStorage) q = k;
      }
    }
    if (p == SIZE_MAX || q <= p || !simple(body[p])) continue;
    const Inst& moved = body[p];
    bool independent = true;
    for (size_t k = p + 1; k <= q && independent; ++k) {
      const Inst& i = body[k];
      if (!simple(i)) independent = false;
      const uint32_t written = storageOf(i.dst);
      if (written == storageOf(moved.dst)) independent = false;
      for (uint32_t s : moved.src) {
        if (s != kNone && storageOf(s) == written) independent = false;
      }
      for (uint32_t s : i.src) {
        if (s != kNone && storageOf(s) == storageOf(moved.dst)) independent = false;
      }
    }
    if (!independent) continue;
    std::vector<Inst> candidate = body;
    candidate.erase(candidate.begin() + static_cast<std::ptrdiff_t>(p));
    candidate.insert(candidate.begin() + static_cast<std::ptrdiff_t>(q), moved);
    const size_t count = coalescible(candidate);
    if (count > best) {
      best = count;
      body = std::move(candidate);
    }
  }
}

Status Builder::buildWhile(Instance& in, uint32_t opIndex, uint32_t depth) {
  const Operation& op = in.sg->operations[opIndex];
  const std::string at = where(in, opIndex);
  if (depth >= kMaxNestingDepth) {
    return failure(fmt::format("{}: IF/WHILE nested deeper than {} levels; the CPU runs such steps", at,
                               kMaxNestingDepth));
  }
  if (op.inputs.size() < 3 || op.outputs.empty()) return failure(at + ": malformed WHILE");
  auto condRef = subgraphRef(in, op.inputs[0], "WHILE condition");
  if (!condRef) return std::move(condRef).takeStatus().withContext(at);
  auto bodyRef = subgraphRef(in, op.inputs[1], "WHILE body");
  if (!bodyRef) return std::move(bodyRef).takeStatus().withContext(at);
  const Subgraph& condSg = model_.subgraph(*condRef);
  const Subgraph& bodySg = model_.subgraph(*bodyRef);
  const size_t m = op.outputs.size();
  const size_t carried = bodySg.outputIndexes.size();
  const size_t all = bodySg.inputIndexes.size();
  if (carried < m || all < carried || op.inputs.size() != 2 + all || condSg.inputIndexes.size() != all ||
      condSg.outputIndexes.size() != 1) {
    return failure(at + ": the condition and body do not match the WHILE's operands");
  }

  std::vector<uint32_t> outer;
  for (size_t j = 0; j < all; ++j) {
    auto v = read(in, op.inputs[2 + j]);
    if (!v) return std::move(v).takeStatus().withContext(at);
    outer.push_back(*v);
  }
  const bool outermost = loopDepth_ == 0;
  LoopScope scope;
  std::vector<Inst> copyIn;
  // Loop state: a register per one-element value; the tensors in two
  // blocks of identical layout (the body reads the current block and writes
  // the next one; one swap of the two base registers flips them).
  std::vector<uint32_t> state(carried), next(carried, kNone);
  uint32_t curBase = kNone, nextBase = kNone;
  uint64_t blockBytes = 0;
  for (size_t j = 0; j < carried; ++j) {
    const ir::Value x = fn_.values[outer[j]];
    if (x.scalar()) continue;
    if (curBase == kNone) {
      ir::Storage base;
      base.kind = StorageKind::REG;
      base.pair = static_cast<uint32_t>(fn_.storages.size());
      base.firstOfPair = true;
      curBase = newStorage(base);
      base.firstOfPair = false;
      nextBase = newStorage(base);
    }
    const uint64_t bytes = x.count * ir::elemBytes(x.elem);
    ir::Storage buf;
    buf.kind = StorageKind::BUFFER;
    buf.bytes = bytes;
    buf.offset = blockBytes;
    buf.base = curBase;
    const uint32_t cur = newStorage(buf);
    buf.base = nextBase;
    const uint32_t nxt = newStorage(buf);
    blockBytes += (bytes + 63) / 64 * 64;
    state[j] = shapedValue(x.elem, x.dims, x.count, cur);
    ir::Value target;
    target.storage = nxt;
    target.elem = x.elem;
    target.dims = x.dims;
    target.count = x.count;
    target.shaped = true;
    next[j] = newValue(target);
    roles_[next[j]] = TargetRole::LOOP_CARRIED;
  }
  if (curBase != kNone) {
    fn_.storages[curBase].bytes = blockBytes;
    fn_.storages[nextBase].bytes = blockBytes;
    Inst init;
    init.kind = Kind::INIT_BUFFER;
    init.storage = curBase;
    scope.preheader.push_back(init);
    init.storage = nextBase;
    scope.preheader.push_back(init);
  }
  for (size_t j = 0; j < carried; ++j) {
    const ir::Value x = fn_.values[outer[j]];
    if (x.scalar()) {
      ir::Storage reg;
      reg.kind = StorageKind::REG;
      state[j] = shapedValue(x.elem, x.dims, x.count, newStorage(reg));
    }
    Inst move;
    move.kind = Kind::MOVE;
    move.dst = state[j];
    move.src[0] = outer[j];
    copyIn.push_back(move);
  }
  emitted_ += copyIn.size() + scope.preheader.size();

  auto bindInputs = [&](Instance& inst, const Subgraph& sg) -> Status {
    for (size_t j = 0; j < all; ++j) {
      const uint32_t operand = sg.inputIndexes[j];
      if (operand >= sg.operands.size() || inst.binding[operand] != kNone) {
        return failure(fmt::format("{}: malformed subgraph inputs", subgraphLabel(inst.subgraph)));
      }
      inst.binding[operand] = j < carried ? state[j] : outer[j];
    }
    return Status::ok();
  };
  // One copy of the condition: its code and its BOOL8 result.
  auto buildCond = [&](std::vector<Inst>* code, uint32_t* result) -> Status {
    auto c = newInstance(*condRef);
    if (!c) return std::move(c).takeStatus();
    if (Status s = bindInputs(*c, condSg); !s) return s;
    const uint32_t operand = condSg.outputIndexes[0];
    if (operand >= condSg.operands.size() || c->binding[operand] != kNone) {
      return failure(fmt::format("{}: malformed condition output", subgraphLabel(*condRef)));
    }
    if (Status s = buildInstance(*c, depth + 1, code); !s) return s;
    if (!(c->state[operand] & Instance::kDefined)) {
      return failure(fmt::format("{}: the condition output is not produced by an operation", subgraphLabel(*condRef)));
    }
    *result = c->binding[operand];
    const ir::Value& v = fn_.values[*result];
    if (v.elem != Elem::BOOL8 || v.count != 1) {
      return failure(fmt::format("{}: the condition output must be one TENSOR_BOOL8 element, got {}",
                                 subgraphLabel(*condRef), dimsString(v.dims)));
    }
    return Status::ok();
  };

  scopes_.push_back(&scope);
  ++loopDepth_;
  std::vector<Inst> cond1, body, cond2;
  uint32_t c1 = kNone, c2 = kNone;
  std::vector<uint32_t> results(carried, kNone);
  const uint32_t firstBodyStorage = static_cast<uint32_t>(fn_.storages.size());
  Status status = buildCond(&cond1, &c1);
  if (status.isOk()) {
    auto b = newInstance(*bodyRef);
    if (!b) {
      status = std::move(b).takeStatus();
    } else {
      status = bindInputs(*b, bodySg);
      for (size_t j = 0; status.isOk() && j < carried; ++j) {
        const uint32_t operand = bodySg.outputIndexes[j];
        if (operand >= bodySg.operands.size() || b->binding[operand] != kNone) {
          status = failure(fmt::format("{}: malformed body outputs", subgraphLabel(*bodyRef)));
        } else if (next[j] != kNone) {
          b->binding[operand] = next[j];
          b->state[operand] = Instance::kTarget;
        }
      }
      if (status.isOk()) status = buildInstance(*b, depth + 1, &body);
      for (size_t j = 0; status.isOk() && j < carried; ++j) {
        const uint32_t operand = bodySg.outputIndexes[j];
        if (!(b->state[operand] & Instance::kDefined)) {
          status = failure(fmt::format("{}: body output {} is not produced by an operation", subgraphLabel(*bodyRef), j));
          break;
        }
        results[j] = b->binding[operand];
        const ir::Value& r = fn_.values[results[j]];
        const ir::Value& s = fn_.values[state[j]];
        if (r.dims != s.dims || r.elem != s.elem) {
          status = failure(fmt::format("{}: body output {} has shape {} but the loop-carried value has {}: the "
                                       "WHILE body changes a loop-carried shape", subgraphLabel(*bodyRef), j,
                                       dimsString(r.dims), dimsString(s.dims)));
        }
      }
    }
  }
  if (status.isOk()) status = buildCond(&cond2, &c2);
  --loopDepth_;
  scopes_.pop_back();
  if (!status.isOk()) return std::move(status).withContext(at);

  scheduleForCoalescing(body, state, results, next, firstBodyStorage);
  std::vector<Inst> carry;
  for (size_t j = 0; j < carried; ++j) {
    Inst i;
    if (next[j] != kNone) continue;  // the block swap below
    if (canCoalesce(body, state[j], results[j], firstBodyStorage)) {
      mergeStorage(fn_.values[results[j]].storage, fn_.values[state[j]].storage);
      continue;
    }
    i.kind = Kind::MOVE;
    i.dst = state[j];
    i.src[0] = results[j];
    carry.push_back(i);
  }
  if (curBase != kNone) {
    Inst swap;
    swap.kind = Kind::SWAP;
    swap.storage = curBase;
    swap.storage2 = nextBase;
    carry.push_back(swap);
  }
  emitted_ += carry.size() + 8;
  if (emitted_ > kMaxIrInstructions) {
    return failure(fmt::format("the step expands to more than {} instructions", kMaxIrInstructions));
  }

  const uint32_t top = newLabel();
  const uint32_t exit = newLabel();
  auto marker = [&](Kind kind, uint32_t label = kNone) {
    Inst i;
    i.kind = kind;
    i.label = label;
    out_->push_back(i);
  };
  out_->insert(out_->end(), scope.preheader.begin(), scope.preheader.end());
  out_->insert(out_->end(), copyIn.begin(), copyIn.end());
  out_->insert(out_->end(), cond1.begin(), cond1.end());
  Inst exitBranch;
  exitBranch.kind = Kind::BRANCH;
  exitBranch.src[0] = c1;
  exitBranch.sense = false;
  exitBranch.label = exit;
  out_->push_back(exitBranch);
  // NNAPI checks the loop timeout after each true condition, before the body:
  // the watchdog is armed once the first condition was true, so a loop that
  // never runs its body cannot time out (whatever the timeout, 0 included).
  if (outermost) marker(Kind::WDARM);
  marker(Kind::LOOP_BEGIN);
  marker(Kind::LABEL, top);
  out_->insert(out_->end(), body.begin(), body.end());
  out_->insert(out_->end(), carry.begin(), carry.end());
  out_->insert(out_->end(), cond2.begin(), cond2.end());
  Inst back;
  back.kind = Kind::BRANCH;
  back.src[0] = c2;
  back.sense = true;
  back.backedge = true;
  back.label = top;
  out_->push_back(back);
  marker(Kind::LOOP_END);
  marker(Kind::LABEL, exit);
  if (outermost) marker(Kind::WDOFF);

  // The outputs are the final loop state; a target elsewhere gets a copy.
  for (size_t i = 0; i < m; ++i) {
    const uint32_t operand = op.outputs[i];
    if (operand >= in.sg->operands.size()) return failure(at + ": refers to a missing operand");
    const ir::Value s = fn_.values[state[i]];
    if (Status st = checkDeclared(in, operand, s.elem, s.dims, at); !st) return st;
    if (in.binding[operand] == kNone) {
      in.binding[operand] = state[i];
      in.state[operand] = Instance::kDefined;
      continue;
    }
    auto dst = define(in, operand, s.elem, s.dims, s.count);
    if (!dst) return std::move(dst).takeStatus().withContext(at);
    if (Status st = emitMove(*dst, state[i]); !st) return st;
  }
  return Status::ok();
}

}  // namespace nnfab::compiler::lowering
