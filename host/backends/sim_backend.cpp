#include "backends/sim_backend.h"

#include <algorithm>
#include <functional>
#include <string>

#include "sim_harness.h"

namespace nnfab::backends {
namespace {

// How long each side of a job's hand-off watches for the other on the CPU
// before sleeping in the kernel: the caller for the job's end, the worker
// for the next job (an execution is a few jobs in a row, microseconds
// apart). Asleep, each wake-up of a thread on an idle virtual CPU went
// through the hypervisor: on the project's idle VM a one-ADD execution's
// host overhead was 145-152 us, against 34-44 us while other work kept both
// CPUs awake (docs/performance.md "The sim hand-offs on an idle machine").
// A spin that fails (the other thread did not get a CPU in time: a loaded
// machine) turns spinning off for the next kSpinBackoff waits of that side.
constexpr std::chrono::microseconds kHandOffSpin{50};
constexpr uint32_t kSpinBackoff = 64;
// The worker's spin also fails whenever no job follows (the end of an
// execution), so it backs off for less.
constexpr uint32_t kWorkerSpinBackoff = 2;

// The core's stop, waited for by the driver: a short run's (a one-ADD step
// is about 75 us of simulation on the idle VM) is watched for on the CPU.
constexpr std::chrono::microseconds kDoneSpin{150};

// Waits on `word` past `epoch` (it may end early: the caller checks its
// condition), spinning first unless recent spins failed.
void handOffWait(fabric::WakeWord& word, uint32_t epoch, fabric::SpinBackoff& side, uint32_t backoff) {
  if (side.watch(word, epoch, kHandOffSpin, backoff) == fabric::SpinBackoff::Outcome::SEEN) return;
  word.waitUntil(epoch, std::nullopt);
}

}  // namespace

SimBackend::SimBackend(SimBackendOptions options)
    : HostMemoryBackend(options.memoryBytes), options_(std::move(options)), worker_([this] { workerLoop(); }) {}

SimBackend::~SimBackend() {
  {
    std::lock_guard<fabric::PiMutex> lock(mutex_);
    shutdown_ = true;
  }
  wake_.wake();
  worker_.join();
}

bool SimBackend::onWorker(Job job) {
  std::unique_lock<fabric::PiMutex> lock(mutex_);
  if (!failure_.empty()) return false;
  const uint64_t ticket = ++posted_;
  jobs_.emplace_back(ticket, std::move(job));
  // Both hand-offs wake the other thread only after letting go of the lock
  // it takes first thing: a contended PiMutex goes through the kernel on
  // both sides (docs/performance.md "Host overhead ...").
  const uint32_t epoch = finished_.epoch();
  lock.unlock();
  wake_.wake();
  handOffWait(finished_, epoch, callerSpin_, kSpinBackoff);  // may end early: checked below
  lock.lock();
  fabric::waitLocked(finished_, lock, std::nullopt, [&] { return completed_ >= ticket; });
  return failure_.empty();
}

void SimBackend::fail(const char* what) {
  if (failure_.empty()) {
    failure_ = std::string("sim: ") + what +
               "; the sim device is out of use until the process ends (an RTL bug: docs/rtl.md \"Assertions\")";
  }
  running_ = false;
  done_ = true;  // waitDone returns at once; CoreDriver then reads usable()
  doneWake_.wake();
}

Status SimBackend::usable() const {
  std::lock_guard<fabric::PiMutex> lock(mutex_);
  return failure_.empty() ? Status::ok() : Status(ErrorStatus::DEVICE_UNAVAILABLE, failure_);
}

namespace {

// Runs `step`; what it threw, or empty. A failed RTL assertion or AXI rule
// (RtlAssertionError, AxiProtocolError) is an RTL bug: the device goes out
// of use, and the process goes on.
std::string caught(const std::function<void()>& step) {
  try {
    step();
    return {};
  } catch (const std::exception& e) {
    const char* what = e.what();
    return what != nullptr && what[0] != '\0' ? what : "an exception with no message";
  } catch (...) {
    return "an exception that is not a std::exception";
  }
}

}  // namespace

void SimBackend::observe(const sim::SimHarness& harness) {
  cycles_.store(harness.cycle());
  running_ = !harness.coreIdle();
  if (harness.stops() != stopsSeen_) {
    stopsSeen_ = harness.stops();
    done_ = true;
    events_.done = harness.lastStopCycle();
    doneWake_.wake();
  }
}

void SimBackend::workerLoop() {
  // The model is created, clocked and destroyed on this thread only.
  sim::HarnessConfig config;
  config.memory = options_.memory;
  config.srcbMemory = options_.srcbMemory;
  config.dstMemory = options_.dstMemory;
  config.traceFile = options_.traceFile;
  sim::SimHarness harness(config, [this](uint64_t address) {
    return memory_.map(address, sim::kBeatBytes, sim::kBeatBytes);
  });
  if (options_.tap) harness.setTap(options_.tap.get());
  std::unique_lock<fabric::PiMutex> lock(mutex_);
  observe(harness);
  for (;;) {
    if (!jobs_.empty()) {
      // Named members rather than a structured binding: clang 14 (the fuzz
      // preset's compiler) cannot capture a binding in the lambda below.
      const uint64_t ticket = jobs_.front().first;
      Job job = std::move(jobs_.front().second);
      jobs_.pop_front();
      // A job queued before the device went out of use is not run.
      const bool usable = failure_.empty();
      lock.unlock();
      const std::string error = usable ? caught([&] { job(harness); }) : std::string();
      lock.lock();
      if (!error.empty()) {
        fail(error.c_str());
      } else if (usable) {
        observe(harness);
      }
      completed_ = ticket;
      if (jobs_.empty() && !running_ && !shutdown_) {
        // Nothing else to do: sleep right after the wake-up, without taking
        // the lock the woken caller wants.
        const uint32_t epoch = wake_.epoch();
        lock.unlock();
        finished_.wake();
        handOffWait(wake_, epoch, workerSpin_, kWorkerSpinBackoff);
        lock.lock();
      } else {
        lock.unlock();
        finished_.wake();
        lock.lock();
      }
      continue;
    }
    if (shutdown_) return;
    if (running_) {
      lock.unlock();
      const std::string error = caught([&] { harness.run(options_.batchCycles, /*untilIdle=*/true); });
      lock.lock();
      if (!error.empty()) {
        fail(error.c_str());
      } else {
        observe(harness);
      }
      continue;
    }
    fabric::waitLocked(wake_, lock, std::nullopt, [this] { return shutdown_ || !jobs_.empty(); });
  }
}

namespace {

bool inWindow(uint32_t offset) { return offset % sizeof(uint32_t) == 0 && offset < isa::kRegWindowBytes; }

}  // namespace

SimFault SimBackend::currentFault() const {
  std::lock_guard<fabric::PiMutex> lock(mutex_);
  return fault_;
}

void SimBackend::writeOnWorker(sim::SimHarness& h, uint32_t offset, uint32_t value, SimFault fault) {
  if (!inWindow(offset)) return;
  // IGNORE_PREEMPT hides preemption requests; a soft reset still arrives.
  if (offset == isa::kRegPREEMPT && fault == SimFault::IGNORE_PREEMPT && value != isa::kSOFT_RESET_KEY) return;
  uint32_t* heldAt = nullptr;
  if (offset >= kConfigFirst && offset < kConfigEnd) heldAt = &config_[(offset - kConfigFirst) / sizeof(uint32_t)];
  if (offset == isa::kRegTRACE_ADDR || offset == isa::kRegTRACE_ADDR + 4) {
    heldAt = &traceAddr_[(offset - isa::kRegTRACE_ADDR) / sizeof(uint32_t)];
  }
  if (heldAt != nullptr) {
    uint32_t& held = *heldAt;
    if (held == value) {
      ++skippedWrites_;
      return;
    }
    held = value;
  }
  const bool starting = offset == isa::kRegAP_CTRL && (value & isa::kAP_START) != 0 && h.coreIdle();
  if (starting && fault == SimFault::HANG) {
    h.programMemory().hang();
    h.dataMemory().hang();
    h.srcbMemory().hang();
    h.dstMemory().hang();
  }
  const uint64_t stopsBefore = h.stops();
  h.writeRegister(offset, value);
  std::lock_guard<fabric::PiMutex> lock(mutex_);
  if (starting) {
    // The core accepts the start within the transaction.
    events_ = SimRunEvents{};
    events_.startAccepted = h.lastStartCycle();
    if (h.stops() == stopsBefore) done_ = false;
  }
  if (offset == isa::kRegPREEMPT && (value & isa::kPreemptRequest) != 0) events_.preemptWritten = h.cycle();
}

uint32_t SimBackend::readOnWorker(sim::SimHarness& h, uint32_t offset) {
  if (!inWindow(offset)) return 0;
  const uint32_t value = h.readRegister(offset);
  // AP_DONE is clear-on-read: the host has now seen it.
  if (offset == isa::kRegAP_CTRL && (value & isa::kAP_DONE) != 0) {
    std::lock_guard<fabric::PiMutex> lock(mutex_);
    done_ = false;
  }
  return value;
}

void SimBackend::writeRegister(uint32_t offset, uint32_t value) {
  fabric::RegisterAccess access{fabric::RegisterAccess::Kind::WRITE, offset, value};
  accessRegisters({&access, 1});
}

uint32_t SimBackend::readRegister(uint32_t offset) {
  fabric::RegisterAccess access{fabric::RegisterAccess::Kind::READ, offset, 0};
  accessRegisters({&access, 1});
  return access.value;
}

void SimBackend::accessRegisters(std::span<fabric::RegisterAccess> accesses) {
  const SimFault fault = currentFault();
  bool controlWritten = false;
  for (const fabric::RegisterAccess& a : accesses) {
    controlWritten |= a.kind == fabric::RegisterAccess::Kind::WRITE && a.offset == isa::kRegAP_CTRL;
  }
  const bool ran = onWorker([this, accesses, fault](sim::SimHarness& h) {
    for (fabric::RegisterAccess& a : accesses) {
      if (a.kind == fabric::RegisterAccess::Kind::WRITE) {
        writeOnWorker(h, a.offset, a.value, fault);
      } else {
        a.value = readOnWorker(h, a.offset);
      }
    }
  });
  if (!ran) {
    // Out of use: reads return 0, as a card that stopped answering does.
    for (fabric::RegisterAccess& a : accesses) {
      if (a.kind == fabric::RegisterAccess::Kind::READ) a.value = 0;
    }
    return;
  }
  if (controlWritten) wake_.wake();
}

void SimBackend::wakeWaiter() {
  std::lock_guard<fabric::PiMutex> lock(mutex_);
  ++wakeups_;
  doneWake_.wake();
}

fabric::WaitOutcome SimBackend::waitDone(std::chrono::nanoseconds timeout) {
  // wait_for adds the timeout to now(): keep a "forever" from overflowing.
  timeout = std::min<std::chrono::nanoseconds>(timeout, std::chrono::hours(24));
  const auto until = std::chrono::steady_clock::now() + timeout;
  std::unique_lock<fabric::PiMutex> lock(mutex_);
  const uint64_t wakeups = wakeups_;
  if (!done_ && timeout >= kDoneSpin) {
    const uint32_t epoch = doneWake_.epoch();
    lock.unlock();
    (void)doneSpin_.watch(doneWake_, epoch, kDoneSpin, kSpinBackoff);
    lock.lock();
  }
  fabric::waitLocked(doneWake_, lock, until, [&] { return done_ || wakeups_ != wakeups; });
  return done_ ? fabric::WaitOutcome::DONE : fabric::WaitOutcome::TIMED_OUT;
}

void SimBackend::reset() {
  // A reset does not bring a device out of use back: its RTL broke a rule.
  const bool ran = onWorker([this](sim::SimHarness& h) {
    h.reset();
    config_.fill(0);  // the slave's reset values
    traceAddr_.fill(0);
  });
  if (!ran) return;
  std::lock_guard<fabric::PiMutex> lock(mutex_);
  done_ = false;
  fault_ = SimFault::NONE;
}

void SimBackend::injectFault(SimFault fault) {
  {
    std::lock_guard<fabric::PiMutex> lock(mutex_);
    fault_ = fault;
  }
  if (fault == SimFault::BUS_ERROR) onWorker([](sim::SimHarness& h) { h.dataMemory().failNextAccess(); });
}

void SimBackend::injectBusErrorAt(fabric::DeviceAddress address) {
  onWorker([address](sim::SimHarness& h) {
    h.programMemory().failAddress(address);
    h.dataMemory().failAddress(address);
    h.srcbMemory().failAddress(address);
    h.dstMemory().failAddress(address);
  });
}

SimRunEvents SimBackend::lastRunEvents() const {
  std::lock_guard<fabric::PiMutex> lock(mutex_);
  return events_;
}

}  // namespace nnfab::backends
