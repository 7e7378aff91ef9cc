// A direct wake-up from one thread to another (docs/qos.md "Threads on the
// preemption path"): the waiter sleeps on a word of its own in the kernel
// (a futex), the waker changes the word and wakes it, and nothing else is
// shared between them. A condition variable shares more: glibc's
// pthread_cond_* (2.36) keep an internal lock and a count of waiters that
// are still leaving an earlier wake-up, and a broadcast waits for those
// waiters to go. When they are ordinary threads descheduled on a loaded
// host, the broadcaster, which may be the thread a HIGH request waits for,
// blocks for milliseconds outside any priority inheritance. The latency
// probe saw exactly that in the grant of the core and after a HIGH run.
//
// The protocol is the condition variable's without its lock: read epoch()
// while the condition is still false (under the lock that guards it, or
// after the condition's own atomic store), check the condition, then
// wait(epoch); the waker makes the condition true, then calls wake(). A
// wake() after the epoch was read ends the wait at once, so no wake-up is
// lost; a wait may also end early (a signal, another wake-up), so the
// caller checks its condition again.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>

namespace nnfab::fabric {

class WakeWord {
 public:
  WakeWord() = default;
  WakeWord(const WakeWord&) = delete;
  WakeWord& operator=(const WakeWord&) = delete;

  uint32_t epoch() const { return word_.load(std::memory_order_seq_cst); }
  // Blocks while the word still holds `epoch`, at most until `until` (the
  // steady clock; none: no limit). False when it returned because `until`
  // passed.
  bool waitUntil(uint32_t epoch, std::optional<std::chrono::steady_clock::time_point> until);
  // Watches the word on the CPU for up to `spin` without sleeping; true
  // when it moved on from `epoch` meanwhile. For hand-offs answered within
  // microseconds: a thread asleep in the kernel on an otherwise idle
  // virtual machine is woken through the hypervisor, tens of microseconds
  // per wake-up. On a loaded machine the spin only burns the CPU the other
  // thread needs, so callers stop spinning when spins keep failing.
  bool spinFor(uint32_t epoch, std::chrono::nanoseconds spin) const;
  bool waitFor(uint32_t epoch, std::chrono::nanoseconds timeout) {
    return waitUntil(epoch, std::chrono::steady_clock::now() + timeout);
  }
  // Every thread waiting on this word returns (in nnfab's uses, one at
  // most: the word belongs to one waiter). A system call only when a
  // thread waits.
  void wake();

 private:
  std::atomic<uint32_t> word_{0};
  std::atomic<uint32_t> waiters_{0};
};

// A watch on the CPU before a sleep (WakeWord::spinFor) that stops
// watching for a while once a watch ran out: on a loaded machine the other
// thread does not get a CPU in time, and watching only burns the CPU it
// needs. One per waiting side; safe to share between threads (a skip
// counted twice or not at all only shortens or lengthens the pause).
class SpinBackoff {
 public:
  enum class Outcome { SKIPPED, SEEN, RAN_OUT };
  // SKIPPED while the pause after a watch that ran out lasts (one wait of
  // `backoff` fewer each call); otherwise watches `word` past `epoch` for up
  // to `spin`: SEEN when it moved on, RAN_OUT (and a pause of `backoff`
  // waits begins) when it did not.
  Outcome watch(const WakeWord& word, uint32_t epoch, std::chrono::nanoseconds spin, uint32_t backoff);

 private:
  std::atomic<uint32_t> skip_{0};
};

}  // namespace nnfab::fabric

namespace nnfab::fabric {

// A condition guarded by `lock` (held on entry and on return), waited for
// on `word` instead of a condition variable: whoever makes `ready` true
// does so under the lock and then calls word.wake(). False when `until`
// passed with `ready` still false.
template <typename Lock, typename Ready>
bool waitLocked(WakeWord& word, Lock& lock, std::optional<std::chrono::steady_clock::time_point> until,
                Ready ready) {
  while (!ready()) {
    const uint32_t epoch = word.epoch();
    lock.unlock();
    const bool inTime = word.waitUntil(epoch, until);
    lock.lock();
    if (!inTime) return ready();
  }
  return true;
}

}  // namespace nnfab::fabric
