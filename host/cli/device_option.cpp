#include "cli/device_option.h"

#include <fmt/format.h>

#include <optional>

#ifdef NNFAB_HAS_XRT_DEVICE
#include "runtime/xrt_device.h"
#endif

namespace nnfab::cli {
namespace {

#ifdef NNFAB_HAS_XRT_DEVICE
// Opens an XRT device by name; nullopt when `name` is not one.
std::optional<Result<const Device*>> openXrt(const std::string& name) {
  unsigned index = 0;
  if (parseXrtDeviceName(name, &index)) return openXrtDevice(index);
#ifdef NNFAB_HAS_XRT_EMU_DEVICE
  if (name == "xrt-emu") {
    if (Status s = openXrtEmu(); !s) return Result<const Device*>(std::move(s));
    return Result<const Device*>(&xrtEmuDevice());
  }
#endif
  return std::nullopt;
}
#endif

}  // namespace

const Device* resolveDevice(const std::string& name, const Device& fallback, std::string* error,
                            Status* unavailable) {
  if (name.empty()) return &fallback;
#ifdef NNFAB_HAS_XRT_DEVICE
  if (auto opened = openXrt(name)) {
    if (opened->isOk()) return opened->value();
    const Status& s = opened->status();
    if (unavailable && s.code() != ErrorStatus::INVALID_ARGUMENT) {
      *unavailable = s;
    } else {
      *error = fmt::format("--device {}: {}", name, s.message());
    }
    return nullptr;
  }
#endif
  if (const Device* device = findDevice(name)) return device;
  std::string names;
  for (const Device* d : allDevices()) names += (names.empty() ? "" : ", ") + std::string(d->name());
#ifdef NNFAB_HAS_XRT_EMU_DEVICE
  names += ", xrt-emu";
#endif
#ifdef NNFAB_HAS_XRT_DEVICE
  names += ", xrt:N (with --xclbin)";
#endif
  *error = fmt::format("unknown device '{}' (this build has: {})", name, names);
  return nullptr;
}

}  // namespace nnfab::cli
