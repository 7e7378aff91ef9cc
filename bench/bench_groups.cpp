#include "bench_groups.h"

namespace nnfab::bench {

Sizes Sizes::quick() {
  Sizes s;
  s.loopN2 = 10000;
  s.ifN1 = 100;
  s.ifN2 = 1000;
  s.addElements = 1u << 16;
  s.watchdogBudget = 2000;
  s.hostExecutions = 200;
  s.cosimN = 1000;
  s.fcSize = 64;
  s.fibN = 100;
  s.rnnSteps = 100;
  s.cpuLoopN2 = 10000;
  s.profileRuns = 11;
  return s;
}

const std::vector<Group>& benchGroups() {
  static const std::vector<Group> groups = {
      {"loops", "cycles per WHILE iteration of the counter and accumulator loops, projected at 300 MHz", true,
       runLoopsGroup},
      {"if", "cycles from a ready IF condition to the branch (IF overhead inside a loop)", true, runIfGroup},
      {"tensor", "elementwise INT32 ADD: elements per cycle against the memory-port bound", true, runTensorGroup},
      {"elem", "the element engine (broadcast INT32 and FLOAT32 ADD, contiguous FLOAT32 ADD): elements per cycle "
               "against the memory-port bound", true, runElemGroup},
      {"fc", "FULLY_CONNECTED MAC/cycle against the port bound; while_fib and rnn_loop cycles per iteration "
             "(devices whose FEATURES have FLOAT32)", true, runFcGroup},
      {"watchdog", "cycles from an expired EXEC_BUDGET / LOOP_BUDGET to the halt", true, runWatchdogGroup},
      {"preempt", "cycles from a preemption request to the saved context", true, runPreemptGroup},
      {"cosim", "simulation speed in device cycles per second, sim/hls wall-time ratio", true, runCosimGroup},
      {"host", "host time per execution beyond the device's own", true, runHostGroup},
      {"cpu", "the CPU executor: ns per WHILE iteration, loop timeout overshoot (any --device)", true, runCpuGroup},
      {"cache", "preparation from scratch against preparation from the compilation cache", false, runCacheGroup},
      {"profile", "what --profile adds to an execution of while_sum (n = 100, 1000, 5000) on the registered device",
       false, runProfileGroup},
  };
  return groups;
}

}  // namespace nnfab::bench
