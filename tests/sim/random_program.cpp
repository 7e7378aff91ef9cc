#include "sim/random_program.h"

#include <algorithm>
#include <array>

namespace nnfab::fabric::test {

namespace {

// Data region layout: descriptors, operand slots, the register dump.
constexpr uint32_t kDescriptors = 16;
constexpr uint32_t kSlotBase = kDescriptors * isa::kDESCRIPTOR_BYTES;
constexpr uint32_t kSlotBytes = 768;
constexpr uint32_t kSlots = 8;
constexpr uint32_t kDumpBase = kSlotBase + kSlots * kSlotBytes;
constexpr uint32_t kDataBytes = kDumpBase + isa::kNUM_SCALAR_REGS * 4;
// Registers: r1..r19 random values; r20..r23 tensor offsets; r27 = 1,
// r28/r29 the loop counter and bound.
constexpr uint32_t kValueRegs = 19;
constexpr uint32_t kOffsetReg = 20;
constexpr uint32_t kOne = 27, kCounter = 28, kBound = 29;

constexpr int32_t kEdges[] = {0, 1, -1, 2, -2, 7, -7, INT32_MIN, INT32_MAX, INT32_MIN + 1, 255, 256, 65536};

struct Gen {
  std::mt19937& rng;
  const RandomProgramOptions& opt;
  RandomProgram p;
  uint32_t nextDescriptor = 0;

  uint32_t uniform(uint32_t lo, uint32_t hi) { return std::uniform_int_distribution<uint32_t>(lo, hi)(rng); }
  bool chance(double x) { return std::bernoulli_distribution(x)(rng); }
  uint32_t valueReg() { return uniform(1, kValueRegs); }
  uint32_t anyReg() { return uniform(0, 31); }
  int32_t value() {
    if (chance(0.5)) return kEdges[uniform(0, std::size(kEdges) - 1)];
    return static_cast<int32_t>(rng());
  }

  void scalar() {
    switch (uniform(0, 9)) {
      case 0: p.a.emit(insn::li(valueReg(), value())); break;
      case 1: p.a.emit(insn::swap(valueReg(), valueReg())); break;
      case 2: p.a.emit(chance(0.5) ? insn::wdarm() : insn::wdoff()); break;
      case 3: {  // load
        if (!opt.loads) {
          p.a.emit(insn::nop());
          break;
        }
        const bool word = chance(0.5);
        uint32_t off = uniform(0, kDataBytes - 4) & (word ? ~3u : ~0u);
        if (opt.faults && chance(0.05)) off = chance(0.5) ? kDataBytes - (word ? 2 : 0) : off | (word ? 1 : 0);
        p.a.emit(word ? insn::ldw(valueReg(), 0, off) : insn::ldb(valueReg(), 0, off));
        break;
      }
      case 4: {  // store, away from the descriptors so that tensors stay mostly valid
        const bool word = chance(0.5);
        uint32_t off = uniform(kSlotBase, kDumpBase - 4) & (word ? ~3u : ~0u);
        if (opt.faults && chance(0.05)) off = kDataBytes + uniform(0, 8);
        p.a.emit(word ? insn::stw(anyReg(), 0, off) : insn::stb(anyReg(), 0, off));
        break;
      }
      default: {
        uint32_t fn = uniform(0, isa::kNumAluFns - 1);
        while (isa::fnTensorOnly(fn)) fn = uniform(0, isa::kNumAluFns - 1);  // CVT, FC: no SALU form
        const uint32_t ops = isa::fnOperands(fn);
        p.a.emit(insn::alu(fn, valueReg(), anyReg(), ops >= 2 ? anyReg() : 0, ops >= 3 ? anyReg() : 0));
      }
    }
  }

  // A compare-and-branch (or BZ/BNZ/JMP) over the next few instructions.
  void forwardBranch() {
    const uint32_t skip = uniform(1, 3);
    const uint32_t at = p.a.emit(0);
    for (uint32_t i = 0; i < skip; ++i) scalar();
    const uint32_t target = p.a.here();
    switch (uniform(0, 3)) {
      case 0: p.a.code[at] = insn::bnz(valueReg(), target); break;
      case 1: p.a.code[at] = insn::bz(valueReg(), target); break;
      case 2: p.a.code[at] = insn::jmp(target); break;
      default: p.a.code[at] = insn::brcmp(uniform(isa::kFnEQ, isa::kFnGE), anyReg(), anyReg(), target);
    }
  }

  // for (r28 = 0; r28 < n; ++r28) { a few scalar instructions }
  void loop() {
    p.a.emit(insn::li(kCounter, 0));
    p.a.emit(insn::li(kBound, static_cast<int32_t>(uniform(1, 6))));
    const uint32_t top = p.a.here();
    const uint32_t body = uniform(1, 4);
    for (uint32_t i = 0; i < body; ++i) scalar();
    p.a.emit(insn::alu(isa::kFnADD, kCounter, kCounter, kOne));
    p.a.emit(insn::brcmp(isa::kFnLT, kCounter, kBound, top, /*backedge=*/true));
  }

  void tensor() {
    // The base ISA (FLOAT32, CVT and FC are compared in test_sim_float.cpp,
    // where NaN payloads may differ).
    uint32_t fn = uniform(0, isa::kNumAluFns - 1);
    while (isa::fnTensorOnly(fn)) fn = uniform(0, isa::kNumAluFns - 1);
    const uint32_t mask = isa::fnTypeMask(fn);
    uint32_t type = (mask & 1u) && ((mask & 2u) == 0 || chance(0.5)) ? isa::kTypeINT32 : isa::kTypeBOOL8;
    const uint32_t ops = isa::fnOperands(fn);
    const uint32_t rb = isa::fnResultIsBool(fn) ? 1 : isa::typeBytes(type);
    std::array<uint32_t, 4> dim{1, 1, 1, 1};
    uint64_t elements = 1;
    for (int k = 3; k >= 0; --k) {
      dim[k] = uniform(1, k == 3 ? 20 : 4);
      if (elements * dim[k] > opt.maxElements) dim[k] = 1;
      elements *= dim[k];
    }
    if (chance(0.03)) dim[uniform(0, 3)] = 0;
    std::array<std::array<uint32_t, 4>, 3> stride{};
    std::array<uint32_t, 3> slot{};
    std::array<uint32_t, 3> base{};
    const uint32_t dstSlot = uniform(0, kSlots - 1);
    for (uint32_t s = 0; s < ops; ++s) {
      const uint32_t bytes = (fn == isa::kFnSEL && s == 0) ? 1 : isa::typeBytes(type);
      // contiguous, broadcast along some dimensions, or small arbitrary strides
      const uint32_t kind = uniform(0, 2);
      uint32_t contiguous = 1;
      for (int k = 3; k >= 0; --k) {
        if (kind == 0) stride[s][k] = contiguous;
        else if (kind == 1) stride[s][k] = chance(0.5) ? 0 : contiguous;
        else stride[s][k] = uniform(0, 3);
        contiguous *= std::max(dim[k], 1u);
      }
      uint64_t extent = 1;
      for (int k = 0; k < 4; ++k) extent += uint64_t{dim[k] ? dim[k] - 1 : 0} * stride[s][k];
      do {
        slot[s] = uniform(0, kSlots - 1);
      } while (slot[s] == dstSlot);
      const uint32_t room = kSlotBytes - static_cast<uint32_t>(extent * bytes);
      base[s] = kSlotBase + slot[s] * kSlotBytes + (uniform(0, std::min(room, 64u)) / bytes) * bytes;
    }
    const uint32_t dstRoom = kSlotBytes - static_cast<uint32_t>(elements * rb);
    uint32_t dst = kSlotBase + dstSlot * kSlotBytes + (uniform(0, std::min(dstRoom, 64u)) / rb) * rb;
    // In place: the destination is source A itself (same region and strides).
    const bool aContiguous = stride[0][3] == 1 && stride[0][2] == dim[3] && stride[0][1] == dim[3] * dim[2] &&
                             stride[0][0] == dim[3] * dim[2] * dim[1];
    bool othersApart = true;  // no other source in A's slot, which becomes the destination
    for (uint32_t s = 1; s < ops; ++s) othersApart = othersApart && slot[s] != slot[0];
    if (aContiguous && othersApart && rb == ((fn == isa::kFnSEL) ? 1u : isa::typeBytes(type)) && chance(0.3)) {
      dst = base[0];
    }

    uint32_t descriptor = (nextDescriptor++ % kDescriptors) * isa::kDESCRIPTOR_BYTES;
    std::array<uint32_t, 16> words{};
    for (int k = 0; k < 4; ++k) {
      words[k] = dim[k];
      for (int s = 0; s < 3; ++s) words[4 + 4 * s + k] = stride[s][k];
    }
    put(p.image, descriptor, std::vector<uint32_t>(words.begin(), words.end()));
    if (opt.faults && chance(0.08)) {
      switch (uniform(0, 3)) {
        case 0: descriptor += chance(0.5) ? 4 : kDataBytes; break;
        case 1: dst = kDataBytes - static_cast<uint32_t>(elements * rb) + rb; break;
        case 2: dst += rb == 4 ? 2 : 0; break;
        default: base[0] = kDataBytes - 1 + uniform(0, 2); break;
      }
    }
    p.a.emit(insn::li(kOffsetReg, static_cast<int32_t>(dst)));
    for (uint32_t s = 0; s < 3; ++s) p.a.emit(insn::li(kOffsetReg + 1 + s, static_cast<int32_t>(base[s])));
    p.a.emit(insn::tensor(fn, type, kOffsetReg, kOffsetReg + 1, ops >= 2 ? kOffsetReg + 2 : 0,
                          ops >= 3 ? kOffsetReg + 3 : 0, descriptor));
  }

  void fault() {
    switch (uniform(0, 3)) {
      case 0: {  // most random words are illegal
        // Not a FLOAT32/CVT/FC tensor word: both cores execute those, but
        // NaN payloads may rightly differ (test_sim_float.cpp compares them).
        uint64_t word = 0;
        for (;;) {
          word = (uint64_t{rng()} << 32) | rng();
          const isa::Fields f = isa::decodeFields(word);
          const bool tensor = (f.opcode & isa::kClassMask) == isa::kClassTENSOR;
          if (!tensor || (f.type != isa::kTypeFLOAT32 && !isa::fnTensorOnly(f.opcode & isa::kFnMask))) break;
        }
        p.a.emit(word);
        break;
      }
      case 1: p.a.emit(insn::halt(uniform(1, 1000))); break;
      case 2: p.a.emit(insn::jmp(1u << 20)); break;  // pc leaves the program
      default: p.a.emit(insn::stw(1, valueReg(), 0)); break;  // a random base: mostly out of range
    }
  }
};

}  // namespace

RandomProgram randomProgram(std::mt19937& rng, const RandomProgramOptions& options) {
  Gen g{rng, options, {}};
  g.p.dataBytes = kDataBytes;
  g.p.image.resize(kDataBytes);
  for (auto& b : g.p.image) b = static_cast<uint8_t>(g.uniform(0, 3) == 0 ? g.uniform(0, 255) : g.uniform(0, 1));
  for (uint32_t r = 1; r <= kValueRegs; ++r) g.p.a.emit(insn::li(r, g.value()));
  g.p.a.emit(insn::li(kOne, 1));
  for (uint32_t b = 0; b < options.blocks; ++b) {
    const uint32_t kind = g.uniform(0, 9);
    if (options.faults && g.chance(0.03)) g.fault();
    if (kind < 4) {
      for (uint32_t i = g.uniform(1, 5); i > 0; --i) g.scalar();
    } else if (kind < 6) {
      g.forwardBranch();
    } else if (kind < 7) {
      g.loop();
    } else if (options.tensors) {
      g.tensor();
    }
  }
  g.p.a.dumpRegistersAndHalt(kDumpBase - 4);  // r1 at kDumpBase
  return g.p;
}

}  // namespace nnfab::fabric::test
