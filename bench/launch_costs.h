// What one host launch of an Alveo kernel costs, as measured by others
// (docs/bench.md "Launch costs: where the figures come from"): the price a
// loop would pay per iteration if the host launched the body once per
// iteration, as NNAPI's control-flow interpreter does.
#pragma once

namespace nnfab::bench {

struct LaunchCost {
  const char* name;  // in metric ids
  double microseconds;
  const char* source;
};

// Pipelined commands, U250 gen3x16_xdma_4_1: 1,000,000 commands at 359,184
// IOPS, i.e. 2.8 µs per command (Vitis_Accel_Examples
// performance/iops_test_xrt/README.rst). The best case.
inline constexpr LaunchCost kLaunchPipelined{"pipelined", 2.8,
                                             "U250, 1,000,000 pipelined commands at 359,184 IOPS "
                                             "(Vitis_Accel_Examples performance/iops_test_xrt)"};
// Single launches on a U55C, Vitis 2022.1: "very large (50us~100us)"
// (Xilinx/XRT#8687). The lower end of that range.
inline constexpr LaunchCost kLaunchSingle{"single", 50.0,
                                          "U55C, Vitis 2022.1, kernel launch latency \"50us~100us\" "
                                          "(Xilinx/XRT#8687)"};

}  // namespace nnfab::bench
