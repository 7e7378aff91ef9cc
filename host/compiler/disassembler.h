// A readable listing of a compiled program: a header with the data layout
// and the step's IoSlots, then one line per instruction in docs/isa.md
// syntax, with branch targets as labels, BACKEDGE as "!", and each tensor
// instruction's descriptor decoded from the data image.
#pragma once

#include <cstdint>
#include <string>

#include "compiler/compiler.h"

namespace nnfab::compiler {

std::string disassemble(const Program& program);

// One instruction without labels or descriptor (targets as numbers), e.g.
// "add r1, r1, r2" or "blt r1, r2, 3 !"; ".word 0x..." when it is not a
// valid instruction.
std::string disassembleInstruction(uint64_t word);

}  // namespace nnfab::compiler
