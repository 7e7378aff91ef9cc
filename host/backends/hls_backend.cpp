#include "backends/hls_backend.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <vector>

#include "fabric/latency_probe.h"
#include "fabric/urgent_thread.h"
#include "nnfab_core.h"

namespace nnfab::backends {

namespace {

constexpr uint32_t kWordBytes = sizeof(uint32_t);
// GIE bit 0; IER and ISR bit 0 = done, bit 1 = ready (docs/register-map.md).
constexpr uint32_t kGieMask = 0x1u;
constexpr uint32_t kIrqMask = 0x3u;
constexpr uint32_t kInstructionAlignment = sizeof(uint64_t);
// Inline slices are short, so that the cycle budget is checked often.
constexpr uint32_t kInlineSliceInstructions = 256;
// How long the worker finishes a raised writer's start at real-time
// priority (HlsBackend::workerUrgentCapped_), and the budget of each of
// its calls in between, after which the CPU time is checked.
constexpr std::chrono::milliseconds kUrgentContinuationCpu{2};
constexpr uint32_t kUrgentContinuationSliceInstructions = 4096;

constexpr uint32_t word(uint32_t offset) { return offset / kWordBytes; }
constexpr uint32_t lo(uint64_t v) { return static_cast<uint32_t>(v); }
constexpr uint32_t hi(uint64_t v) { return static_cast<uint32_t>(v >> 32); }
constexpr uint64_t join(uint32_t low, uint32_t high) { return (uint64_t{high} << 32) | low; }

bool isArgument(uint32_t offset) {
  return (offset >= isa::kRegPROG_ADDR && offset < isa::kRegPREEMPT) ||  // PROG_ADDR .. EXEC_BUDGET high word
         // TRACE_ADDR, SRCB_ADDR, DST_ADDR, SRCB_START, DST_START
         (offset >= isa::kRegTRACE_ADDR && offset <= isa::kRegDST_START);
}

// The registers whose reset value is not 0: the window starts (no window B
// or D, ISA version 2's one region at DATA_ADDR).
void resetRegisters(uint32_t* regs) {
  regs[word(isa::kRegSRCB_START)] = isa::kNoWindowStart;
  regs[word(isa::kRegDST_START)] = isa::kNoWindowStart;
}

// The core reads PREEMPT and writes its live registers through volatile
// pointers, as hardware registers are; the backend keeps those words in
// lock-free atomics of the same layout, so that the host thread's accesses
// are atomic and the core's plain volatile loads and stores see them.
static_assert(sizeof(std::atomic<uint32_t>) == sizeof(uint32_t) && std::atomic<uint32_t>::is_always_lock_free);
static_assert(sizeof(std::atomic<uint64_t>) == sizeof(uint64_t) && std::atomic<uint64_t>::is_always_lock_free);
template <typename T>
volatile T* coreView(std::atomic<T>& word) {
  return reinterpret_cast<volatile T*>(&word);
}

}  // namespace

struct HlsBackend::Stop {
  uint32_t status = isa::kStatusIDLE;
  uint32_t haltPc = 0;
  uint32_t faultInfo = 0;
};

HlsBackend::HlsBackend(HlsBackendOptions options)
    : HostMemoryBackend(options.memoryBytes), options_(options), worker_([this] { workerLoop(); }) {
  std::lock_guard<fabric::PiMutex> lock(mutex_);
  resetRegisters(regs_);
}

HlsBackend::~HlsBackend() {
  {
    std::lock_guard<fabric::PiMutex> lock(mutex_);
    shutdown_ = true;
    abort_ = true;
    updatePreemptLines();
  }
  wake_.wake();
  worker_.join();
}

void HlsBackend::updatePreemptLines() {
  const bool hostRequest = (regs_[word(isa::kRegPREEMPT)] & isa::kPreemptRequest) != 0;
  // A soft reset reaches the core as SOFT_RESET_KEY in PREEMPT, as on the
  // synthesized kernel, even where a fault hides preemption requests.
  const uint32_t request = abort_ || !softReset_ ? isa::kPreemptRequest : isa::kSOFT_RESET_KEY;
  preemptLine_.store(hostRequest || abort_ || softReset_ ? request : 0u);
  abortLine_.store(abort_ || softReset_ ? request : 0u);
  aborting_.store(abort_);
}

void HlsBackend::finishSoftReset() {
  for (uint32_t reg : {isa::kRegSTATUS, isa::kRegHALT_PC, isa::kRegFAULT_INFO, isa::kRegPREEMPT, isa::kRegISR}) {
    regs_[word(reg)] = 0;
  }
  watchdogState_.store(0);
  cycles_.store(0);
  iterations_.store(0);
  instret_.store(0);
  done_ = false;
  ready_ = false;
  fault_ = InjectedFault::NONE;
  softReset_ = false;
  updatePreemptLines();
}

void HlsBackend::writeRegister(uint32_t offset, uint32_t value) {
  if (offset % kWordBytes != 0 || offset >= isa::kRegWindowBytes) return;
  std::unique_lock<fabric::PiMutex> lock(mutex_);
  switch (offset) {
    case isa::kRegAP_CTRL:
      // The core accepts a start at once when idle; a start while it runs is
      // ignored (it is not queued).
      if ((value & isa::kAP_START) != 0 && !running_) {
        std::copy(std::begin(regs_), std::end(regs_), std::begin(latched_));
        latchedFault_ = fault_;
        running_ = true;
        done_ = false;
        ready_ = false;
        if (latchedFault_ != InjectedFault::NONE || options_.inlineInstructions == 0) {
          startPending_ = true;
          wake_.wake();
          return;
        }
        // The first instructions run here, without waking the worker: most
        // fabric steps end within them (see inlineInstructions).
        uint32_t args[kRegisterWords];
        std::copy(std::begin(latched_), std::end(latched_), std::begin(args));
        lock.unlock();
        Stop stop;
        Progress progress;
        const Outcome outcome = execute(args, InjectedFault::NONE, &stop, &progress, options_.inlineInstructions);
        lock.lock();
        if (outcome == Outcome::BUDGET) {
          std::copy(std::begin(args), std::end(args), std::begin(continueArgs_));
          continueProgress_ = progress;
          continuePending_ = true;
          // A writer that raised itself (a HIGH step) waits for this
          // start's end: the worker that finishes it is raised too, capped.
          if (fabric::selfRaised()) {
            fabric::latency_probe::mark(fabric::latency_probe::Mark::TO_WORKER);
            if (!workerUrgent_) {
              workerUrgent_ = (workerTask_.load() != 0 && fabric::raiseTaskToUrgent(workerTask_.load()));
              workerUrgentCapped_ = workerUrgent_;
            }
          }
          wake_.wake();
          return;
        }
        finishRun(outcome == Outcome::STOPPED, stop);
      }
      return;
    case isa::kRegGIE: regs_[word(offset)] = value & kGieMask; return;
    case isa::kRegIER: regs_[word(offset)] = value & kIrqMask; return;
    case isa::kRegISR: regs_[word(offset)] ^= value & kIrqMask; return;
    case isa::kRegPREEMPT:
      if (value == isa::kSOFT_RESET_KEY) {
        // Completes when the core reaches its next instruction boundary
        // (finishRun); AP_IDLE reads 0 until then. A HANG core never does.
        softReset_ = true;
        if (running_) {
          updatePreemptLines();
        } else {
          finishSoftReset();
        }
        return;
      }
      regs_[word(offset)] = value;
      updatePreemptLines();
      if ((value & isa::kPreemptRequest) != 0) {
        fabric::latency_probe::mark(fabric::latency_probe::Mark::PREEMPT_WRITTEN);
        // Bounded: the worker runs at most one more instruction of this
        // start (also when it has yet to wake up and take the start over).
        // Not for an injected fault, whose core may never stop.
        const bool workersStart = workerExecuting_ || startPending_ || continuePending_;
        if (workersStart && !workerUrgent_ && latchedFault_ == InjectedFault::NONE) {
          workerUrgent_ = (workerTask_.load() != 0 && fabric::raiseTaskToUrgent(workerTask_.load()));
        }
        if (workersStart && latchedFault_ == InjectedFault::NONE) workerUrgentCapped_ = false;
      }
      return;
    default:
      if (isArgument(offset)) regs_[word(offset)] = value;
      return;  // read-only registers ignore writes
  }
}

uint32_t HlsBackend::readRegister(uint32_t offset) {
  std::lock_guard<fabric::PiMutex> lock(mutex_);
  return readLocked(offset);
}

void HlsBackend::accessRegisters(std::span<fabric::RegisterAccess> accesses) {
  // Each run of reads under one lock: a profiled stop reads hundreds of
  // words (the trace ring), one lock each was most of its cost here.
  size_t i = 0;
  while (i < accesses.size()) {
    if (accesses[i].kind == fabric::RegisterAccess::Kind::WRITE) {
      writeRegister(accesses[i].offset, accesses[i].value);
      ++i;
      continue;
    }
    std::lock_guard<fabric::PiMutex> lock(mutex_);
    for (; i < accesses.size() && accesses[i].kind == fabric::RegisterAccess::Kind::READ; ++i) {
      accesses[i].value = readLocked(accesses[i].offset);
    }
  }
}

uint32_t HlsBackend::readLocked(uint32_t offset) {
  if (offset % kWordBytes != 0 || offset >= isa::kRegWindowBytes) return 0;
  switch (offset) {
    case isa::kRegAP_CTRL: {
      const uint32_t v = (done_ ? isa::kAP_DONE : 0u) | (ready_ ? isa::kAP_READY : 0u) |
                         (running_ ? 0u : isa::kAP_IDLE);
      done_ = false;  // AP_DONE and AP_READY clear on read
      ready_ = false;
      return v;
    }
    case isa::kRegWATCHDOG_STATE: return watchdogState_.load();
    case isa::kRegCYCLES: return lo(cycles_.load());
    case isa::kRegCYCLES + kWordBytes: return hi(cycles_.load());
    case isa::kRegITERATIONS: return lo(iterations_.load());
    case isa::kRegITERATIONS + kWordBytes: return hi(iterations_.load());
    case isa::kRegINSTRET: return lo(instret_.load());
    case isa::kRegINSTRET + kWordBytes: return hi(instret_.load());
    case isa::kRegID: return isa::kCORE_ID;
    case isa::kRegISA_VERSION: return isa::kIsaVersion;
    case isa::kRegFEATURES: return hls::kCoreFeatures;
    default: return regs_[word(offset)];
  }
}

bool HlsBackend::requestPreempt() {
  writeRegister(isa::kRegPREEMPT, isa::kPreemptRequest);
  return true;
}

void HlsBackend::wakeWaiter() {
  std::lock_guard<fabric::PiMutex> lock(mutex_);
  ++wakeups_;
  finished_.wake();
}

fabric::WaitOutcome HlsBackend::waitDone(std::chrono::nanoseconds timeout) {
  // waitFor adds the timeout to now(): keep a "forever" from overflowing.
  timeout = std::min<std::chrono::nanoseconds>(timeout, std::chrono::hours(24));
  std::unique_lock<fabric::PiMutex> lock(mutex_);
  const uint64_t wakeups = wakeups_;
  fabric::waitLocked(finished_, lock, std::chrono::steady_clock::now() + timeout,
                     [&] { return done_ || wakeups_ != wakeups; });
  return done_ ? fabric::WaitOutcome::DONE : fabric::WaitOutcome::TIMED_OUT;
}

void HlsBackend::reset() {
  std::unique_lock<fabric::PiMutex> lock(mutex_);
  abort_ = true;
  updatePreemptLines();
  wake_.wake();
  // The core samples the abort with PREEMPT at every instruction boundary.
  fabric::waitLocked(finished_, lock, std::nullopt, [this] { return !running_; });
  std::fill(std::begin(regs_), std::end(regs_), 0u);
  resetRegisters(regs_);
  abort_ = false;
  finishSoftReset();  // and what a soft reset clears besides the registers
}

void HlsBackend::injectFault(InjectedFault fault) {
  std::lock_guard<fabric::PiMutex> lock(mutex_);
  fault_ = fault;
}

void HlsBackend::finishRun(bool ended, const Stop& stop) {
  if (softReset_ && !abort_) {
    finishSoftReset();
  } else if (ended) {
    if (stop.status == isa::kStatusPREEMPTED) fabric::latency_probe::mark(fabric::latency_probe::Mark::CORE_STOPPED);
    regs_[word(isa::kRegTRACE_COUNT)] = trace_.count;
    regs_[word(isa::kRegTRACE_DROPPED)] = trace_.dropped;
    for (uint32_t k = 0; k < isa::kNumTraceClasses; ++k) {
      const uint32_t at = word(isa::kRegCLASS_CYCLES_CTRL + k * isa::kClassCyclesStride);
      regs_[at] = lo(trace_.classCycles[k]);
      regs_[at + 1] = hi(trace_.classCycles[k]);
    }
    for (uint32_t i = 0; i < trace_.count; ++i) {
      regs_[word(isa::kTRACE_RING_OFFSET) + 2 * i] = lo(trace_.ring[i]);
      regs_[word(isa::kTRACE_RING_OFFSET) + 2 * i + 1] = hi(trace_.ring[i]);
    }
    regs_[word(isa::kRegSTATUS)] = stop.status;
    regs_[word(isa::kRegHALT_PC)] = stop.haltPc;
    regs_[word(isa::kRegFAULT_INFO)] = stop.faultInfo;
    regs_[word(isa::kRegPREEMPT)] = 0;  // the core clears PREEMPT when it stops
    updatePreemptLines();
    done_ = true;
    ready_ = true;
    regs_[word(isa::kRegISR)] |= regs_[word(isa::kRegIER)];
  }
  running_ = false;
  finished_.wake();
}

void HlsBackend::workerLoop() {
  workerTask_.store(fabric::currentTask());
  std::unique_lock<fabric::PiMutex> lock(mutex_);
  for (;;) {
    fabric::waitLocked(wake_, lock, std::nullopt, [this] { return shutdown_ || startPending_ || continuePending_; });
    if (shutdown_) return;
    uint32_t args[kRegisterWords];
    Progress progress;
    InjectedFault fault = InjectedFault::NONE;
    if (continuePending_) {
      continuePending_ = false;
      std::copy(std::begin(continueArgs_), std::end(continueArgs_), std::begin(args));
      progress = continueProgress_;
    } else {
      startPending_ = false;
      std::copy(std::begin(latched_), std::end(latched_), std::begin(args));
      fault = latchedFault_;
    }
    workerExecuting_ = true;
    const bool capped = workerUrgentCapped_;
    lock.unlock();
    Stop stop;
    Outcome outcome = Outcome::BUDGET;
    if (capped) {
      // In bounded calls while raised, the CPU time checked between them.
      const std::chrono::nanoseconds until = fabric::threadCpuTime() + kUrgentContinuationCpu;
      while (outcome == Outcome::BUDGET && fabric::threadCpuTime() < until) {
        outcome = execute(args, fault, &stop, &progress, kUrgentContinuationSliceInstructions);
      }
      if (outcome == Outcome::BUDGET) {
        lock.lock();
        if (workerUrgentCapped_) {  // no stop request lifted the cap meanwhile
          workerUrgentCapped_ = false;
          workerUrgent_ = false;
          fabric::restoreTaskOrdinary(0);  // under the lock: a PREEMPT write cannot interleave
        }
        lock.unlock();
      }
    }
    if (outcome == Outcome::BUDGET) outcome = execute(args, fault, &stop, &progress, 0);
    lock.lock();
    finishRun(outcome == Outcome::STOPPED, stop);
    workerExecuting_ = false;
    workerUrgentCapped_ = false;
    if (workerUrgent_) {
      // Dropped after the lock is released: an ordinary thread holding the
      // lock could be descheduled with an urgent waiter blocked on it.
      workerUrgent_ = false;
      lock.unlock();
      fabric::restoreTaskOrdinary(0);
      lock.lock();
    }
  }
}

// One internal slice's trace after the previous ones: keeping the first
// entries of each slice and then of their concatenation is keeping the first
// of the whole start, as one hardware start does.
void HlsBackend::appendTrace(const uint64_t* ring, uint32_t count, uint32_t dropped, const uint64_t* classCycles) {
  for (uint32_t i = 0; i < count; ++i) {
    if (trace_.count < isa::kTRACE_DEPTH) {
      trace_.ring[trace_.count++] = ring[i];
    } else {
      ++trace_.dropped;
    }
  }
  trace_.dropped += dropped;
  for (uint32_t k = 0; k < isa::kNumTraceClasses; ++k) trace_.classCycles[k] += classCycles[k];
}

// The last part of a host-visible stop (docs/isa.md "Trace ring"): the
// header beat with the start's counters and the start's ring, joined over
// its internal slices, to TRACE_ADDR, as the core writes its own when one
// call is the whole start (the slices get no area). The header also for an
// empty ring. Not after a soft reset. Beat by beat, as the RTL's dump: a
// beat outside device memory is an error response, which turns the stop
// into BUS_ERROR with the first such beat's address (an earlier bus error's
// address stands), as the RTL reports it; the other beats are written.
void HlsBackend::writeTrace(uint32_t mode, uint64_t traceAddr, Stop* stop) {
  if ((mode & isa::kMODE_TRACE) == 0 || traceAddr == 0 || traceAddr % isa::kMEM_BEAT_BYTES != 0) return;
  if (stop->status == isa::kStatusIDLE) return;
  uint64_t header[isa::kTraceHeaderWords64];
  isa::traceHeader(header, trace_.count, trace_.dropped, trace_.classCycles);
  const uint64_t entryBytes = uint64_t{trace_.count} * sizeof(uint64_t);
  const uint64_t beats = 1 + (entryBytes + isa::kMEM_BEAT_BYTES - 1) / isa::kMEM_BEAT_BYTES;
  // One map for the whole area when it is inside device memory (always, from the driver).
  if (uint8_t* area = memory_.map(traceAddr, isa::kTRACE_HEADER_BYTES + entryBytes, sizeof(uint64_t))) {
    std::memcpy(area, header, isa::kTRACE_HEADER_BYTES);
    std::memcpy(area + isa::kTRACE_HEADER_BYTES, trace_.ring, entryBytes);
    return;
  }
  const auto* entries = reinterpret_cast<const uint8_t*>(trace_.ring);
  for (uint64_t beat = 0; beat < beats; ++beat) {
    const uint64_t at = traceAddr + beat * isa::kMEM_BEAT_BYTES;
    const uint64_t bytes = beat == 0 ? isa::kTRACE_HEADER_BYTES
                                     : std::min<uint64_t>(isa::kMEM_BEAT_BYTES, entryBytes - (beat - 1) * isa::kMEM_BEAT_BYTES);
    uint8_t* dst = memory_.map(at, bytes, sizeof(uint64_t));
    if (dst == nullptr) {
      if (stop->status != isa::kStatusBUS_ERROR) {
        stop->status = isa::kStatusBUS_ERROR;
        stop->faultInfo = lo(at);
      }
      continue;
    }
    std::memcpy(dst, beat == 0 ? reinterpret_cast<const uint8_t*>(header) : entries + (beat - 1) * isa::kMEM_BEAT_BYTES,
                bytes);
  }
}

bool HlsBackend::waitForAbort() {
  std::unique_lock<fabric::PiMutex> lock(mutex_);
  fabric::waitLocked(wake_, lock, std::nullopt, [this] { return abort_ || shutdown_; });
  return false;
}

HlsBackend::Outcome HlsBackend::execute(const uint32_t (&args)[kRegisterWords], InjectedFault fault, Stop* stop,
                                        Progress* progress, uint64_t budget) {
  if (fault == InjectedFault::HANG) {
    waitForAbort();
    return Outcome::ABORTED;
  }

  const uint64_t progAddr = join(args[word(isa::kRegPROG_ADDR)], args[word(isa::kRegPROG_ADDR) + 1]);
  const uint64_t dataAddr = join(args[word(isa::kRegDATA_ADDR)], args[word(isa::kRegDATA_ADDR) + 1]);
  const uint64_t ctxAddr = join(args[word(isa::kRegCTX_ADDR)], args[word(isa::kRegCTX_ADDR) + 1]);
  const uint32_t progSize = args[word(isa::kRegPROG_SIZE)];
  const uint32_t dataSize = args[word(isa::kRegDATA_SIZE)];
  const uint32_t mode = args[word(isa::kRegMODE)];
  const uint32_t hostLimit = args[word(isa::kRegINSN_LIMIT)];
  const uint64_t loopBudget = join(args[word(isa::kRegLOOP_BUDGET)], args[word(isa::kRegLOOP_BUDGET) + 1]);
  const uint64_t execBudget = join(args[word(isa::kRegEXEC_BUDGET)], args[word(isa::kRegEXEC_BUDGET) + 1]);
  const uint64_t traceAddr = join(args[word(isa::kRegTRACE_ADDR)], args[word(isa::kRegTRACE_ADDR) + 1]);
  // The data region's windows (docs/isa.md "Memory model"): A at DATA_ADDR,
  // B at SRCB_ADDR, D at DST_ADDR (bits 5:0 of these two taken as zero).
  const isa::WindowBounds windows =
      isa::windowBounds(args[word(isa::kRegSRCB_START)], args[word(isa::kRegDST_START)], dataSize);
  constexpr uint64_t kAddrMask = ~uint64_t{isa::kMEM_BEAT_BYTES - 1};
  const uint64_t windowAddr[isa::kNumWindows] = {
      dataAddr, join(args[word(isa::kRegSRCB_ADDR)], args[word(isa::kRegSRCB_ADDR) + 1]) & kAddrMask,
      join(args[word(isa::kRegDST_ADDR)], args[word(isa::kRegDST_ADDR) + 1]) & kAddrMask};

  // The memory system answers an access outside the device memory (or one
  // the m_axi port cannot make, misaligned) with an error: BUS_ERROR, with
  // the low word of the address. Empty regions are never accessed.
  auto busError = [stop](uint64_t address) {
    stop->status = isa::kStatusBUS_ERROR;
    stop->haltPc = 0;
    stop->faultInfo = lo(address);
    return Outcome::STOPPED;
  };
  const uint64_t progBytes =
      std::min<uint64_t>(progSize, uint64_t{isa::kMAX_PROGRAM_INSTRUCTIONS} * isa::kINSTRUCTION_BYTES);
  const uint8_t* prog = nullptr;
  if (progBytes != 0) {
    prog = memory_.map(progAddr, progBytes, kInstructionAlignment);
    if (prog == nullptr) return busError(progAddr);
  }
  if (fault == InjectedFault::BUS_ERROR) return busError(progAddr);
  // The core really decodes the corrupted word: the fault is its own answer.
  std::vector<uint64_t> corrupted;
  if (fault == InjectedFault::BAD_INSTRUCTION && progBytes != 0) {
    corrupted.resize(progBytes / sizeof(uint64_t) + 1);
    std::memcpy(corrupted.data(), prog, progBytes);
    corrupted[0] = ~uint64_t{0};
    prog = reinterpret_cast<const uint8_t*>(corrupted.data());
  }
  // Each non-empty window's bytes; an empty one is never accessed (its
  // address may be anything) and its port pointer is another window's.
  uint8_t* window[isa::kNumWindows] = {nullptr, nullptr, nullptr};
  uint8_t* anyWindow = nullptr;
  for (uint32_t w = 0; w < isa::kNumWindows; ++w) {
    const uint64_t bytes = isa::windowBytes(windows, w);
    if (bytes == 0) continue;
    window[w] = memory_.map(windowAddr[w], (bytes + kWordBytes - 1) / kWordBytes * kWordBytes, kWordBytes);
    if (window[w] == nullptr) return busError(windowAddr[w]);
    if (anyWindow == nullptr) anyWindow = window[w];
  }
  auto words = [&](uint8_t* bytes) { return reinterpret_cast<uint32_t*>(bytes != nullptr ? bytes : anyWindow); };
  const hls::DataPorts ports = {words(window[isa::kWindowA]), words(window[isa::kWindowB]),
                                words(window[isa::kWindowD])};
  uint8_t* hostContext = memory_.map(ctxAddr, isa::kCONTEXT_BYTES, kWordBytes);
  if (!progress->started) {
    // The first call of this start: its context, its counters.
    progress->started = true;
    if ((mode & isa::kModeResume) != 0) {
      if (hostContext == nullptr) return busError(ctxAddr);
      std::memcpy(context_, hostContext, isa::kCONTEXT_BYTES);
      progress->instret = join(context_[isa::kCtxINSTRET], context_[isa::kCtxINSTRET + 1]);
    }
    progress->retired = 0;
    progress->sliceMode = mode;
    trace_.count = 0;
    trace_.dropped = 0;
    std::fill(std::begin(trace_.classCycles), std::end(trace_.classCycles), 0u);
  }

  const hls::CycleParams params{options_.memLatency};
  const uint32_t slice = std::max(options_.sliceInstructions, 1u);
  volatile const uint32_t* preempt =
      coreView(fault == InjectedFault::IGNORE_PREEMPT ? abortLine_ : preemptLine_);
  uint64_t& instret = progress->instret;
  uint64_t& retired = progress->retired;  // in this host-visible start
  uint32_t& sliceMode = progress->sliceMode;
  const uint64_t budgetEnd = budget == 0 ? 0 : retired + budget;
  // CYCLES as the core will count on: from the saved context when this
  // call resumes, from 0 for a fresh start (the register still shows the
  // previous run's count until the first slice).
  const uint64_t cyclesAtStart =
      (sliceMode & isa::kModeResume) != 0 ? join(context_[isa::kCtxCYCLES], context_[isa::kCtxCYCLES + 1]) : 0;
  // CYCLES is this start's only once a slice of this call has run: before
  // that it still holds the previous run's count (often millions, after a
  // preempted LOW run), which must not end the inline part before it began.
  bool sliced = false;
  for (;;) {
    if (aborting_.load()) return Outcome::ABORTED;
    if (budgetEnd != 0 &&
        (retired >= budgetEnd || (sliced && cycles_.load() - cyclesAtStart >= options_.inlineCycles))) {
      return Outcome::BUDGET;
    }
    uint32_t limit = budgetEnd != 0 ? std::min(slice, kInlineSliceInstructions) : slice;
    if (hostLimit != 0) limit = static_cast<uint32_t>(std::min<uint64_t>(limit, hostLimit - retired));
    if (budgetEnd != 0) limit = static_cast<uint32_t>(std::min<uint64_t>(limit, budgetEnd - retired));
    uint32_t id = 0;
    uint32_t version = 0;
    uint32_t features = 0;
    uint64_t ring[isa::kTRACE_DEPTH];
    uint32_t count = 0;
    uint32_t dropped = 0;
    uint64_t classCycles[isa::kNumTraceClasses] = {};
    const hls::TraceOutputs traceOut = {
        ring, &count, &dropped, {&classCycles[0], &classCycles[1], &classCycles[2], &classCycles[3], &classCycles[4]},
        nullptr};  // the slices write no area: writeTrace does, for the whole start
    hls::nnfab_core_ports(reinterpret_cast<const uint64_t*>(prog), ports, args[word(isa::kRegSRCB_START)],
                          args[word(isa::kRegDST_START)], context_, progSize, dataSize, sliceMode, limit, loopBudget,
                          execBudget, preempt, coreView(watchdogState_), &stop->status, &stop->haltPc,
                          &stop->faultInfo, &features, coreView(cycles_), coreView(iterations_), coreView(instret_),
                          &id, &version, traceOut, params);
    if ((sliceMode & isa::kMODE_TRACE) != 0) appendTrace(ring, count, dropped, classCycles);
    slices_.fetch_add(1);
    sliced = true;
    retired += instret_.load() - instret;
    instret = instret_.load();
    sliceMode |= isa::kModeResume;

    if (stop->status != isa::kStatusSLICE_END && stop->status != isa::kStatusPREEMPTED) {
      writeTrace(mode, traceAddr, stop);
      return Outcome::STOPPED;
    }
    if (aborting_.load()) return Outcome::ABORTED;
    if (stop->status == isa::kStatusSLICE_END && (hostLimit == 0 || retired < hostLimit)) continue;
    // A stop the host sees: its context goes to the host's area.
    if (hostContext == nullptr) return busError(ctxAddr);
    std::memcpy(hostContext, context_, isa::kCONTEXT_BYTES);
    writeTrace(mode, traceAddr, stop);
    return Outcome::STOPPED;
  }
}

}  // namespace nnfab::backends
