// The concurrent load test: several clients, mixed priorities, every result
// against the cpu device, none lost, none completed twice. NNFAB_QOS_LOAD_COUNT
// sets the count on hls (400 in the regular suite; 10000 for the long run,
// docs/testing.md); every other fabric device (sim, when built) gets a tenth.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "api/execution.h"
#include "qos/load.h"

namespace nnfab::qos {
namespace {

uint64_t loadCount() {
  const char* env = std::getenv("NNFAB_QOS_LOAD_COUNT");
  return env ? std::strtoull(env, nullptr, 10) : 400;
}

void expectClean(const LoadReport& r, const std::string& device) {
  EXPECT_EQ(r.completed, r.submitted) << device;
  EXPECT_EQ(r.lost, 0u) << device;
  EXPECT_EQ(r.completedTwice, 0u) << device;
  EXPECT_EQ(r.ok, r.submitted) << device;
  EXPECT_EQ(r.mismatches, 0u) << device << ": " << r.firstMismatch;
  EXPECT_EQ(api::Execution::duplicateCompletions(), 0u);
  std::printf("%s: %llu executions in %.2f s\n", device.c_str(), static_cast<unsigned long long>(r.submitted),
              r.seconds);
}

TEST(QosLoad, ManyClientsAtMixedPrioritiesOnHls) {
  const Device* hls = findDevice("hls");
  ASSERT_NE(hls, nullptr);
  LoadOptions options;
  options.executions = loadCount();
  expectClean(runLoad(*hls, options), "hls");
}

TEST(QosLoad, AShorterRunOnEveryOtherFabricDevice) {
  for (const Device* device : allDevices()) {
    if (device->name() == "hls" || device->name() == "cpu") continue;
    LoadOptions options;
    options.executions = std::max<uint64_t>(loadCount() / 10, 40);
    expectClean(runLoad(*device, options), std::string(device->name()));
  }
}

TEST(QosLoad, TheCpuDeviceToo) {
  LoadOptions options;
  options.executions = 200;
  expectClean(runLoad(*findDevice("cpu"), options), "cpu");
}

}  // namespace
}  // namespace nnfab::qos
