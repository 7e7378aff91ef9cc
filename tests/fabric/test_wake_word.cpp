// fabric/wake_word.h: the direct wake-up the preemption path uses instead of
// condition variables (docs/qos.md "Threads on the preemption path"): no
// wake-up is lost between reading the epoch and waiting, a timeout is kept,
// a wake reaches the thread waiting on that word and no other.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include "fabric/urgent_thread.h"
#include "fabric/wake_word.h"

namespace nnfab::fabric {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

TEST(WakeWord, AWakeAfterTheEpochWasReadEndsTheWaitAtOnce) {
  WakeWord word;
  const uint32_t epoch = word.epoch();
  word.wake();  // between reading the epoch and waiting: not lost
  const auto start = Clock::now();
  EXPECT_TRUE(word.waitUntil(epoch, Clock::now() + 10s));
  EXPECT_LT(Clock::now() - start, 1s);
  EXPECT_NE(word.epoch(), epoch);
}

TEST(WakeWord, AWaitWithoutAWakeEndsAtItsTimeAndSaysSo) {
  WakeWord word;
  const auto start = Clock::now();
  EXPECT_FALSE(word.waitFor(word.epoch(), 5ms));
  EXPECT_GE(Clock::now() - start, 5ms);
  // A time already passed does not block at all.
  EXPECT_FALSE(word.waitUntil(word.epoch(), Clock::now() - 1ms));
}

// The spin (the sim backend's hand-offs): it sees a wake() that comes
// while it watches, which then makes no system call (no waiter is counted),
// and gives up after its time without one.
TEST(WakeWord, ASpinSeesAWakeWhileItWatchesAndOtherwiseGivesUp) {
  WakeWord word;
  uint32_t epoch = word.epoch();
  EXPECT_FALSE(word.spinFor(epoch, 200us));
  std::atomic<bool> spinning{false};
  std::thread waker([&] {
    while (!spinning.load()) std::this_thread::yield();
    std::this_thread::sleep_for(1ms);
    word.wake();
  });
  epoch = word.epoch();
  spinning = true;
  const auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(word.spinFor(epoch, 10s));
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s) << "the spin ended at the wake, not at its time";
  waker.join();
  epoch = word.epoch();
  word.wake();
  EXPECT_TRUE(word.spinFor(epoch, 0us)) << "a wake before the spin: seen at once";
}

TEST(WakeWord, AWakeReachesTheThreadWaitingOnItsWordAndNoOther) {
  WakeWord mine;
  WakeWord other;
  std::atomic<int> woken{0};
  auto waiter = [&woken](WakeWord& word) {
    const uint32_t epoch = word.epoch();
    while (word.epoch() == epoch) word.waitUntil(epoch, std::nullopt);  // no limit: only a wake ends it
    woken.fetch_add(1);
  };
  std::thread a(waiter, std::ref(mine));
  std::thread b(waiter, std::ref(other));
  std::this_thread::sleep_for(20ms);  // both asleep in the kernel by now (a late one returns at once anyway)
  mine.wake();
  const auto until = Clock::now() + 5s;
  while (woken.load() == 0 && Clock::now() < until) std::this_thread::sleep_for(1ms);
  std::this_thread::sleep_for(20ms);
  EXPECT_EQ(woken.load(), 1);  // `other`'s waiter still sleeps
  other.wake();
  a.join();
  b.join();
  EXPECT_EQ(woken.load(), 2);
}

TEST(WakeWord, WaitLockedWaitsForItsConditionUnderItsLock) {
  PiMutex mutex;
  WakeWord word;
  bool ready = false;
  std::thread setter([&] {
    std::this_thread::sleep_for(10ms);
    {
      std::lock_guard<PiMutex> lock(mutex);
      ready = true;
    }
    word.wake();
  });
  std::unique_lock<PiMutex> lock(mutex);
  EXPECT_TRUE(waitLocked(word, lock, Clock::now() + 10s, [&] { return ready; }));
  EXPECT_TRUE(lock.owns_lock());
  EXPECT_FALSE(waitLocked(word, lock, Clock::now() + 2ms, [] { return false; }));  // times out, lock held
  EXPECT_TRUE(lock.owns_lock());
  lock.unlock();
  setter.join();
}

}  // namespace
}  // namespace nnfab::fabric
