// The hls device: the HLS kernel (hls/nnfab_core.cpp) compiled natively and
// run as Vitis HLS C-simulation behind FabricBackend. It emulates the
// AXI4-Lite window of docs/register-map.md with ap_ctrl_hs semantics and runs
// the top function on its own worker thread in bounded slices (INSN_LIMIT
// plus MODE.RESUME on a private context), so that PREEMPT, the host watchdog
// and reset act between slices as they would on the RTL. See docs/hls.md.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string_view>
#include <thread>

#include "fabric/host_memory_backend.h"
#include "fabric/urgent_thread.h"
#include "fabric/wake_word.h"
#include "isa/trace_classes.h"
#include "nnfab_isa.h"

namespace nnfab::backends {

struct HlsBackendOptions {
  uint64_t memoryBytes = uint64_t{256} << 20;
  double clockMhz = isa::kNOMINAL_CLOCK_MHZ;
  // Instructions per call of the top function; 0 is taken as 1.
  uint32_t sliceInstructions = 1u << 20;
  // The cycle model's memory latency (docs/isa.md "Cycle model").
  uint32_t memLatency = isa::kCycle_mem_latency;
  // Instructions the thread that writes AP_START runs itself before the
  // worker thread takes over (0: the worker runs every start). A short
  // step then completes without two thread hand-offs, which cost tens of
  // microseconds on a loaded host; a long one still runs on the worker, so
  // PREEMPT, the host watchdog and reset act as before (docs/hls.md).
  uint32_t inlineInstructions = 4096;
  // ... and at most about this many model cycles (checked between inline
  // slices of 256 instructions), so that a few long tensor instructions do
  // not hold the writer either: ~0.3 ms of C-simulation.
  uint64_t inlineCycles = 16384;
};

// Misbehaviour a test can inject into the next start, to exercise the host
// watchdog and CoreDriver's recovery. Cleared by reset().
enum class InjectedFault {
  NONE,
  IGNORE_PREEMPT,  // the core never sees PREEMPT (it still stops on reset)
  HANG,            // the core accepts the start and then never makes progress
  BUS_ERROR,       // the memory system answers the program fetch with an error response
  BAD_INSTRUCTION, // the first instruction arrives corrupted (all ones): ILLEGAL_INSTRUCTION
};

class HlsBackend final : public fabric::HostMemoryBackend {
 public:
  explicit HlsBackend(HlsBackendOptions options = {});
  ~HlsBackend() override;
  HlsBackend(const HlsBackend&) = delete;
  HlsBackend& operator=(const HlsBackend&) = delete;

  std::string_view name() const override { return "hls"; }
  double clockMhz() const override { return options_.clockMhz; }

  void writeRegister(uint32_t offset, uint32_t value) override;
  uint32_t readRegister(uint32_t offset) override;
  void accessRegisters(std::span<fabric::RegisterAccess> accesses) override;
  fabric::WaitOutcome waitDone(std::chrono::nanoseconds timeout) override;
  void wakeWaiter() override;
  // A register write here costs a lock, not a hand-off: offered.
  bool requestPreempt() override;
  void reset() override;

  void injectFault(InjectedFault fault);
  // Calls of the top function so far (tests check the slicing).
  uint64_t slicesRun() const { return slices_.load(); }

 private:
  static constexpr uint32_t kRegisterWords = isa::kRegWindowBytes / sizeof(uint32_t);
  struct Stop;

  // Where a host-visible start is between calls of execute(): the inline
  // part and the worker's continuation.
  struct Progress {
    bool started = false;     // the first call (context load) happened
    uint64_t instret = 0;     // INSTRET at the end of the last slice
    uint64_t retired = 0;     // instructions of this start so far
    uint32_t sliceMode = 0;   // MODE of the next slice
  };
  enum class Outcome { STOPPED, ABORTED, BUDGET };

  void workerLoop();
  // Runs a host-visible start on (STOPPED: `stop` filled; ABORTED: reset()
  // ended it), or until `budget` instructions of it ran (BUDGET; 0: none).
  Outcome execute(const uint32_t (&args)[kRegisterWords], InjectedFault fault, Stop* stop, Progress* progress,
                  uint64_t budget);
  // With mutex_ held: the run ended; publish the stop (ended) and wake waiters.
  void finishRun(bool ended, const Stop& stop);
  uint32_t readLocked(uint32_t offset);  // under mutex_
  void finishSoftReset();  // the register effects of a completed soft reset
  bool waitForAbort();  // a HANG core: returns false once reset() or shutdown ends it
  void appendTrace(const uint64_t* ring, uint32_t count, uint32_t dropped, const uint64_t* classCycles);
  void writeTrace(uint32_t mode, uint64_t traceAddr, Stop* stop);
  void updatePreemptLines();  // with mutex_ held

  const HlsBackendOptions options_;

  fabric::PiMutex mutex_;
  // Direct wake-ups (fabric/wake_word.h), not condition variables: a
  // broadcast on a glibc condition variable can wait for descheduled
  // ordinary threads, and the thread that ends a run is often a HIGH
  // step's own (its inline part) or the worker raised for it.
  fabric::WakeWord wake_;      // the worker: a start, reset or shutdown
  fabric::WakeWord finished_;  // waitDone and reset: the run ended, or wakeWaiter
  uint32_t regs_[kRegisterWords] = {};
  uint32_t latched_[kRegisterWords] = {};  // the arguments as they were at AP_START
  bool running_ = false;
  bool startPending_ = false;
  // The worker continues a start its writer ran the first part of.
  bool continuePending_ = false;
  uint32_t continueArgs_[kRegisterWords] = {};
  Progress continueProgress_;
  bool done_ = false;  // AP_DONE
  uint64_t wakeups_ = 0;  // wakeWaiter calls: a waitDone then blocked returns
  bool ready_ = false;  // AP_READY
  bool abort_ = false;
  bool softReset_ = false;  // SOFT_RESET_KEY written while the core runs
  bool shutdown_ = false;
  // The worker runs a start (not the inline part on the writer's thread),
  // and a stop request raised it to real-time priority until that start
  // ends (fabric/urgent_thread.h): a core that is asked to stop reaches its
  // instruction boundary without waiting for a CPU behind other work.
  bool workerExecuting_ = false;
  bool workerUrgent_ = false;
  // The worker was raised to finish a start whose writer raised itself
  // (fabric::selfRaised: a HIGH step, whose result waits for this start); for at most
  // kUrgentContinuationCpu of the worker's CPU time, then back to ordinary
  // (a long HIGH step must not hold a CPU at real-time priority). A stop
  // request meanwhile lifts the cap (the start then ends within one
  // instruction).
  bool workerUrgentCapped_ = false;
  // The worker's kernel id, for raising it (fabric::raiseTaskToUrgent); 0
  // until it runs, and raising 0 would raise the caller: checked.
  std::atomic<pid_t> workerTask_{0};
  InjectedFault fault_ = InjectedFault::NONE;
  InjectedFault latchedFault_ = InjectedFault::NONE;
  // The words the core samples as PREEMPT (host request or abort), and the
  // one an IGNORE_PREEMPT core samples (abort only).
  std::atomic<uint32_t> preemptLine_{0};
  std::atomic<uint32_t> abortLine_{0};
  std::atomic<bool> aborting_{false};
  // The live registers the core writes at every instruction boundary.
  std::atomic<uint32_t> watchdogState_{0};
  std::atomic<uint64_t> cycles_{0};
  std::atomic<uint64_t> iterations_{0};
  std::atomic<uint64_t> instret_{0};
  std::atomic<uint64_t> slices_{0};
  uint32_t context_[isa::kCONTEXT_BYTES / sizeof(uint32_t)] = {};  // the worker's private slice context
  // The trace of the host-visible start (MODE.TRACE) over its internal
  // slices: written by whichever thread executes, published to regs_ by
  // finishRun (docs/isa.md "Trace ring").
  struct TraceAccumulator {
    uint64_t ring[isa::kTRACE_DEPTH] = {};
    uint32_t count = 0;
    uint32_t dropped = 0;
    uint64_t classCycles[isa::kNumTraceClasses] = {};
  };
  TraceAccumulator trace_;

  std::thread worker_;
};

}  // namespace nnfab::backends
