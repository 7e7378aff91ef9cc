#include "cli/device_option.h"

#include <fmt/format.h>

namespace nnfab::cli {

const Device* resolveDevice(const std::string& name, const Device& fallback, std::string* error) {
  if (name.empty()) return &fallback;
  if (const Device* device = findDevice(name)) return device;
  std::string names;
  for (const Device* d : allDevices()) names += (names.empty() ? "" : ", ") + std::string(d->name());
  *error = fmt::format("unknown device '{}' (this build has: {})", name, names);
  return nullptr;
}

}  // namespace nnfab::cli
