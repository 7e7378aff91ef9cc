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
    EXPECT_FALSE(raiseToUrgent(pthread_self()));
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

TEST(UrgentThread, AnotherThreadCanBeRaisedAndRestored) {
  REQUIRE_URGENT_THREADS();
  std::mutex m;
  std::condition_variable cv;
  int step = 0;  // 1 raised, 2 looked, 3 restored
  int seen[2] = {-1, -1};
  std::thread t([&] {
    std::unique_lock<std::mutex> lock(m);
    cv.wait(lock, [&] { return step == 1; });
    seen[0] = policy();
    step = 2;
    cv.notify_all();
    cv.wait(lock, [&] { return step == 3; });
    seen[1] = policy();
  });
  std::unique_lock<std::mutex> lock(m);
  EXPECT_TRUE(raiseToUrgent(t.native_handle()));
  step = 1;
  cv.notify_all();
  cv.wait(lock, [&] { return step == 2; });
  restoreOrdinary(t.native_handle());
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
