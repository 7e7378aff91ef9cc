#include "fabric/core_driver.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "fabric/core_status.h"
#include "fabric/registers.h"
#include "fabric/soft_reset.h"
#include "fabric/urgent_thread.h"
#include "nnfab_isa.h"

namespace nnfab::fabric {

using std::chrono::nanoseconds;
using std::chrono::steady_clock;

bool RunReport::completed() const { return coreStatus == isa::kStatusDONE; }
bool RunReport::resumable() const {
  return coreStatus == isa::kStatusPREEMPTED || coreStatus == isa::kStatusSLICE_END;
}

uint64_t cyclesFor(nanoseconds duration, double clockMhz) {
  if (duration <= nanoseconds::zero()) return 0;
  if (!(clockMhz > 0)) clockMhz = isa::kNOMINAL_CLOCK_MHZ;
  constexpr long double kNanosPerMicro = 1000.0L;
  const long double cycles =
      std::ceil(static_cast<long double>(duration.count()) * clockMhz / kNanosPerMicro);
  if (cycles >= static_cast<long double>(std::numeric_limits<uint64_t>::max())) {
    return std::numeric_limits<uint64_t>::max();
  }
  return cycles < 1 ? 1 : static_cast<uint64_t>(cycles);
}

namespace {

// How long a thread that raised itself waits for a run at that priority.
constexpr std::chrono::milliseconds kUrgentWait{2};

// Why the host asked the core to stop.
enum class HostStop { NONE, LOOP_TIMEOUT, DEADLINE, REQUESTED };

double millis(nanoseconds d) { return std::chrono::duration<double, std::milli>(d).count(); }

std::string describeStop(const RunReport& r, uint64_t loopBudget, uint64_t execBudget, uint32_t dataBytes) {
  const std::string name = coreStatusName(r.coreStatus);
  switch (r.coreStatus) {
    case isa::kStatusLOOP_TIMEOUT:
      return fmt::format("the WHILE loop timed out: the fabric loop watchdog (LOOP_BUDGET {} cycles) expired at pc {}",
                         loopBudget, r.haltPc);
    case isa::kStatusEXEC_TIMEOUT:
      return fmt::format("the execution deadline passed: CYCLES reached EXEC_BUDGET ({} cycles) at pc {}", execBudget,
                         r.haltPc);
    case isa::kStatusACCESS_FAULT:
      return fmt::format("{} at pc {}: data offset {} is misaligned or outside the {}-byte data region", name,
                         r.haltPc, r.faultInfo, dataBytes);
    case isa::kStatusILLEGAL_INSTRUCTION:
      return fmt::format("{} at pc {}: instruction low word 0x{:08x}", name, r.haltPc, r.faultInfo);
    case isa::kStatusPROGRAM_ERROR:
      return fmt::format("the program stopped with error code {} at pc {}", r.faultInfo, r.haltPc);
    default:
      return fmt::format("core stopped with {} at pc {} (fault info 0x{:x})", name, r.haltPc, r.faultInfo);
  }
}

uint64_t saturatingAdd(uint64_t a, uint64_t b) {
  return a > std::numeric_limits<uint64_t>::max() - b ? std::numeric_limits<uint64_t>::max() : a + b;
}

}  // namespace

uint32_t CoreDriver::features() {
  if (!features_) features_ = backend_.readRegister(isa::kRegFEATURES);
  return *features_;
}

CoreDriver::~CoreDriver() {
  if (traceArea_ != 0) backend_.release(traceArea_);
}

Status CoreDriver::prepareTrace() {
  std::lock_guard<PiMutex> lock(mutex_);
  // The first profiled run's entries go into a buffer allocated and written
  // here, not in the run: in a fresh process that allocation was where the
  // heap grew (a brk call and a page fault, several us of a short step's
  // time; docs/performance.md "Profiling cost in fresh processes, located").
  // A later preparation refills it when a run took it.
  if (spareEntries_.capacity() == 0) {
    spareEntries_.assign(isa::kTRACE_DEPTH, 0);
    spareEntries_.clear();
  }
  return prepareTraceLocked();
}

Status CoreDriver::prepareTraceLocked() {
  if ((features() & isa::kFEATURE_TRACE_DMA) == 0 || traceArea_ != 0) return Status::ok();
  // The area and the host buffer each get pages of their own (kTracePages
  // bytes, of which only the first kTraceAreaBytes are ever touched): what
  // is written here must not also be the first touch of a page a run's
  // own memory lands on later (a step's program, the heap), which would
  // make profiled runs cheaper than unprofiled ones by a page fault. The
  // area comes from the top of the device memory, so that it does not move
  // where the steps' programs and data land either: taken from the bottom,
  // it pushed them off the image's first page (already touched when the
  // image was reserved) onto a fresh one, and a fresh process's profiled
  // run paid that page's fault when it loaded its program.
  Result<DeviceAddress> area = backend_.allocateHigh(kTracePages);
  if (!area.isOk()) return std::move(area).takeStatus().withContext("allocating the trace area");
  // Written once here: on hls the device image's pages are the process's
  // own, faulted in on first touch (a fresh process's first profiled run
  // paid ~2 us for it and as much for the host buffer's page).
  traceBuffer_.reset(new uint64_t[kTracePages / sizeof(uint64_t)]);
  std::fill_n(traceBuffer_.get(), kTraceAreaBytes / sizeof(uint64_t), uint64_t{0});
  if (Status s = backend_.copyToDevice(*area, traceBuffer_.get(), kTraceAreaBytes); !s.isOk()) {
    backend_.release(*area);
    return std::move(s).withContext("clearing the trace area");
  }
  traceArea_ = *area;
  return Status::ok();
}

Result<RunReport> CoreDriver::run(const LoadedProgram& program, const RunLimits& limits) {
  std::lock_guard<PiMutex> lock(mutex_);
  if (Status s = backend_.usable(); !s) return s;
  const steady_clock::time_point start = steady_clock::now();
  if (limits.deadline && *limits.deadline <= start) {
    return Status(ErrorStatus::MISSED_DEADLINE_PERSISTENT, "the execution deadline passed before the run started");
  }
  // Reading AP_CTRL also clears an AP_DONE nobody collected, so that
  // waitDone below only sees this run's.
  if ((backend_.readRegister(isa::kRegAP_CTRL) & isa::kAP_IDLE) == 0) {
    return generalFailure(fmt::format("device {} is busy with another run", backend_.name()));
  }

  // EXEC_BUDGET counts from the execution's first cycle, and CYCLES carries
  // across resumes.
  uint64_t cyclesSoFar = 0;
  if (program.resume) {
    uint32_t words[2] = {0, 0};
    const DeviceAddress at = program.context + uint64_t{isa::kCtxCYCLES} * sizeof(uint32_t);
    if (Status s = backend_.copyFromDevice(words, at, sizeof(words)); !s) {
      return std::move(s).withContext("reading the saved context");
    }
    cyclesSoFar = (uint64_t{words[1]} << 32) | words[0];
  }
  const double mhz = backend_.clockMhz();
  const uint64_t loopBudget = cyclesFor(limits.loopTimeout, mhz);
  const uint64_t execBudget =
      limits.deadline ? saturatingAdd(cyclesSoFar, cyclesFor(*limits.deadline - start, mhz)) : 0;

  // The set-up and the start in one batch: every write is still its own
  // register access, in this order.
  RegisterBatch setup;
  setup.write64(isa::kRegPROG_ADDR, program.program);
  setup.write64(isa::kRegDATA_ADDR, program.data);
  setup.write64(isa::kRegCTX_ADDR, program.context);
  // Windows B and D: written at every start, so that a previous program's
  // windows never carry over (after DATA_ADDR, which a backend may copy
  // into both).
  setup.write64(isa::kRegSRCB_ADDR, program.srcbData);
  setup.write64(isa::kRegDST_ADDR, program.dstData);
  setup.write(isa::kRegPROG_SIZE, program.programBytes);
  setup.write(isa::kRegDATA_SIZE, program.dataBytes);
  setup.write(isa::kRegSRCB_START, program.srcbStart);
  setup.write(isa::kRegDST_START, program.dstStart);
  const bool trace = program.trace && (features() & isa::kFEATURE_TRACE) != 0;
  // Where the core writes its ring at the stop (0: nowhere; the window
  // then). TRACE_ADDR outlives the run, so a traced run always sets it.
  const bool traceDma = trace && (features() & isa::kFEATURE_TRACE_DMA) != 0;
  // The program's own area if it has one, else the driver's (set up now if
  // no preparation did; without it, the window).
  if (traceDma && program.traceArea == 0) (void)prepareTraceLocked();
  const DeviceAddress traceArea = !traceDma ? 0 : program.traceArea != 0 ? program.traceArea : traceArea_;
  // ... and with FEATURE_TRACE_HEADER the counters before the entries: the
  // readout is then one copy of the area and no trace register.
  const bool traceHeader = traceDma && traceArea != 0 && (features() & isa::kFEATURE_TRACE_HEADER) != 0;
  if (traceDma) setup.write64(isa::kRegTRACE_ADDR, traceArea);
  setup.write(isa::kRegMODE, (program.resume ? isa::kModeResume : 0u) | (trace ? isa::kMODE_TRACE : 0u));
  setup.write(isa::kRegINSN_LIMIT, limits.insnLimit.value_or(0));
  setup.write64(isa::kRegLOOP_BUDGET, loopBudget);
  setup.write64(isa::kRegEXEC_BUDGET, execBudget);
  // A stale request from before this run is cleared; one for this run is kept.
  const bool yieldAtOnce = limits.yieldBeforeStart && limits.yieldBeforeStart();
  setup.write(isa::kRegPREEMPT, yieldAtOnce ? isa::kPreemptRequest : 0u);
  setup.write(isa::kRegAP_CTRL, isa::kAP_START);
  setup.run(backend_);

  HostStop hostStop = yieldAtOnce ? HostStop::REQUESTED : HostStop::NONE;
  steady_clock::time_point stopRequestedAt = start;
  uint64_t lastCycles = std::numeric_limits<uint64_t>::max();
  uint64_t lastInstret = std::numeric_limits<uint64_t>::max();  // the first poll counts as progress
  steady_clock::time_point lastProgress = start;
  bool watchingLoop = false;
  uint32_t watchedArms = 0;
  steady_clock::time_point armedSince{};

  RunReport report;
  // Ends a run the core did not end itself: reset (the register soft reset;
  // the backend's own reset only if that does not complete), and report why.
  auto abandon = [&](Status status) {
    if (resetCore(backend_, limits.resetTimeout) == ResetOutcome::FALLBACK) {
      status = Status(status.code(), fmt::format("{} (the soft reset did not complete within {} ms; the device "
                                                 "was reset by its backend)",
                                                 status.message(), millis(limits.resetTimeout)));
    }
    report.status = std::move(status);
    report.coreStatus = backend_.readRegister(isa::kRegSTATUS);
    report.cycles = lastCycles == std::numeric_limits<uint64_t>::max() ? 0 : lastCycles;
    report.wallTime = steady_clock::now() - start;
    return report;
  };

  // A run still going after kUrgentWait is a long one: a thread that raised
  // itself for the preemption path waits for the rest at ordinary priority
  // (fabric/urgent_thread.h, docs/qos.md), so that its polls do not take
  // the CPU from the thread running the core.
  std::optional<OrdinaryWhileWaiting> ordinary;
  while (backend_.waitDone(limits.pollInterval) != WaitOutcome::DONE) {
    // A device out of use answers nothing: say why at once (no reset).
    if (Status s = backend_.usable(); !s) return s;
    const steady_clock::time_point now = steady_clock::now();
    if (!ordinary && now - start >= kUrgentWait) ordinary.emplace();
    if (hostStop != HostStop::NONE) {
      if (now - stopRequestedAt < limits.preemptGrace) continue;
      if (hostStop == HostStop::REQUESTED) {
        return abandon(generalFailure(fmt::format("device {} did not stop on a preemption request within {} ms",
                                                  backend_.name(), millis(limits.preemptGrace))));
      }
      return abandon(Status(ErrorStatus::MISSED_DEADLINE_TRANSIENT,
                            hostStop == HostStop::LOOP_TIMEOUT
                                ? fmt::format("the WHILE loop timed out after {} ms (host watchdog; the core "
                                              "did not stop on PREEMPT and was reset)",
                                              millis(limits.loopTimeout))
                                : std::string("the execution deadline passed (host watchdog; the core did not "
                                              "stop on PREEMPT and was reset)")));
    }
    // Progress is an instruction retiring, not the cycle counter: a core
    // stalled on a memory that never answers keeps counting cycles.
    RegisterBatch poll;
    const size_t cyclesAt = poll.read64(isa::kRegCYCLES);
    const size_t instretAt = poll.read64(isa::kRegINSTRET);
    const size_t watchdogAt = loopBudget != 0 ? poll.read(isa::kRegWATCHDOG_STATE) : 0;
    poll.run(backend_);
    lastCycles = poll.value64(cyclesAt);
    const uint64_t instret = poll.value64(instretAt);
    if (instret != lastInstret) {
      lastInstret = instret;
      lastProgress = now;
    } else if (now - lastProgress >= limits.hangTimeout) {
      return abandon(generalFailure(fmt::format("device {} did not respond: no progress for {} ms; it was reset",
                                                backend_.name(), millis(limits.hangTimeout))));
    }
    if (limits.deadline && now >= *limits.deadline) {
      hostStop = HostStop::DEADLINE;
    } else if (loopBudget != 0) {
      // One loop instance is one WDARM: a new count restarts the clock.
      const uint32_t state = poll.value(watchdogAt);
      if (!watchdogArmed(state)) {
        watchingLoop = false;
      } else if (!watchingLoop || watchdogArms(state) != watchedArms) {
        watchingLoop = true;
        watchedArms = watchdogArms(state);
        armedSince = now;
      } else if (now - armedSince > limits.loopTimeout) {
        hostStop = HostStop::LOOP_TIMEOUT;
      }
    }
    if (hostStop == HostStop::NONE && limits.preemptRequested && limits.preemptRequested()) {
      hostStop = HostStop::REQUESTED;
    }
    if (hostStop != HostStop::NONE) {
      backend_.writeRegister(isa::kRegPREEMPT, isa::kPreemptRequest);
      stopRequestedAt = now;
    }
  }

  ordinary.reset();  // the stop is read and handed on urgently again
  if (Status s = backend_.usable(); !s) return s;  // sim: an RTL assertion failed in the run

  RegisterBatch finish;
  finish.read(isa::kRegAP_CTRL);  // collect AP_DONE / AP_READY
  const size_t statusAt = finish.read(isa::kRegSTATUS);
  const size_t haltPcAt = finish.read(isa::kRegHALT_PC);
  const size_t faultAt = finish.read(isa::kRegFAULT_INFO);
  const size_t cyclesAt = finish.read64(isa::kRegCYCLES);
  const size_t iterationsAt = finish.read64(isa::kRegITERATIONS);
  const size_t instretAt = finish.read64(isa::kRegINSTRET);
  // The core clears PREEMPT when it stops; a core whose PREEMPT is a plain
  // input (the synthesized HLS kernel) needs the host to.
  finish.write(isa::kRegPREEMPT, 0);
  TraceReadout traceReadout(traceArea, traceHeader);  // without a header, its counters come in this batch
  if (trace) traceReadout.addTo(finish);
  finish.run(backend_);
  report.coreStatus = finish.value(statusAt);
  report.haltPc = finish.value(haltPcAt);
  report.faultInfo = finish.value(faultAt);
  report.cycles = finish.value64(cyclesAt);
  report.iterations = finish.value64(iterationsAt);
  report.instret = finish.value64(instretAt);
  // A dump the memory answered with an error (BUS_ERROR at an address in
  // the trace area): the area holds no trace to read, and the run fails
  // with a message that says so (docs/isa.md "Trace ring").
  const bool dumpFailed = report.coreStatus == isa::kStatusBUS_ERROR && traceArea != 0 &&
                          report.faultInfo - static_cast<uint32_t>(traceArea) < kTraceAreaBytes;
  if (trace && !dumpFailed) {
    report.trace = traceArea == traceArea_
                       ? traceReadout.finish(finish, backend_, traceBuffer_.get(), &spareEntries_)
                       : traceReadout.finish(finish, backend_);
  }
  report.wallTime = steady_clock::now() - start;

  if (report.coreStatus == isa::kStatusPREEMPTED && hostStop == HostStop::LOOP_TIMEOUT) {
    report.status = Status(ErrorStatus::MISSED_DEADLINE_TRANSIENT,
                           fmt::format("the WHILE loop timed out after {} ms (host watchdog, stopped at pc {})",
                                       millis(limits.loopTimeout), report.haltPc));
  } else if (report.coreStatus == isa::kStatusPREEMPTED && hostStop == HostStop::DEADLINE) {
    report.status = Status(ErrorStatus::MISSED_DEADLINE_TRANSIENT,
                           fmt::format("the execution deadline passed (host watchdog, stopped at pc {})",
                                       report.haltPc));
  } else if (dumpFailed) {
    report.status = Status(nnapiStatusOf(report.coreStatus),
                           fmt::format("the trace dump failed: the memory answered the core's write of the trace "
                                       "area (TRACE_ADDR 0x{:x}) with an error at 0x{:x} (BUS_ERROR after the "
                                       "program stopped at pc {}); the run's trace is lost",
                                       traceArea, report.faultInfo, report.haltPc));
  } else if (nnapiStatusOf(report.coreStatus) != ErrorStatus::NONE) {
    report.status = Status(nnapiStatusOf(report.coreStatus),
                           describeStop(report, loopBudget, execBudget, program.dataBytes));
  } else if (report.coreStatus == isa::kStatusIDLE) {
    report.status = generalFailure(fmt::format("device {} reported done without running", backend_.name()));
  }
  return report;
}

}  // namespace nnfab::fabric
