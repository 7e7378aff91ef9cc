#include "fabric/core_status.h"

#include <fmt/format.h>

#include "nnfab_isa_names.h"

namespace nnfab::fabric {

ErrorStatus nnapiStatusOf(uint32_t coreStatus) {
  const char* name = isa::statusNnapiName(coreStatus);
  if (name == nullptr) return ErrorStatus::GENERAL_FAILURE;
  return errorStatusFromString(name).value_or(ErrorStatus::GENERAL_FAILURE);
}

std::string coreStatusName(uint32_t coreStatus) {
  const char* name = isa::statusName(coreStatus);
  return name != nullptr ? std::string(name) : fmt::format("status {}", coreStatus);
}

}  // namespace nnfab::fabric
