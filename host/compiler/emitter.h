// From the intermediate form to machine code: the data image (descriptors,
// constants, a scratch area), liveness with loop extension, linear-scan
// assignment of registers and first-fit heap regions, and encoding.
#pragma once

#include "compiler/compiler.h"
#include "compiler/ir.h"
#include "model/status.h"

namespace nnfab::compiler {

// *outOfRegisters (may be null) tells whether the failure was register
// pressure, which a build with fewer values held in registers may avoid.
Result<Program> emitProgram(const ir::Function& fn, bool* outOfRegisters = nullptr);

}  // namespace nnfab::compiler
