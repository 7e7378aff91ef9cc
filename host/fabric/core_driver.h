// Runs one program on one core through any FabricBackend, with the register
// protocol of docs/register-map.md, and is the HOST WATCHDOG of
// docs/architecture.md "Time": on a simulated device the fabric's watchdog counts
// simulated cycles, so the driver also enforces the loop timeout and the
// deadline in wall time and stops the core (PREEMPT, then the register soft
// reset of fabric/soft_reset.h) when they pass. Every run leaves the device idle and ready for the next one.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <memory>
#include <optional>
#include <vector>

#include "fabric/device_trace.h"
#include "fabric/fabric_backend.h"
#include "fabric/urgent_thread.h"
#include "isa/data_windows.h"
#include "model/status.h"

namespace nnfab::fabric {

// Device memory of one execution, already allocated and filled.
struct LoadedProgram {
  DeviceAddress program = 0;
  uint32_t programBytes = 0;
  // The data region's windows (docs/isa.md "Memory model"; fabric/
  // data_region.h translates offsets): A at `data` (DATA_ADDR), B at
  // `srcbData` from offset srcbStart (SRCB_ADDR, SRCB_START), D at
  // `dstData` from offset dstStart (DST_ADDR, DST_START). An empty window's
  // start is isa::kNoWindowStart and its address window A's.
  DeviceAddress data = 0;
  DeviceAddress srcbData = 0;
  DeviceAddress dstData = 0;
  uint32_t dataBytes = 0;
  uint32_t srcbStart = isa::kNoWindowStart;
  uint32_t dstStart = isa::kNoWindowStart;
  DeviceAddress context = 0;  // CONTEXT_BYTES; used by PREEMPTED / SLICE_END and resume
  // kTraceAreaBytes, 64-byte aligned (DeviceProgram::traceArea): where a
  // profiled start's ring goes on a core with FEATURE_TRACE_DMA; 0: the
  // driver's own area (CoreDriver::prepareTrace), or the window without one.
  DeviceAddress traceArea = 0;
  bool resume = false;        // continue a run that stopped PREEMPTED or SLICE_END
  bool trace = false;         // MODE.TRACE: the report carries the start's trace ring and class cycles
};

struct RunLimits {
  // NNAPI's loop timeout for each WHILE instance: the fabric's LOOP_BUDGET
  // and the host's wall-clock loop watchdog. Zero: no loop watchdog.
  std::chrono::nanoseconds loopTimeout{0};
  // The execution deadline: EXEC_BUDGET and the host's wall-clock check.
  std::optional<std::chrono::steady_clock::time_point> deadline;
  // Stop with SLICE_END after this many instructions (resumable).
  std::optional<uint32_t> insnLimit;
  // Polled about every pollInterval while the core runs; returning true
  // preempts it at the next instruction boundary (resumable report).
  std::function<bool()> preemptRequested;
  // Asked once just before the start: true when the run must yield already
  // (the scheduler nudged the step's thread while it was on its way to the
  // start, e.g. waiting for a CPU after its grant). The start then goes out
  // with PREEMPT set, so that the core stops at its first instruction
  // boundary (resumable, its context saved), instead of the start's PREEMPT
  // clear wiping the request and the first poll finding it after a poll
  // interval (on hls, after the start's inline part). Unset: not asked.
  std::function<bool()> yieldBeforeStart;

  std::chrono::nanoseconds pollInterval = std::chrono::milliseconds(1);
  // How long a core may take to honour PREEMPT before the driver resets it.
  std::chrono::nanoseconds preemptGrace = std::chrono::milliseconds(200);
  // A running core that retires no instruction (INSTRET) for this long is hung.
  std::chrono::nanoseconds hangTimeout = std::chrono::seconds(10);
  // How long the soft reset of a core the driver gives up on may take before
  // the backend's own reset is used (fabric/soft_reset.h).
  std::chrono::nanoseconds resetTimeout = std::chrono::milliseconds(500);
};

struct RunReport {
  // NNAPI status: NONE for DONE, PREEMPTED and SLICE_END; otherwise the
  // failure with a message naming the core status, pc and detail.
  Status status;
  uint32_t coreStatus = 0;  // isa::kStatus*; IDLE after the driver had to reset the core
  uint64_t cycles = 0;
  uint64_t iterations = 0;
  uint64_t instret = 0;
  uint32_t haltPc = 0;
  uint32_t faultInfo = 0;
  std::chrono::nanoseconds wallTime{0};
  std::optional<DeviceTrace> trace;  // LoadedProgram::trace: read after the core stopped

  bool completed() const;  // HALT 0: the results are in the data region
  bool resumable() const;  // PREEMPTED or SLICE_END: run again with resume = true
};

class CoreDriver {
 public:
  explicit CoreDriver(FabricBackend& backend) : backend_(backend) {}
  ~CoreDriver();
  CoreDriver(const CoreDriver&) = delete;
  CoreDriver& operator=(const CoreDriver&) = delete;

  // What profiled runs read their trace with, set up ahead of them (a
  // preparation for profiling calls it; otherwise the first profiled run
  // does): FEATURES, and on a core with FEATURE_TRACE_DMA one trace area
  // of kTraceAreaBytes in device memory and the host buffer it is copied
  // into, both written once so that no run pays their first touch. One
  // area serves every run of this driver (it runs one at a time and reads
  // the trace before it returns). Without the area (device memory full)
  // profiled runs read the ring's window. Also a buffer for the entries of
  // the next profiled run's trace (TRACE_DEPTH entries, written once), so
  // that a one-shot profiled run allocates none; later runs allocate their
  // own, as a run without preparation does.
  Status prepareTrace();
  // Whether the buffer prepareTrace set aside for the next profiled run's
  // entries is still there (for tests).
  bool traceEntriesPrepared() const { return spareEntries_.capacity() >= isa::kTRACE_DEPTH; }

  // A report whenever the core was started (whatever it stopped with); an
  // error when it could not be: a deadline already passed
  // (MISSED_DEADLINE_PERSISTENT), a busy device, an unreadable context.
  Result<RunReport> run(const LoadedProgram& program, const RunLimits& limits);

  FabricBackend& backend() { return backend_; }

 private:
  // FEATURES, read once when a run first asks for a trace: a core without
  // FEATURE_TRACE is run without MODE.TRACE and reports none; one without
  // FEATURE_TRACE_DMA is read through the ring's window.
  uint32_t features();
  Status prepareTraceLocked();  // under mutex_

  FabricBackend& backend_;
  // One run at a time on this driver. With priority inheritance: a HIGH
  // step's thread that finds a preempted LOW run still finishing its last
  // register batch here lends it its priority (fabric/urgent_thread.h).
  PiMutex mutex_;
  std::optional<uint32_t> features_;
  static constexpr uint64_t kTracePages = 8192;  // >= kTraceAreaBytes + a page: see prepareTraceLocked
  DeviceAddress traceArea_ = 0;                  // prepareTrace; 0: none (yet)
  std::unique_ptr<uint64_t[]> traceBuffer_;      // the readout's copy of the area (kTraceAreaBytes used)
  std::vector<uint64_t> spareEntries_;           // prepareTrace: the next readout's entries (empty, reserved)
};

// Cycles the kernel clock ticks in `duration`, rounded up and at least 1 for
// a positive duration (0 would disable a budget), saturating.
uint64_t cyclesFor(std::chrono::nanoseconds duration, double clockMhz);

}  // namespace nnfab::fabric
