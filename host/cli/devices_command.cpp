#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <memory>

#include "cli/commands.h"
#include "runtime/device.h"

namespace nnfab::cli {
namespace {

nlohmann::ordered_json toJson(const PerformanceInfo& p) {
  return {{"execTime", p.execTime}, {"powerUsage", p.powerUsage}};
}

int listDevices(bool json) {
  if (json) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const Device* device : allDevices()) {
      const DeviceCapabilities caps = device->capabilities();
      out.push_back({{"name", device->name()},
                     {"description", device->description()},
                     {"default", device == &defaultDevice()},
                     {"capabilities",
                      {{"tensorPerformance", toJson(caps.tensorPerformance)},
                       {"ifPerformance", toJson(caps.ifPerformance)},
                       {"whilePerformance", toJson(caps.whilePerformance)}}}});
    }
    fmt::print("{}\n", out.dump(2));
    return kExitOk;
  }
  fmt::print("{:<8} {:<8} {:>10} {:>8} {:>8}  {}\n", "NAME", "DEFAULT", "TENSOR", "IF", "WHILE",
             "DESCRIPTION");
  for (const Device* device : allDevices()) {
    const DeviceCapabilities caps = device->capabilities();
    fmt::print("{:<8} {:<8} {:>10.3g} {:>8.3g} {:>8.3g}  {}\n", device->name(),
               device == &defaultDevice() ? "yes" : "", caps.tensorPerformance.execTime,
               caps.ifPerformance.execTime, caps.whilePerformance.execTime, device->description());
  }
  fmt::print("(performance: execution time relative to the CPU reference, lower is better)\n");
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
