#include "fabric/wake_word.h"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <climits>

namespace nnfab::fabric {
namespace {

// The word is process-private (FUTEX_PRIVATE_FLAG: no shared mapping).
long futex(std::atomic<uint32_t>* word, int op, uint32_t value, const timespec* at, uint32_t mask) {
  static_assert(sizeof(std::atomic<uint32_t>) == sizeof(uint32_t) && std::atomic<uint32_t>::is_always_lock_free);
  return syscall(SYS_futex, reinterpret_cast<uint32_t*>(word), op | FUTEX_PRIVATE_FLAG, value, at, nullptr, mask);
}

}  // namespace

namespace {

void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

}  // namespace

bool WakeWord::spinFor(uint32_t epoch, std::chrono::nanoseconds spin) const {
  // A wake() meanwhile changes the word (with no waiter counted it makes no
  // system call): this loop sees the change.
  const auto end = std::chrono::steady_clock::now() + spin;
  do {
    for (int i = 0; i < 64; ++i) {
      if (word_.load(std::memory_order_acquire) != epoch) return true;
      cpuRelax();
    }
  } while (std::chrono::steady_clock::now() < end);
  return word_.load() != epoch;
}

SpinBackoff::Outcome SpinBackoff::watch(const WakeWord& word, uint32_t epoch, std::chrono::nanoseconds spin,
                                        uint32_t backoff) {
  const uint32_t left = skip_.load(std::memory_order_relaxed);
  if (left != 0) {
    skip_.store(left - 1, std::memory_order_relaxed);
    return Outcome::SKIPPED;
  }
  if (word.spinFor(epoch, spin)) return Outcome::SEEN;
  skip_.store(backoff, std::memory_order_relaxed);
  return Outcome::RAN_OUT;
}

bool WakeWord::waitUntil(uint32_t epoch, std::optional<std::chrono::steady_clock::time_point> until) {
  timespec at{};
  if (until) {
    const auto since = until->time_since_epoch();
    if (since.count() <= 0 || std::chrono::steady_clock::now() >= *until) return word_.load() != epoch;
    const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(since);
    at.tv_sec = static_cast<time_t>(seconds.count());
    at.tv_nsec = static_cast<long>(std::chrono::duration_cast<std::chrono::nanoseconds>(since - seconds).count());
  }
  // Counted before the kernel compares the word: a wake() that sees no
  // waiter changed the word before this count, so the kernel's comparison
  // fails and the wait returns at once (both sequentially consistent).
  waiters_.fetch_add(1);
  // FUTEX_WAIT_BITSET takes an absolute time on CLOCK_MONOTONIC, the
  // steady clock's on Linux; it returns at once if the word moved on.
  const long rc = futex(&word_, FUTEX_WAIT_BITSET, epoch, until ? &at : nullptr, FUTEX_BITSET_MATCH_ANY);
  const int error = rc == 0 ? 0 : errno;
  waiters_.fetch_sub(1);
  return !(rc != 0 && error == ETIMEDOUT && word_.load() == epoch);
}

void WakeWord::wake() {
  word_.fetch_add(1);
  if (waiters_.load() != 0) futex(&word_, FUTEX_WAKE, INT_MAX, nullptr, 0);
}

}  // namespace nnfab::fabric
