// Builders for nnfab instructions: the only place that packs fields, on top
// of the generated encodeFields(). Used by the compiler and by tests that
// hand-assemble programs.
#pragma once

#include <cstdint>

#include "nnfab_isa.h"

namespace nnfab::fabric::insn {

namespace detail {
constexpr uint64_t make(uint32_t opcode, uint32_t rd, uint32_t ra, uint32_t rb, uint32_t rc,
                        uint32_t type, bool backedge, uint32_t imm) {
  return isa::encodeFields(isa::Fields{opcode, rd, ra, rb, rc, type, backedge ? 1u : 0u, 0u, imm});
}
}  // namespace detail

constexpr uint64_t nop() { return detail::make(isa::kOpNOP, 0, 0, 0, 0, 0, false, 0); }
constexpr uint64_t halt(uint32_t code = 0) { return detail::make(isa::kOpHALT, 0, 0, 0, 0, 0, false, code); }
constexpr uint64_t jmp(uint32_t target, bool backedge = false) {
  return detail::make(isa::kOpJMP, 0, 0, 0, 0, 0, backedge, target);
}
constexpr uint64_t bnz(uint32_t ra, uint32_t target, bool backedge = false) {
  return detail::make(isa::kOpBNZ, 0, ra, 0, 0, 0, backedge, target);
}
constexpr uint64_t bz(uint32_t ra, uint32_t target, bool backedge = false) {
  return detail::make(isa::kOpBZ, 0, ra, 0, 0, 0, backedge, target);
}
constexpr uint64_t li(uint32_t rd, int32_t value) {
  return detail::make(isa::kOpLI, rd, 0, 0, 0, 0, false, static_cast<uint32_t>(value));
}
constexpr uint64_t ldw(uint32_t rd, uint32_t ra, uint32_t offset) {
  return detail::make(isa::kOpLDW, rd, ra, 0, 0, 0, false, offset);
}
constexpr uint64_t stw(uint32_t rb, uint32_t ra, uint32_t offset) {
  return detail::make(isa::kOpSTW, 0, ra, rb, 0, 0, false, offset);
}
constexpr uint64_t ldb(uint32_t rd, uint32_t ra, uint32_t offset) {
  return detail::make(isa::kOpLDB, rd, ra, 0, 0, 0, false, offset);
}
constexpr uint64_t stb(uint32_t rb, uint32_t ra, uint32_t offset) {
  return detail::make(isa::kOpSTB, 0, ra, rb, 0, 0, false, offset);
}
constexpr uint64_t swap(uint32_t rd, uint32_t ra) { return detail::make(isa::kOpSWAP, rd, ra, 0, 0, 0, false, 0); }
constexpr uint64_t wdarm() { return detail::make(isa::kOpWDARM, 0, 0, 0, 0, 0, false, 0); }
constexpr uint64_t wdoff() { return detail::make(isa::kOpWDOFF, 0, 0, 0, 0, 0, false, 0); }

// rd = fn(ra, rb, rc)
constexpr uint64_t alu(uint32_t fn, uint32_t rd, uint32_t ra, uint32_t rb = 0, uint32_t rc = 0) {
  return detail::make(isa::kClassSALU | fn, rd, ra, rb, rc, 0, false, 0);
}
// if fn(ra, rb) then pc = target; fn must be a comparison.
constexpr uint64_t brcmp(uint32_t fn, uint32_t ra, uint32_t rb, uint32_t target, bool backedge = false) {
  return detail::make(isa::kClassBRCMP | fn, 0, ra, rb, 0, 0, backedge, target);
}
// Elementwise fn over the regions whose byte offsets rd/ra/rb/rc hold, shaped
// by the descriptor at data offset `descriptor`.
constexpr uint64_t tensor(uint32_t fn, uint32_t type, uint32_t rd, uint32_t ra, uint32_t rb, uint32_t rc,
                          uint32_t descriptor) {
  return detail::make(isa::kClassTENSOR | fn, rd, ra, rb, rc, type, false, descriptor);
}

}  // namespace nnfab::fabric::insn
