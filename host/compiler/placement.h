// Which window of the data region each tensor lives in (docs/isa.md
// "Memory model", docs/compiler.md "Data windows"). The core reads the
// vector engine's B operand through m_axi_srcb and writes its result
// through m_axi_dst; on a card each window is a buffer in its port's bank,
// so the compiler puts those tensors in windows B and D where nothing
// forbids it. Scalar loads and stores and TENSOR descriptors reach window A
// only. Every port reaches every window, so placement never changes results.
#pragma once

#include <cstdint>
#include <vector>

#include "compiler/ir.h"

namespace nnfab::compiler {

// Per storage: isa::kWindowA, kWindowB or kWindowD. Only heap tensors
// (REGION) and constants (CONST) leave window A: a REGION that LOAD, STORE
// or a one-element MOVE (LDW/LDB) touches stays in A; one written only as
// the vector engine's result goes to D; a REGION or constant only read, and
// only as the vector engine's B operand, goes to B; every other one, every
// loop block (BUFFER) and the scratch area stay in A. `vectorEngine[p]`: instruction p of
// fn.code is a TENSOR instruction the vector engine takes
// (hls::takesVectorEngine on its descriptor).
std::vector<uint8_t> placeInWindows(const ir::Function& fn, const std::vector<bool>& vectorEngine);

}  // namespace nnfab::compiler
