#!/usr/bin/env bash
# Instructions per simulated cycle of the co-simulation's counter loop
# (issue 15, docs/sim.md "Units quiet in a scalar loop"): valgrind's
# callgrind counts the instructions of `sim_speed N 16` at two loop lengths,
# and the difference over the cycles between them is the marginal cost of
# one scalar cycle. Unlike seconds, the count repeats exactly on any machine
# and under any load, so it compares two builds measured days apart. A
# binary built for a newer CPU than valgrind decodes (-march=native with
# AVX-512) cannot be measured this way.
#
# usage: scripts/sim_instructions.sh [SIM_SPEED ...]
#   default: build/default/tests/sim/sim_speed. Needs valgrind.
# Run from the repository root.
set -euo pipefail

command -v valgrind > /dev/null || { echo "sim_instructions: valgrind is not installed" >&2; exit 2; }
bins=("$@")
[ ${#bins[@]} -eq 0 ] && bins=(build/default/tests/sim/sim_speed)

# Two lengths of the loop (2 cycles per iteration): the difference is 200,000 cycles.
short=50000
long=150000
count() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" "$2" 16 0 2>&1 | sed -n 's/.*Collected : //p'
}
for bin in "${bins[@]}"; do
  [ -x "$bin" ] || { echo "sim_instructions: $bin is not an executable" >&2; exit 2; }
  a=$(count "$bin" $short)
  b=$(count "$bin" $long)
  [ -n "$a" ] && [ -n "$b" ] || { echo "sim_instructions: callgrind gave no count for $bin" >&2; exit 1; }
  echo "$bin: $(( (b - a) / (2 * (long - short)) )) instructions per simulated cycle (counter loop)"
done
