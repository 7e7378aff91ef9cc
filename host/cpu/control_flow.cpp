#include "cpu/control_flow.h"

#include <fmt/format.h>

namespace nnfab::cpu::control_flow {

Status loopTimeout(std::chrono::nanoseconds elapsed, uint64_t iterations, std::chrono::nanoseconds timeout) {
  using std::chrono::duration_cast;
  using std::chrono::milliseconds;
  return Status(ErrorStatus::MISSED_DEADLINE_TRANSIENT,
                fmt::format("the WHILE loop timed out after {} ms and {} iterations (loop timeout {} ms)",
                            duration_cast<milliseconds>(elapsed).count(), iterations,
                            duration_cast<milliseconds>(timeout).count()));
}

Status noCondition() { return generalFailure("the WHILE condition produced no value"); }

}  // namespace nnfab::cpu::control_flow
