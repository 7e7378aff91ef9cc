#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <memory>

#include "cli/commands.h"
#include "runtime/device.h"
#ifdef NNFAB_HAS_XRT_DEVICE
#include "runtime/xrt_device.h"
#endif

namespace nnfab::cli {
namespace {

nlohmann::ordered_json toJson(const PerformanceInfo& p) {
  return {{"execTime", p.execTime}, {"powerUsage", p.powerUsage}};
}

// The devices of this build, then the XRT ones opened on demand: the
// emulation, and one row per card XRT sees (none without cards).
struct Row {
  std::string name;
  std::string description;
  const Device* device = nullptr;  // capabilities; nullptr for a card (opened only with its xclbin)
};

std::vector<Row> rows() {
  std::vector<Row> out;
  for (const Device* d : allDevices()) out.push_back({std::string(d->name()), std::string(d->description()), d});
#ifdef NNFAB_HAS_XRT_EMU_DEVICE
  const Device& emu = xrtEmuDevice();
  out.push_back({std::string(emu.name()), std::string(emu.description()), &emu});
#endif
#ifdef NNFAB_HAS_XRT_DEVICE
  for (const auto& card : xrtCardRows()) out.push_back({card.name, card.description, nullptr});
#endif
  return out;
}

int listDevices(bool json) {
  if (json) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const Row& row : rows()) {
      if (!row.device) {
        out.push_back({{"name", row.name}, {"description", row.description}, {"default", false}});
        continue;
      }
      const Device* device = row.device;
      const DeviceCapabilities caps = device->capabilities();
      out.push_back({{"name", device->name()},
                     {"description", device->description()},
                     {"default", device == &defaultDevice()},
                     {"capabilities",
                      {{"tensorPerformance", toJson(caps.tensorPerformance)},
                       {"ifPerformance", toJson(caps.ifPerformance)},
                       {"whilePerformance", toJson(caps.whilePerformance)},
                       {"scalarWhilePerformance", toJson(caps.scalarWhilePerformance)}}}});
    }
    fmt::print("{}\n", out.dump(2));
    return kExitOk;
  }
  fmt::print("{:<8} {:<8} {:>10} {:>8} {:>8} {:>8}  {}\n", "NAME", "DEFAULT", "TENSOR", "IF", "WHILE", "SCALAR",
             "DESCRIPTION");
  for (const Row& row : rows()) {
    if (!row.device) {
      fmt::print("{:<8} {:<8} {:>10} {:>8} {:>8} {:>8}  {}\n", row.name, "", "-", "-", "-", "-", row.description);
      continue;
    }
    const Device* device = row.device;
    const DeviceCapabilities caps = device->capabilities();
    fmt::print("{:<8} {:<8} {:>10.3g} {:>8.3g} {:>8.3g} {:>8.3g}  {}\n", device->name(),
               device == &defaultDevice() ? "yes" : "", caps.tensorPerformance.execTime,
               caps.ifPerformance.execTime, caps.whilePerformance.execTime, caps.scalarWhilePerformance.execTime,
               device->description());
  }
  fmt::print("(performance: execution time relative to the CPU reference, lower is better; SCALAR: a WHILE over "
             "one-element values, which the CPU runs as register code)\n");
  return kExitOk;
}

}  // namespace

std::function<int()> addDevicesCommand(CLI::App& app) {
  auto json = std::make_shared<bool>(false);
  CLI::App* cmd = app.add_subcommand("devices", "List the devices this build has and their capabilities");
  cmd->add_flag("--json", *json, "Print JSON instead of a table");
  return [json] { return listDevices(*json); };
}

}  // namespace nnfab::cli
