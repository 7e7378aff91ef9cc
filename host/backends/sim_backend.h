// The sim device's backend: the RTL core (rtl/) Verilated and clocked by the
// harness of sim/ (AXI4 memory models over a DeviceMemory image, AXI4-Lite
// register accesses as real transactions through the RTL). One worker
// thread owns the model: it clocks it in batches while the core runs,
// executes register accesses, resets and fault injections for the host
// threads in between, and sleeps while the core is idle. Every result comes
// from the RTL. A failed RTL assertion or AXI rule (an RTL bug) puts the
// device out of use for good: the run and every later one fail with
// DEVICE_UNAVAILABLE and the assertion's place (usable()), and the process
// goes on. docs/sim.md.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

#include "axi_memory.h"
#include "fabric/host_memory_backend.h"
#include "fabric/urgent_thread.h"
#include "fabric/wake_word.h"
#include "nnfab_isa.h"

namespace nnfab::sim {
class SimHarness;
class SimTap;
}

namespace nnfab::backends {

struct SimBackendOptions {
  uint64_t memoryBytes = uint64_t{256} << 20;
  double clockMhz = isa::kNOMINAL_CLOCK_MHZ;
  sim::AxiMemoryConfig memory;  // latency, outstanding reads, write response latency
  // m_axi_srcb's and m_axi_dst's own memory timing; unset: `memory`.
  std::optional<sim::AxiMemoryConfig> srcbMemory, dstMemory;
  std::string traceFile;        // FST waveform of everything the backend clocks; empty: none
  uint32_t batchCycles = 2048;  // cycles clocked between two looks at the host's requests
  // Tests only: a look into every clock cycle that may plant a fault
  // (sim/sim_tap.h); installed on the harness when the worker creates it.
  std::shared_ptr<sim::SimTap> tap;
};

// Misbehaviour a test can inject; cleared by reset().
enum class SimFault {
  NONE,
  HANG,            // from the next start on, the memory stops answering (every port)
  BUS_ERROR,       // the next data access is answered with SLVERR
  IGNORE_PREEMPT,  // preemption requests never reach the core (a soft reset does)
};

// Cycles (of ap_clk, since the backend was created) at which the last run's
// events happened; 0 when one did not happen.
struct SimRunEvents {
  uint64_t startAccepted = 0;   // the core left idle
  uint64_t preemptWritten = 0;  // the host's PREEMPT write completed
  uint64_t done = 0;            // the core was idle again (AP_DONE set)
};

class SimBackend final : public fabric::HostMemoryBackend {
 public:
  explicit SimBackend(SimBackendOptions options = {});
  ~SimBackend() override;
  SimBackend(const SimBackend&) = delete;
  SimBackend& operator=(const SimBackend&) = delete;

  std::string_view name() const override { return "sim"; }
  double clockMhz() const override { return options_.clockMhz; }

  void writeRegister(uint32_t offset, uint32_t value) override;
  uint32_t readRegister(uint32_t offset) override;
  // One hand-off to the worker for all of them; each is still its own
  // AXI4-Lite transaction through the RTL.
  void accessRegisters(std::span<fabric::RegisterAccess> accesses) override;
  fabric::WaitOutcome waitDone(std::chrono::nanoseconds timeout) override;
  void wakeWaiter() override;
  void reset() override;  // ap_rst_n; memory survives
  Status usable() const override;

  void injectFault(SimFault fault);
  // Every later access to the 64-byte beat at `address` gets SLVERR (until reset()).
  void injectBusErrorAt(fabric::DeviceAddress address);

  // ap_clk cycles clocked so far (register accesses and resets included).
  uint64_t simulatedCycles() const { return cycles_.load(); }
  // Configuration-register writes skipped because the register already held
  // the value (see config_).
  uint64_t skippedWrites() const { return skippedWrites_.load(); }
  SimRunEvents lastRunEvents() const;

 private:
  using Job = std::function<void(sim::SimHarness&)>;

  // Runs `job` on the worker and waits for it; false when the device is
  // out of use (the job was not run, or it failed the device).
  bool onWorker(Job job);
  void workerLoop();
  void observe(const sim::SimHarness& harness);  // with mutex_ held
  // Puts the device out of use for `what` (mutex_ held): the model is not
  // clocked again, and a waitDone returns at once.
  void fail(const char* what);
  // One register access on the worker (the transaction and its bookkeeping).
  void writeOnWorker(sim::SimHarness& harness, uint32_t offset, uint32_t value, SimFault fault);
  uint32_t readOnWorker(sim::SimHarness& harness, uint32_t offset);
  SimFault currentFault() const;

  // What the core's host-owned configuration registers (PROG_ADDR ..
  // EXEC_BUDGET, plain storage in rtl/nnfab_ctrl_slave.sv, 0 after reset)
  // hold, as this backend wrote them: a write of the value a register
  // already holds is skipped (it would change nothing), so a run that
  // starts the same program again clocks only the writes that change
  // something. Worker thread only.
  static constexpr uint32_t kConfigFirst = isa::kRegPROG_ADDR;
  static constexpr uint32_t kConfigEnd = isa::kRegEXEC_BUDGET + 8;
  std::array<uint32_t, (kConfigEnd - kConfigFirst) / 4> config_{};
  // TRACE_ADDR likewise (plain storage, kept across starts and soft resets):
  // a profiled run writes it before every start.
  std::array<uint32_t, 2> traceAddr_{};
  std::atomic<uint64_t> skippedWrites_{0};

  const SimBackendOptions options_;

  // With priority inheritance, and direct wake-ups instead of condition
  // variables (fabric/wake_word.h): a HIGH step's register batch and its
  // wait for the core's stop go through here, and a glibc condition
  // variable's broadcast can wait for descheduled ordinary threads.
  mutable fabric::PiMutex mutex_;
  fabric::WakeWord wake_;      // worker: a job or shutdown
  fabric::WakeWord finished_;  // callers: their job ran
  // Each side's watch before its hand-off waits (sim_backend.cpp,
  // handOffWait): watching stops for a while when it did not pay.
  fabric::SpinBackoff callerSpin_;
  fabric::SpinBackoff workerSpin_;
  fabric::SpinBackoff doneSpin_;
  fabric::WakeWord doneWake_;    // waitDone
  std::deque<std::pair<uint64_t, Job>> jobs_;
  uint64_t posted_ = 0;
  uint64_t completed_ = 0;
  std::string failure_;  // why the device is out of use; empty while it is usable
  bool shutdown_ = false;
  bool running_ = false;    // the core is not idle
  bool done_ = false;  // AP_DONE as the host would read it
  uint64_t wakeups_ = 0;  // wakeWaiter calls: a waitDone then blocked returns
  uint64_t stopsSeen_ = 0;
  SimFault fault_ = SimFault::NONE;
  SimRunEvents events_;
  std::atomic<uint64_t> cycles_{0};

  std::thread worker_;
};

}  // namespace nnfab::backends
