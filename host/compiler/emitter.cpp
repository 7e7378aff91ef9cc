#include "compiler/emitter.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <optional>

#include "compiler/passes.h"
#include "compiler/placement.h"
#include "compiler/shapes.h"
#include "fabric/insn.h"
#include "isa/cycle_model.h"
#include "isa/data_windows.h"

namespace nnfab::compiler {
namespace {

using ir::Inst;
using ir::Kind;
using ir::kNone;
using ir::StorageKind;
namespace insn = fabric::insn;

constexpr uint64_t kAlign = isa::kDESCRIPTOR_BYTES;  // regions start on a memory beat
// Offsets live in 32-bit registers and immediates.
constexpr uint64_t kMaxDataBytes = (uint64_t{1} << 32) - kAlign;
constexpr uint32_t kNoReg = UINT32_MAX;

uint64_t alignUp(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

Status failure(std::string message) { return generalFailure(std::move(message)); }

// First-fit allocation of 64-byte aligned regions above the data image.
class Heap {
 public:
  explicit Heap(uint64_t base) : base_(base) {}
  // nullopt when the data region would exceed what 32-bit offsets address.
  std::optional<uint64_t> allocate(uint64_t bytes) {
    if (bytes == 0) return base_;
    const uint64_t size = alignUp(bytes, kAlign);
    for (auto it = free_.begin(); it != free_.end(); ++it) {
      if (it->second >= size) {
        const uint64_t offset = it->first;
        const uint64_t rest = it->second - size;
        free_.erase(it);
        if (rest != 0) free_.emplace(offset + size, rest);
        return base_ + offset;
      }
    }
    if (top_ + size > kMaxDataBytes - base_) return std::nullopt;
    const uint64_t offset = top_;
    top_ += size;
    return base_ + offset;
  }
  void release(uint64_t address, uint64_t bytes) {
    if (bytes == 0) return;
    uint64_t offset = address - base_;
    uint64_t size = alignUp(bytes, kAlign);
    auto next = free_.lower_bound(offset);
    if (next != free_.end() && offset + size == next->first) {
      size += next->second;
      next = free_.erase(next);
    }
    if (next != free_.begin()) {
      auto prev = std::prev(next);
      if (prev->first + prev->second == offset) {
        offset = prev->first;
        size += prev->second;
        free_.erase(prev);
      }
    }
    free_.emplace(offset, size);
  }
  uint64_t end() const { return base_ + top_; }

 private:
  uint64_t base_;
  uint64_t top_ = 0;
  std::map<uint64_t, uint64_t> free_;  // offset (from base) -> size
};

class Emitter {
 public:
  explicit Emitter(const ir::Function& fn) : fn_(fn) {}
  Result<Program> run();

 private:
  bool isTensorInst(const Inst& i) const {
    return (i.kind == Kind::OP || i.kind == Kind::MOVE) && !fn_.values[i.dst].scalar();
  }
  const ir::Storage& storageOf(uint32_t value) const { return fn_.storages[fn_.values[value].storage]; }
  uint32_t storageIdOf(uint32_t value) const { return fn_.values[value].storage; }
  // A tensor instruction's ALU function and TYPE field.
  uint32_t tensorFn(const Inst& i) const { return i.kind == Kind::MOVE ? isa::kFnMOV : i.fn; }
  uint32_t tensorType(const Inst& i) const {
    const uint32_t fn = tensorFn(i);
    const uint32_t typeSource = fn == isa::kFnSEL ? 1 : 0;
    const uint32_t type = ir::isaType(fn_.values[i.src[typeSource]].elem);
    // A copy moves bits: FLOAT32 data is copied as INT32 words, so a core
    // without FLOAT32 units still moves it.
    return fn == isa::kFnMOV && type == isa::kTypeFLOAT32 ? isa::kTypeINT32 : type;
  }

  Status layoutImage();
  // FC's descriptor: DIM = batch, units, input_size, activation; strides 0.
  Descriptor fcDescriptor(const Inst& i) const {
    Descriptor d{};
    const ir::Value& out = fn_.values[i.dst];
    const ir::Value& weights = fn_.values[i.src[1]];
    d[isa::kDescDIM + 0] = out.dims[0];
    d[isa::kDescDIM + 1] = out.dims[1];
    d[isa::kDescDIM + 2] = weights.dims[1];
    d[isa::kDescDIM + 3] = i.act;
    return d;
  }
  uint32_t placeInImage(const std::vector<uint8_t>& bytes, uint64_t align);
  void computeLiveness();
  // The heaps of windows A, B and D: sized by a pass of placeRegions and
  // releaseRegions alone, then laid out [A][B][D] for the real pass.
  Status layoutWindows();
  Status allocateAt(size_t p);
  Status placeRegions(size_t p);
  void releaseRegions(size_t p);
  void releaseAt(size_t p);
  Status emitInst(size_t p);

  // Registers for one instruction's operands.
  std::optional<uint32_t> takeTemp();
  uint32_t regOf(uint32_t value);  // REG / ZERO storages
  // A register holding the byte offset of the value's memory (a temp with
  // `li` unless it is a buffer whose base lives in a register). Scalars in
  // registers are first stored to scratch slot `slot`.
  std::optional<uint32_t> baseOf(uint32_t value, uint32_t slot);
  std::optional<uint32_t> liTemp(uint64_t offset);
  std::optional<uint32_t> scalarInRegister(uint32_t value);  // REG/ZERO, or a CONST via li
  void put(uint64_t word) { code_.push_back(word); }
  void branchTo(uint64_t word, uint32_t label) {
    fixups_.emplace_back(code_.size(), label);
    put(word);
  }
  Status pressure(size_t p) {
    outOfRegisters_ = true;
    return failure(fmt::format("not enough registers (intermediate instruction {}): more than {} "
                               "one-element values, loop state and tensor bases are live at once",
                               p, isa::kNUM_SCALAR_REGS - 1));
  }

  const ir::Function& fn_;
  std::vector<uint8_t> image_;
  std::vector<uint32_t> descriptor_;      // per instruction
  std::vector<bool> vectorEngine_;        // per instruction: a TENSOR the vector engine takes
  std::vector<uint8_t> window_;           // per storage: isa::kWindowA/B/D (placement.h)
  std::vector<uint64_t> constOffset_;     // per storage (CONST in the image)
  uint64_t constBBytes_ = 0;              // the constants at the start of window B
  std::vector<uint32_t> constB_;          // ... their storages
  std::optional<uint64_t> scratch_;
  uint64_t heapBase_ = 0;
  std::optional<Heap> heaps_[isa::kNumWindows];  // by window
  uint32_t srcbStart_ = isa::kNoWindowStart;
  uint32_t dstStart_ = isa::kNoWindowStart;

  std::vector<size_t> start_, end_;       // per storage; start_ == SIZE_MAX: unused
  std::vector<std::vector<uint32_t>> starting_, ending_;  // per position
  std::vector<size_t> pairStart_, pairEnd_;  // per pair (indexed by its first storage id)

  std::vector<uint32_t> reg_;             // per storage
  std::vector<uint64_t> region_;          // per storage (REGION)
  std::map<uint32_t, std::pair<uint64_t, uint64_t>> pairRegions_;  // pair -> (first, second)
  uint32_t freeRegs_ = 0;                 // bit r set: r is free
  std::vector<uint32_t> temps_;           // taken for the current instruction
  std::vector<std::pair<uint64_t, uint32_t>> tempOffsets_;

  std::vector<uint64_t> code_;
  std::vector<std::pair<size_t, uint32_t>> fixups_;
  std::vector<uint32_t> labelPc_;

 public:
  bool outOfRegisters_ = false;
};

uint32_t Emitter::placeInImage(const std::vector<uint8_t>& bytes, uint64_t align) {
  const uint64_t offset = alignUp(image_.size(), align);
  image_.resize(offset + bytes.size(), 0);
  if (!bytes.empty()) std::memcpy(image_.data() + offset, bytes.data(), bytes.size());
  return static_cast<uint32_t>(offset);
}

Status Emitter::layoutImage() {
  // Descriptors first: each is one 64-byte beat, identical ones shared.
  descriptor_.assign(fn_.code.size(), kNone);
  vectorEngine_.assign(fn_.code.size(), false);
  std::map<Descriptor, uint32_t> seen;
  bool needScratch = false;
  std::vector<uint8_t> wantConst(fn_.storages.size(), 0);
  for (size_t p = 0; p < fn_.code.size(); ++p) {
    const Inst& i = fn_.code[p];
    if (!isTensorInst(i) || fn_.values[i.dst].count == 0) continue;
    std::vector<const Dimensions*> sources;
    const uint32_t n = i.kind == Kind::MOVE ? 1 : isa::fnOperands(i.fn);
    for (uint32_t s = 0; s < n; ++s) {
      sources.push_back(&fn_.values[i.src[s]].dims);
      const ir::Storage& st = storageOf(i.src[s]);
      if (st.kind == StorageKind::REG || st.kind == StorageKind::ZERO) needScratch = true;
      if (st.kind == StorageKind::CONST) wantConst[storageIdOf(i.src[s])] = 1;
    }
    const bool fc = i.kind == Kind::OP && i.fn == isa::kFnFC;
    const auto desc = fc ? std::optional<Descriptor>(fcDescriptor(i)) : makeDescriptor(fn_.values[i.dst].dims, sources);
    if (!desc) {
      return failure(fmt::format("the tensor shape {} needs more than {} dimensions after merging",
                                 dimsString(fn_.values[i.dst].dims), isa::kMAX_RANK));
    }
    auto [it, inserted] = seen.emplace(*desc, 0);
    if (inserted) {
      std::vector<uint8_t> bytes(isa::kDESCRIPTOR_BYTES);
      std::memcpy(bytes.data(), desc->data(), bytes.size());
      it->second = placeInImage(bytes, kAlign);
    }
    descriptor_[p] = it->second;
    vectorEngine_[p] = !fc && hls::takesVectorEngine(tensorFn(i), tensorType(i), desc->data());
  }
  if (needScratch) scratch_ = placeInImage(std::vector<uint8_t>(kAlign, 0), kAlign);
  window_ = placeInWindows(fn_, vectorEngine_);
  constOffset_.assign(fn_.storages.size(), 0);
  for (size_t s = 0; s < fn_.storages.size(); ++s) {
    if (!wantConst[s]) continue;
    const ir::Storage& st = fn_.storages[s];
    // A constant only the vector engine reads as B goes to the start of
    // window B (layoutWindows), at an offset from there.
    if (window_[s] == isa::kWindowB) {
      constOffset_[s] = constBBytes_;
      constBBytes_ += alignUp(st.bytes, kAlign);
      constB_.push_back(static_cast<uint32_t>(s));
      continue;
    }
    constOffset_[s] = placeInImage(*st.value, st.bytes >= kAlign ? kAlign : 4);
  }
  heapBase_ = alignUp(image_.size(), kAlign);
  if (heapBase_ > kMaxDataBytes) return failure("the data image is too large");
  return Status::ok();
}

void Emitter::computeLiveness() {
  const size_t n = fn_.code.size();
  Intervals iv = liveIntervals(fn_);
  start_ = std::move(iv.start);
  end_ = std::move(iv.end);
  // A loop's two blocks live as long as either base register.
  pairStart_.assign(fn_.storages.size(), SIZE_MAX);
  pairEnd_.assign(fn_.storages.size(), 0);
  for (size_t s = 0; s < fn_.storages.size(); ++s) {
    const ir::Storage& st = fn_.storages[s];
    if (st.kind != StorageKind::REG || st.pair == kNone || start_[s] == SIZE_MAX) continue;
    pairStart_[st.pair] = std::min(pairStart_[st.pair], start_[s]);
    pairEnd_[st.pair] = std::max(pairEnd_[st.pair], end_[s]);
  }
  starting_.assign(n + 1, {});
  ending_.assign(n + 1, {});
  for (size_t s = 0; s < fn_.storages.size(); ++s) {
    if (start_[s] == SIZE_MAX) continue;
    starting_[start_[s]].push_back(static_cast<uint32_t>(s));
    ending_[end_[s]].push_back(static_cast<uint32_t>(s));
  }
}

std::optional<uint32_t> Emitter::takeTemp() {
  if (freeRegs_ == 0) return std::nullopt;
  const uint32_t r = static_cast<uint32_t>(__builtin_ctz(freeRegs_));
  freeRegs_ &= ~(1u << r);
  temps_.push_back(r);
  return r;
}

Status Emitter::allocateAt(size_t p) {
  for (uint32_t s : starting_[p]) {
    if (fn_.storages[s].kind != StorageKind::REG) continue;
    if (freeRegs_ == 0) return pressure(p);
    const uint32_t r = static_cast<uint32_t>(__builtin_ctz(freeRegs_));
    freeRegs_ &= ~(1u << r);
    reg_[s] = r;
  }
  return placeRegions(p);
}

// The regions born at p: a loop's pair of blocks when its first base
// register is (in window A), a heap tensor in its window's heap.
Status Emitter::placeRegions(size_t p) {
  Heap& heapA = *heaps_[isa::kWindowA];
  for (uint32_t s : starting_[p]) {
    const ir::Storage& st = fn_.storages[s];
    if (st.kind == StorageKind::REG && st.pair != kNone && pairStart_[st.pair] == p &&
        !pairRegions_.count(st.pair)) {
      const auto a = heapA.allocate(st.bytes);
      const auto b = heapA.allocate(st.bytes);
      if (!a || !b) return failure("the data region would exceed 4 GiB");
      pairRegions_[st.pair] = {*a, *b};
    } else if (st.kind == StorageKind::REGION) {
      const auto a = heaps_[window_[s]]->allocate(st.bytes);
      if (!a) return failure("the data region would exceed 4 GiB");
      region_[s] = *a;
    }
  }
  return Status::ok();
}

void Emitter::releaseRegions(size_t p) {
  for (uint32_t s : ending_[p]) {
    const ir::Storage& st = fn_.storages[s];
    if (st.kind == StorageKind::REG && st.pair != kNone && pairEnd_[st.pair] == p && pairRegions_.count(st.pair)) {
      const auto [a, b] = pairRegions_[st.pair];
      heaps_[isa::kWindowA]->release(a, st.bytes);
      heaps_[isa::kWindowA]->release(b, st.bytes);
      pairRegions_.erase(st.pair);
    } else if (st.kind == StorageKind::REGION && st.outputSlot < 0) {
      heaps_[window_[s]]->release(region_[s], st.bytes);
    }
  }
}

void Emitter::releaseAt(size_t p) {
  for (uint32_t s : ending_[p]) {
    if (fn_.storages[s].kind == StorageKind::REG) freeRegs_ |= 1u << reg_[s];
  }
  releaseRegions(p);
}

Status Emitter::layoutWindows() {
  // The sizes: the regions alone, each heap from its own 0 but A's (B's
  // after B's constants). A failure here (beyond 4 GiB) repeats in the real
  // pass and is reported there.
  heaps_[isa::kWindowA].emplace(heapBase_);
  heaps_[isa::kWindowB].emplace(constBBytes_);
  heaps_[isa::kWindowD].emplace(0);
  region_.assign(fn_.storages.size(), 0);
  pairRegions_.clear();
  for (size_t p = 0; p < fn_.code.size(); ++p) {
    if (!placeRegions(p)) break;
    releaseRegions(p);
  }
  const uint64_t aEnd = heaps_[isa::kWindowA]->end();  // 64-byte aligned, as every region size
  const uint64_t bBytes = heaps_[isa::kWindowB]->end();
  const uint64_t dBytes = heaps_[isa::kWindowD]->end();
  // [A][B][D]; an empty window's start is the registers' reset value.
  const uint64_t bStart = aEnd, dStart = aEnd + bBytes;
  if (bBytes != 0 && bStart <= kMaxDataBytes) srcbStart_ = static_cast<uint32_t>(bStart);
  if (dBytes != 0 && dStart <= kMaxDataBytes) dstStart_ = static_cast<uint32_t>(dStart);
  // Window B's constants into the image, which then reaches into B (the
  // bytes between, A's heap, are zeros as the rest of the region).
  if (constBBytes_ != 0) {
    if (bStart + constBBytes_ > kMaxDataBytes) return failure("the data region would exceed 4 GiB");
    image_.resize(bStart + constBBytes_, 0);
    for (const uint32_t s : constB_) {
      const std::vector<uint8_t>& bytes = *fn_.storages[s].value;
      constOffset_[s] += bStart;
      if (!bytes.empty()) std::memcpy(image_.data() + constOffset_[s], bytes.data(), bytes.size());
    }
  }
  heaps_[isa::kWindowA].emplace(heapBase_);
  heaps_[isa::kWindowB].emplace(bStart + constBBytes_);
  heaps_[isa::kWindowD].emplace(dStart);
  region_.assign(fn_.storages.size(), 0);
  pairRegions_.clear();
  return Status::ok();
}

uint32_t Emitter::regOf(uint32_t value) {
  const ir::Storage& st = storageOf(value);
  return st.kind == StorageKind::ZERO ? 0 : reg_[storageIdOf(value)];
}

std::optional<uint32_t> Emitter::liTemp(uint64_t offset) {
  for (const auto& [o, r] : tempOffsets_) {
    if (o == offset) return r;
  }
  const auto r = takeTemp();
  if (!r) return std::nullopt;
  put(insn::li(*r, static_cast<int32_t>(static_cast<uint32_t>(offset))));
  tempOffsets_.emplace_back(offset, *r);
  return r;
}

std::optional<uint32_t> Emitter::scalarInRegister(uint32_t value) {
  const ir::Storage& st = storageOf(value);
  if (st.kind != StorageKind::CONST) return regOf(value);
  uint32_t bits = 0;
  for (uint32_t b = 0; b < ir::elemBytes(fn_.values[value].elem); ++b) bits |= uint32_t{(*st.value)[b]} << (8 * b);
  if (bits == 0) return 0u;
  const auto r = takeTemp();
  if (r) put(insn::li(*r, static_cast<int32_t>(bits)));
  return r;
}

std::optional<uint32_t> Emitter::baseOf(uint32_t value, uint32_t slot) {
  const uint32_t id = storageIdOf(value);
  const ir::Storage& st = fn_.storages[id];
  switch (st.kind) {
    case StorageKind::BUFFER: {
      const uint32_t base = reg_[st.base];
      if (st.offset == 0) return base;
      // base + offset in a temporary; one per distinct buffer and instruction.
      const uint64_t key = (uint64_t{1} << 63) | id;
      for (const auto& [o, r] : tempOffsets_) {
        if (o == key) return r;
      }
      const auto r = takeTemp();
      if (!r) return std::nullopt;
      put(insn::li(*r, static_cast<int32_t>(static_cast<uint32_t>(st.offset))));
      put(insn::alu(isa::kFnADD, *r, base, *r));
      tempOffsets_.emplace_back(key, *r);
      return r;
    }
    case StorageKind::REGION:
      return liTemp(region_[id]);
    case StorageKind::CONST:
      return liTemp(constOffset_[id]);
    case StorageKind::REG:
    case StorageKind::ZERO: {
      // A one-element operand of a tensor instruction: through memory, read
      // with stride 0.
      const uint64_t home = *scratch_ + 4 * slot;
      const uint32_t r = regOf(value);
      put(fn_.values[value].elem == ir::Elem::INT32 ? insn::stw(r, 0, static_cast<uint32_t>(home))
                                                     : insn::stb(r, 0, static_cast<uint32_t>(home)));
      return liTemp(home);
    }
  }
  return std::nullopt;
}

Status Emitter::emitInst(size_t p) {
  const Inst& i = fn_.code[p];
  temps_.clear();
  tempOffsets_.clear();
  bool ok = true;
  auto need = [&](std::optional<uint32_t> r) {
    if (!r) ok = false;
    return r.value_or(0);
  };
  switch (i.kind) {
    case Kind::OP:
    case Kind::MOVE: {
      const ir::Value& dst = fn_.values[i.dst];
      const uint32_t fn = i.kind == Kind::MOVE ? isa::kFnMOV : i.fn;
      const uint32_t operands = isa::fnOperands(fn);
      if (dst.scalar()) {
        const uint32_t rd = regOf(i.dst);
        if (i.kind == Kind::MOVE) {
          const ir::Storage& src = storageOf(i.src[0]);
          if (src.kind == StorageKind::CONST) {
            uint32_t bits = 0;
            for (uint32_t b = 0; b < ir::elemBytes(dst.elem); ++b) bits |= uint32_t{(*src.value)[b]} << (8 * b);
            put(insn::li(rd, static_cast<int32_t>(bits)));
          } else if (src.kind == StorageKind::REGION || src.kind == StorageKind::BUFFER) {
            // A one-element result a FLOAT32 tensor instruction left in memory.
            const uint32_t base = need(baseOf(i.src[0], 0));
            if (ok) put(dst.elem == ir::Elem::BOOL8 ? insn::ldb(rd, base, 0) : insn::ldw(rd, base, 0));
          } else if (regOf(i.src[0]) != rd) {
            put(insn::alu(isa::kFnMOV, rd, regOf(i.src[0])));
          }
          break;
        }
        uint32_t r[3] = {0, 0, 0};
        for (uint32_t s = 0; s < operands; ++s) r[s] = need(scalarInRegister(i.src[s]));
        if (ok) put(insn::alu(fn, rd, r[0], r[1], r[2]));
        break;
      }
      if (dst.count == 0) break;  // nothing to compute
      if (i.kind == Kind::MOVE && storageIdOf(i.dst) == storageIdOf(i.src[0])) break;
      uint32_t r[3] = {0, 0, 0};
      for (uint32_t s = 0; s < operands && ok; ++s) r[s] = need(baseOf(i.src[s], s));
      const uint32_t rd = ok ? need(baseOf(i.dst, 3)) : 0;
      const uint32_t type = tensorType(i);
      // FLOAT32 ADD/SUB/MUL/DIV carry their fused activation in RC.
      if (type == isa::kTypeFLOAT32 && isa::fnFloatActivation(fn)) r[2] = i.act;
      if (ok) put(insn::tensor(fn, type, rd, r[0], r[1], r[2], descriptor_[p]));
      break;
    }
    case Kind::LOAD: {
      const uint32_t offset = static_cast<uint32_t>(region_[i.storage]);
      const uint32_t rd = regOf(i.dst);
      put(fn_.values[i.dst].elem == ir::Elem::INT32 ? insn::ldw(rd, 0, offset) : insn::ldb(rd, 0, offset));
      break;
    }
    case Kind::STORE: {
      const uint32_t offset = static_cast<uint32_t>(region_[i.storage]);
      const uint32_t rs = need(scalarInRegister(i.src[0]));
      if (ok) put(fn_.values[i.src[0]].elem == ir::Elem::INT32 ? insn::stw(rs, 0, offset) : insn::stb(rs, 0, offset));
      break;
    }
    case Kind::DEFINE_INPUT:
    case Kind::LOOP_BEGIN:
    case Kind::LOOP_END:
      break;
    case Kind::INIT_BUFFER: {
      const ir::Storage& st = fn_.storages[i.storage];
      const auto& regions = pairRegions_[st.pair];
      const uint64_t offset = st.firstOfPair ? regions.first : regions.second;
      put(insn::li(reg_[i.storage], static_cast<int32_t>(static_cast<uint32_t>(offset))));
      break;
    }
    case Kind::SWAP:
      put(insn::swap(reg_[i.storage], reg_[i.storage2]));
      break;
    case Kind::LABEL:
      labelPc_[i.label] = static_cast<uint32_t>(code_.size());
      break;
    case Kind::JUMP:
      branchTo(insn::jmp(0, i.backedge), i.label);
      break;
    case Kind::BRANCH: {
      const ir::Storage& st = storageOf(i.src[0]);
      if (st.kind == StorageKind::ZERO || st.kind == StorageKind::CONST) {
        const bool value = st.kind == StorageKind::CONST && (*st.value)[0] != 0;
        if (value == i.sense) branchTo(insn::jmp(0, i.backedge), i.label);
        break;
      }
      const uint32_t r = regOf(i.src[0]);
      branchTo(i.sense ? insn::bnz(r, 0, i.backedge) : insn::bz(r, 0, i.backedge), i.label);
      break;
    }
    case Kind::BRANCH_CMP: {
      const uint32_t a = need(scalarInRegister(i.src[0]));
      const uint32_t b = need(scalarInRegister(i.src[1]));
      if (ok) branchTo(insn::brcmp(i.fn, a, b, 0, i.backedge), i.label);
      break;
    }
    case Kind::WDARM:
      put(insn::wdarm());
      break;
    case Kind::WDOFF:
      put(insn::wdoff());
      break;
  }
  for (uint32_t r : temps_) freeRegs_ |= 1u << r;
  if (!ok) return pressure(p);
  if (code_.size() > isa::kMAX_PROGRAM_INSTRUCTIONS) {
    return failure(fmt::format("the program needs more than {} instructions (MAX_PROGRAM_INSTRUCTIONS)",
                               isa::kMAX_PROGRAM_INSTRUCTIONS));
  }
  return Status::ok();
}

Result<Program> Emitter::run() {
  if (Status s = layoutImage(); !s) return s;
  computeLiveness();
  if (Status s = layoutWindows(); !s) return s;
  reg_.assign(fn_.storages.size(), kNoReg);
  labelPc_.assign(fn_.labels, 0);
  freeRegs_ = ~1u;  // r1..r31; r0 is the constant 0
  for (size_t p = 0; p < fn_.code.size(); ++p) {
    if (Status s = allocateAt(p); !s) return s;
    if (Status s = emitInst(p); !s) return s;
    releaseAt(p);
  }
  put(insn::halt(0));
  if (code_.size() > isa::kMAX_PROGRAM_INSTRUCTIONS) {
    return failure(fmt::format("the program needs more than {} instructions (MAX_PROGRAM_INSTRUCTIONS)",
                               isa::kMAX_PROGRAM_INSTRUCTIONS));
  }
  for (const auto& [pc, label] : fixups_) {
    isa::Fields f = isa::decodeFields(code_[pc]);
    f.imm = labelPc_[label];
    code_[pc] = isa::encodeFields(f);
  }

  Program program;
  program.code = std::move(code_);
  program.dataImage = std::move(image_);
  // D's heap begins where B's ends, B's where A's does: its end is the region's.
  program.dataBytes = std::max<uint64_t>(heaps_[isa::kWindowD]->end(), program.dataImage.size());
  program.srcbStart = srcbStart_;
  program.dstStart = dstStart_;
  auto slot = [&](const ir::Function::Io& io) {
    IoSlot s;
    s.operand = io.operand;
    s.type = io.type;
    s.dimensions = io.dims;
    s.bytes = fn_.storages[io.slot].bytes;
    s.offset = s.bytes == 0 ? heapBase_ : region_[io.slot];
    return s;
  };
  for (const auto& io : fn_.inputs) program.inputs.push_back(slot(io));
  for (const auto& io : fn_.outputs) program.outputs.push_back(slot(io));
  return program;
}

}  // namespace

Result<Program> emitProgram(const ir::Function& fn, bool* outOfRegisters) {
  Emitter emitter(fn);
  auto program = emitter.run();
  if (outOfRegisters != nullptr) *outOfRegisters = emitter.outOfRegisters_;
  return program;
}

}  // namespace nnfab::compiler
