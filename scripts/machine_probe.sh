#!/usr/bin/env bash
# How fast this machine runs plain code right now (issue 15, docs/sim.md "The
# machine's slow phases"): a C program of straight-line statements shaped like a
# Verilated model's code (two loads, an add or a shift, an xor, a store, and a
# well-predicted branch every fourth statement), in three sizes of code (about
# 3, 7 and 11 KiB), each called in a loop. It prints nanoseconds of CPU time
# per statement; on an undisturbed machine the three are about equal. A virtual
# machine whose core is shared with a neighbour shows the neighbour's moments as
# the same statements taking about twice as long, whatever the size of the code,
# and the co-simulation slows down with it (both are CPU-bound and single-
# threaded), so run this next to `sim_speed` or `nnfab bench` to tell a slow
# machine from a slow build.
#
# usage: scripts/machine_probe.sh [ROUNDS]   (default 1; needs a C compiler: cc)
set -euo pipefail

rounds=${1:-1}
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "machine_probe: ROUNDS must be a positive integer" >&2; exit 2; }
command -v cc > /dev/null || { echo "machine_probe: no C compiler (cc) on PATH" >&2; exit 2; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# The statements come from a fixed linear congruential sequence, so every run
# and every machine compiles the same program.
awk -v sizes="100 200 330" '
function next_rand(m) { seed = (seed * 1103515245 + 12345) % 2147483648; return int(seed / 65536) % m }
BEGIN {
  seed = 1
  print "#include <stdint.h>\n#include <stdio.h>\n#include <time.h>"
  print "static double cpu(void) { struct timespec t; clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t); return t.tv_sec + t.tv_nsec * 1e-9; }"
  print "uint32_t s[4096];"
  n = split(sizes, size, " ")
  for (k = 1; k <= n; k++) {
    printf "__attribute__((noinline)) static void f%d(uint32_t *restrict s) {\n", size[k]
    for (i = 0; i < size[k]; i++) {
      a = next_rand(4096); b = next_rand(4096); c = next_rand(4096); v = next_rand(1048576)
      if (i % 4 == 3) printf "  if (s[%d] & 0x80000000u) s[%d] ^= %du; else s[%d] += s[%d];\n", a, b, v, c, b
      else printf "  s[%d] = (s[%d] + %du) ^ (s[%d] >> %d);\n", a, b, v, c, i % 7 + 1
    }
    print "}"
  }
  print "int main(void) {"
  print "  for (int i = 0; i < 4096; i++) s[i] = (uint32_t)(i * 2654435761u) >> 1;"
  for (k = 1; k <= n; k++) {
    printf "  { long r = 100000000L / %d; for (long i = 0; i < r / 10; i++) f%d(s);\n", size[k], size[k]
    printf "    double t0 = cpu(); for (long i = 0; i < r; i++) f%d(s);\n", size[k]
    printf "    printf(\"%%s%%.3f\", %d == %d ? \"\" : \" \", (cpu() - t0) / r / %d * 1e9); }\n", k, 1, size[k]
  }
  print "  printf(\" ns per statement (code of about 3, 7, 11 KiB)\\n\");"
  print "  return 0;"
  print "}"
}' > "$dir/probe.c"
cc -O2 -o "$dir/probe" "$dir/probe.c"
for ((i = 0; i < rounds; i++)); do "$dir/probe"; done
