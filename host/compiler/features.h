// What a fabric device executes beyond the base ISA: its FEATURES register
// (docs/register-map.md). The support rules and the lowering consult it, so a
// device without FLOAT32 units keeps FLOAT32 operations on the CPU.
#pragma once

#include <cstdint>

#include "nnfab_isa.h"

namespace nnfab::compiler {

struct FabricFeatures {
  bool float32 = false;  // FEATURES.FEATURE_FLOAT32: TYPE FLOAT32 elementwise and CVT execute
  bool fc = false;       // FEATURES.FEATURE_FC (with FLOAT32): FC executes

  static FabricFeatures fromRegister(uint32_t features) {
    FabricFeatures f;
    f.float32 = (features & isa::kFEATURE_FLOAT32) != 0;
    f.fc = f.float32 && (features & isa::kFEATURE_FC) != 0;
    return f;
  }
  // The whole ISA (what the compiler and the disassembler take).
  static FabricFeatures all() { return fromRegister(isa::kFEATURE_FLOAT32 | isa::kFEATURE_FC); }
};

}  // namespace nnfab::compiler
