// fabric/urgent_thread.h: which threads the preemption path raises to
// real-time priority, and that every raise is undone (docs/qos.md "Threads
// on the preemption path"). Where this process may not use SCHED_FIFO the
// raises are no-ops and the tests that need one skip, saying why.
#include <gtest/gtest.h>

#include <pthread.h>
#include <sched.h>
#include <time.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "fabric/urgent_thread.h"

namespace nnfab::fabric {
namespace {

using namespace std::chrono_literals;

int policy() { return sched_getscheduler(0); }

void burnCpu(std::chrono::nanoseconds cpu) {
  timespec start{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start);
  for (;;) {
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    const auto used = std::chrono::seconds(now.tv_sec - start.tv_sec) + std::chrono::nanoseconds(now.tv_nsec - start.tv_nsec);
    if (used >= cpu) return;
  }
}

#define REQUIRE_URGENT_THREADS()                                                    \
  if (!urgentThreadsPermitted()) GTEST_SKIP() << urgentThreadsDescription()

TEST(UrgentThread, TheProbeSaysWhatItFound) {
  EXPECT_FALSE(urgentThreadsDescription().empty());
  EXPECT_EQ(policy(), SCHED_OTHER);  // probing leaves the thread as it was
}

TEST(UrgentThread, AScopeRaisesAnOrdinaryThreadAndRestoresIt) {
  REQUIRE_URGENT_THREADS();
  {
    const UrgentScope urgent;
    EXPECT_EQ(policy(), SCHED_FIFO);
    {
      const UrgentScope nested;  // already real-time: left alone, not restored early
      EXPECT_EQ(policy(), SCHED_FIFO);
    }
    EXPECT_EQ(policy(), SCHED_FIFO);
  }
  EXPECT_EQ(policy(), SCHED_OTHER);
  const UrgentScope unwanted(false);
  EXPECT_EQ(policy(), SCHED_OTHER);
}

TEST(UrgentThread, APolicyItsOwnerChoseIsLeftAlone) {
  REQUIRE_URGENT_THREADS();
  std::thread batch([] {
    sched_param none{};
    ASSERT_EQ(pthread_setschedparam(pthread_self(), SCHED_BATCH, &none), 0);
    EXPECT_FALSE(raiseTaskToUrgent(currentTask()));
    {
      const UrgentScope urgent;
      EXPECT_EQ(policy(), SCHED_BATCH);
    }
    EXPECT_EQ(policy(), SCHED_BATCH);
  });
  batch.join();
}

TEST(UrgentThread, AnExecutionIsOrdinaryWhileItsCpuWorkRunsAndDropsBackOnceItsBudgetIsSpent) {
  REQUIRE_URGENT_THREADS();
  {
    UrgentExecution execution(true, 1s);
    EXPECT_EQ(policy(), SCHED_FIFO);
    {
      const UrgentExecution::Pause cpuWork(&execution);
      EXPECT_EQ(policy(), SCHED_OTHER);
    }
    EXPECT_EQ(policy(), SCHED_FIFO);  // within its budget: urgent again
    execution.checkBudget();
    EXPECT_EQ(policy(), SCHED_FIFO);
  }
  // Its result goes back in the hand-off window (the next test's subject).
  EXPECT_TRUE(selfHandOffPending());
  restorePendingSelf();
  EXPECT_EQ(policy(), SCHED_OTHER);
  {
    // CPU work paused out of the urgency still counts against the budget.
    UrgentExecution execution(true, 2ms);
    {
      const UrgentExecution::Pause cpuWork(&execution);
      burnCpu(3ms);
    }
    EXPECT_EQ(policy(), SCHED_OTHER);
    execution.checkBudget();
    EXPECT_EQ(policy(), SCHED_OTHER);
  }
  {
    UrgentExecution execution(true, 0ns);
    execution.checkBudget();  // spent at once
    EXPECT_EQ(policy(), SCHED_OTHER);
    const UrgentExecution::Pause cpuWork(&execution);  // nothing to pause
    EXPECT_EQ(policy(), SCHED_OTHER);
  }
  EXPECT_EQ(policy(), SCHED_OTHER);
  UrgentExecution unwanted(false);
  EXPECT_EQ(policy(), SCHED_OTHER);
}

// Polls (ordinary) until the calling thread is back to SCHED_OTHER: how long it took.
std::chrono::nanoseconds untilOrdinary(std::chrono::nanoseconds limit) {
  const auto start = std::chrono::steady_clock::now();
  while (policy() != SCHED_OTHER && std::chrono::steady_clock::now() - start < limit) {
    std::this_thread::sleep_for(50us);
  }
  return std::chrono::steady_clock::now() - start;
}

TEST(UrgentThread, AnExecutionHandsItsResultOverUrgentAndTheDemoterEndsTheWindow) {
  REQUIRE_URGENT_THREADS();
  const auto ended = std::chrono::steady_clock::now();
  { UrgentExecution execution(true); }
  EXPECT_EQ(policy(), SCHED_FIFO);  // still urgent while the result goes back
  EXPECT_TRUE(selfHandOffPending());
  untilOrdinary(5s);
  const auto closed = std::chrono::steady_clock::now() - ended;
  EXPECT_EQ(policy(), SCHED_OTHER);
  EXPECT_FALSE(selfHandOffPending());
  // Never before the window's end (its upper end is the demoter's wake-up:
  // at real-time priority, prompt, but not asserted on a shared machine).
  EXPECT_GE(closed, kHandOffWindow);
}

// The demoter sleeps on a timer armed for the earliest open window; the
// windows of several threads, opened one after another, each close no
// earlier than their own end, and every one of them closes.
TEST(UrgentThread, TheWindowsOfSeveralThreadsEachCloseAfterTheirOwnEnd) {
  REQUIRE_URGENT_THREADS();
  constexpr int kThreads = 3;
  std::vector<std::thread> threads;
  std::vector<std::chrono::nanoseconds> closed(kThreads);
  std::vector<int> policyAfter(kThreads, -1);
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&, i] {
      std::this_thread::sleep_for(i * 300us);  // staggered ends: the timer moves on from one to the next
      const auto ended = std::chrono::steady_clock::now();
      { UrgentExecution execution(true); }
      untilOrdinary(5s);
      closed[i] = std::chrono::steady_clock::now() - ended;
      policyAfter[i] = policy();
    });
  }
  for (std::thread& t : threads) t.join();
  for (int i = 0; i < kThreads; ++i) {
    EXPECT_EQ(policyAfter[i], SCHED_OTHER) << "thread " << i;
    EXPECT_GE(closed[i], kHandOffWindow) << "thread " << i;
    EXPECT_LT(closed[i], 5s) << "thread " << i;
  }
}

TEST(UrgentThread, TheNextHighRequestTakesTheWindowOverAndALowerOneClosesIt) {
  REQUIRE_URGENT_THREADS();
  { UrgentExecution first(true); }
  ASSERT_TRUE(selfHandOffPending());
  {
    UrgentExecution second(true);
    EXPECT_TRUE(second.raised());
    EXPECT_FALSE(selfHandOffPending());
    // The window was taken over: the demoter does not end this execution's urgency.
    std::this_thread::sleep_for(3 * kHandOffWindow);
    EXPECT_EQ(policy(), SCHED_FIFO);
  }
  ASSERT_TRUE(selfHandOffPending());
  {
    const UrgentExecution low(false);  // a lower request closes the window at once
    EXPECT_EQ(policy(), SCHED_OTHER);
    EXPECT_FALSE(selfHandOffPending());
  }
  EXPECT_EQ(policy(), SCHED_OTHER);
  // A budget spent before the end leaves no window.
  {
    UrgentExecution spent(true, 0ns);
    spent.checkBudget();
  }
  EXPECT_EQ(policy(), SCHED_OTHER);
  EXPECT_FALSE(selfHandOffPending());
}

TEST(UrgentThread, AWaiterIsUrgentWhileItWaitsAndThroughTheHandOffOnlyIfItGotTheResult) {
  REQUIRE_URGENT_THREADS();
  {
    UrgentHandOffScope waiting(true);
    EXPECT_EQ(policy(), SCHED_FIFO);
  }
  EXPECT_EQ(policy(), SCHED_OTHER);  // a timeout: nothing to hand over
  EXPECT_FALSE(selfHandOffPending());
  {
    UrgentHandOffScope waiting(true);
    waiting.delivered();
  }
  EXPECT_EQ(policy(), SCHED_FIFO);
  EXPECT_TRUE(selfHandOffPending());
  untilOrdinary(5s);
  EXPECT_EQ(policy(), SCHED_OTHER);
  {
    const UrgentHandOffScope unwanted(false);
    EXPECT_EQ(policy(), SCHED_OTHER);
  }
}

TEST(UrgentThread, AThreadThatExitsInItsWindowLeavesTheDemotersList) {
  REQUIRE_URGENT_THREADS();
  for (int k = 0; k < 20; ++k) {
    std::thread t([] {
      { UrgentExecution execution(true); }
      EXPECT_TRUE(selfHandOffPending());
    });
    t.join();
  }
  // The demoter, past all those windows, still closes a live thread's.
  std::this_thread::sleep_for(3 * kHandOffWindow);
  { UrgentExecution execution(true); }
  EXPECT_TRUE(selfHandOffPending());
  untilOrdinary(5s);
  EXPECT_EQ(policy(), SCHED_OTHER);
}

TEST(UrgentThread, AnotherThreadCanBeRaisedAndRestored) {
  REQUIRE_URGENT_THREADS();
  std::mutex m;
  std::condition_variable cv;
  int step = 0;  // 1 raised, 2 looked, 3 restored
  int seen[2] = {-1, -1};
  pid_t task = 0;
  std::thread t([&] {
    std::unique_lock<std::mutex> lock(m);
    task = currentTask();
    cv.notify_all();
    cv.wait(lock, [&] { return step == 1; });
    seen[0] = policy();
    step = 2;
    cv.notify_all();
    cv.wait(lock, [&] { return step == 3; });
    seen[1] = policy();
  });
  std::unique_lock<std::mutex> lock(m);
  cv.wait(lock, [&] { return task != 0; });
  EXPECT_TRUE(raiseTaskToUrgent(task));
  step = 1;
  cv.notify_all();
  cv.wait(lock, [&] { return step == 2; });
  restoreTaskOrdinary(task);
  step = 3;
  cv.notify_all();
  lock.unlock();
  t.join();
  EXPECT_EQ(seen[0], SCHED_FIFO);
  EXPECT_EQ(seen[1], SCHED_OTHER);
}

TEST(PiMutex, HandsOverWithAConditionVariable) {
  // Two threads take turns: one makes the count odd, the other even.
  PiMutex mutex;
  std::condition_variable_any cv;
  int count = 0;
  constexpr int kTurns = 2000;
  auto player = [&](int parity) {
    for (;;) {
      std::unique_lock<PiMutex> lock(mutex);
      cv.wait(lock, [&] { return count >= kTurns || count % 2 == parity; });
      if (count >= kTurns) return;
      ++count;
      cv.notify_all();
    }
  };
  std::thread odd(player, 1);
  player(0);
  odd.join();
  EXPECT_EQ(count, kTurns);
  EXPECT_TRUE(mutex.try_lock());
  mutex.unlock();
}

}  // namespace
}  // namespace nnfab::fabric
