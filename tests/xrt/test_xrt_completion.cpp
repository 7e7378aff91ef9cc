// The xrt backend's wait for AP_DONE (backends/xrt_completion.h) on fake
// hooks: by polling (hw_emu, noop) and by interrupt (a card), with lost and
// spurious interrupts, timeouts and wake requests.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "backends/xrt_completion.h"

namespace nnfab::backends {
namespace {

using namespace std::chrono_literals;
using fabric::WaitOutcome;

// A core that finishes at its doneAfter-th AP_CTRL read (0: never).
struct FakeCore {
  int reads = 0;
  int doneAfter = 0;
  int interrupts = 0;     // waits answered by an interrupt
  int acknowledged = 0;   // ISR writes
  int waits = 0;
  bool interruptFires = true;  // false: the interrupt is lost
  bool spurious = false;       // an interrupt arrives while not done

  CompletionHooks hooks(bool withInterrupt) {
    CompletionHooks h;
    h.done = [this] { return ++reads == doneAfter; };
    if (withInterrupt) {
      h.waitInterrupt = [this](std::chrono::milliseconds slice) {
        ++waits;
        // The core finishes during this wait when the next read is the done one.
        const bool finishing = reads + 1 == doneAfter;
        if ((finishing && interruptFires) || spurious) {
          ++interrupts;
          return true;
        }
        std::this_thread::sleep_for(slice);
        return false;
      };
      h.acknowledgeInterrupt = [this] { ++acknowledged; };
    }
    return h;
  }
};

TEST(XrtCompletion, PollingReadsUntilDone) {
  FakeCore core;
  core.doneAfter = 5;
  std::atomic<uint64_t> wakeups{0};
  CompletionTiming timing;
  timing.pollInterval = 10us;
  EXPECT_EQ(waitForCompletion(core.hooks(false), timing, 1s, wakeups), WaitOutcome::DONE);
  EXPECT_EQ(core.reads, 5);
}

TEST(XrtCompletion, AnInterruptEndsTheWaitAndIsAcknowledged) {
  FakeCore core;
  core.doneAfter = 2;
  std::atomic<uint64_t> wakeups{0};
  const auto start = std::chrono::steady_clock::now();
  CompletionTiming timing;
  timing.interruptRecheck = 500ms;  // long: only the interrupt can end the wait early
  EXPECT_EQ(waitForCompletion(core.hooks(true), timing, 10s, wakeups), WaitOutcome::DONE);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 400ms);
  EXPECT_EQ(core.interrupts, 1);
  EXPECT_EQ(core.acknowledged, 1);
  EXPECT_EQ(core.reads, 2);
}

TEST(XrtCompletion, ALostInterruptCostsAtMostTheRecheckInterval) {
  FakeCore core;
  core.doneAfter = 3;
  core.interruptFires = false;
  std::atomic<uint64_t> wakeups{0};
  CompletionTiming timing;
  timing.interruptRecheck = 2ms;
  EXPECT_EQ(waitForCompletion(core.hooks(true), timing, 10s, wakeups), WaitOutcome::DONE);
  EXPECT_EQ(core.waits, 2);  // one recheck slice per read that was not done
  EXPECT_EQ(core.acknowledged, 0);
}

TEST(XrtCompletion, ASpuriousInterruptDoesNotEndTheWait) {
  FakeCore core;
  core.doneAfter = 4;
  core.spurious = true;
  std::atomic<uint64_t> wakeups{0};
  EXPECT_EQ(waitForCompletion(core.hooks(true), CompletionTiming{}, 10s, wakeups), WaitOutcome::DONE);
  EXPECT_EQ(core.reads, 4);
  EXPECT_EQ(core.acknowledged, 3);
}

TEST(XrtCompletion, TimesOutOnACoreThatNeverFinishes) {
  for (bool withInterrupt : {false, true}) {
    FakeCore core;
    std::atomic<uint64_t> wakeups{0};
    const auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(waitForCompletion(core.hooks(withInterrupt), CompletionTiming{}, 20ms, wakeups), WaitOutcome::TIMED_OUT);
    const auto took = std::chrono::steady_clock::now() - start;
    EXPECT_GE(took, 20ms);
    EXPECT_LT(took, 2s) << withInterrupt;
    EXPECT_GT(core.reads, 1);
  }
}

TEST(XrtCompletion, AWakeRequestEndsAWaitInProgressOnly) {
  for (bool withInterrupt : {false, true}) {
    FakeCore core;
    std::atomic<uint64_t> wakeups{7};  // earlier wakes do not end a new wait
    // Taken before the waker starts: the wake comes at least 30 ms after it.
    const auto start = std::chrono::steady_clock::now();
    std::thread waker([&] {
      std::this_thread::sleep_for(30ms);
      ++wakeups;
    });
    EXPECT_EQ(waitForCompletion(core.hooks(withInterrupt), CompletionTiming{}, 10s, wakeups), WaitOutcome::TIMED_OUT);
    waker.join();
    const auto took = std::chrono::steady_clock::now() - start;
    EXPECT_GE(took, 30ms);
    EXPECT_LT(took, 5s) << withInterrupt;
  }
}

}  // namespace
}  // namespace nnfab::backends
