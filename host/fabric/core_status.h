// What a core stop status (isa::kStatus*, register STATUS) means for NNAPI:
// the mapping is isa.json's "nnapi" column, read through the generated name
// tables, so there is no second table to keep in sync.
#pragma once

#include <cstdint>
#include <string>

#include "model/types.h"

namespace nnfab::fabric {

// GENERAL_FAILURE for a code the ISA does not define.
ErrorStatus nnapiStatusOf(uint32_t coreStatus);

// "ACCESS_FAULT", or "status 42" for an unknown code.
std::string coreStatusName(uint32_t coreStatus);

}  // namespace nnfab::fabric
