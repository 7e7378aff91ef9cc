// A sim device whose RTL breaks a rule in the middle of an execution (the
// planted stray write of tests/support/sim_stray_write.h): the execution
// fails with DEVICE_UNAVAILABLE and the assertion's place, the process goes
// on, and the device's later steps run on the CPU, as on a machine without
// the device.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "runtime/device.h"
#include "runtime/diff_models.h"
#include "support/model_builder.h"
#include "support/sim_alu_fault.h"
#include "support/sim_stray_write.h"

namespace nnfab {
namespace {

using ::testing::HasSubstr;
using testing::int32s;

TEST(SimDeviceFailure, TheExecutionFailsWithTheAssertionAndLaterOnesRunOnTheCpu) {
  auto tap = std::make_shared<test::SimStrayWrite>(/*after=*/4);
  const std::unique_ptr<Device> sim = test::makeTappedSimDevice(tap);
  auto prepared = sim->prepare(testing::countdownAccumulate(), {});
  ASSERT_TRUE(prepared.isOk()) << prepared.status().message();
  const std::vector<TensorValue> inputs = {int32s({1}, {50}), int32s({4}, {0, 0, 0, 0}), int32s({4}, {1, 2, 3, 4})};

  const ExecutionResult failed = prepared.value()->execute(inputs, {});
  EXPECT_TRUE(tap->fired());
  EXPECT_EQ(failed.status.code(), ErrorStatus::DEVICE_UNAVAILABLE) << failed.status.message();
  EXPECT_THAT(failed.status.message(), HasSubstr("RTL assertion failed at cycle"));
  EXPECT_THAT(failed.status.message(), HasSubstr("nnfab_data_port.sv"));
  EXPECT_TRUE(failed.outputs.empty());

  const ExecutionResult again = prepared.value()->execute(inputs, {});
  ASSERT_TRUE(again.status.isOk()) << again.status.message();
  ASSERT_EQ(again.outputs.size(), 2u);
  EXPECT_EQ(testing::values<int32_t>(again.outputs[1]), (std::vector<int32_t>{50, 100, 150, 200}));
}

}  // namespace
}  // namespace nnfab
