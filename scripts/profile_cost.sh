#!/usr/bin/env bash
# What `nnfab run --profile` costs a one-shot run (issue 16: <= 10 % when on):
# examples/while_sum.json with inputs [N], run as separate processes without
# and with --profile in turn, RUNS times each; the least timing.inDriverNs of
# each kept (on a shared machine everything else only adds time). A fresh
# process also pays first-use costs (code and memory touched for the first
# time) that `nnfab bench --only profile` (executions of one prepared model)
# does not see; docs/performance.md has both. The last column is the median
# of the paired differences (each on-run minus the off-run just before it),
# steadier than the difference of two minima on a loaded machine.
#
# usage: scripts/profile_cost.sh [-b NNFAB] [-d DEVICE] [-r RUNS] [N ...]
#   defaults: build/default/host/cli/nnfab, hls, 31 runs, N = 100 1000 5000
# Run from the repository root. Exit 0 whether or not the target is met.
set -euo pipefail

bin=build/default/host/cli/nnfab
device=hls
runs=31
while getopts "b:d:r:h" opt; do
  case $opt in
    b) bin=$OPTARG ;;
    d) device=$OPTARG ;;
    r) runs=$OPTARG ;;
    *) sed -n '2,11p' "$0"; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
sizes=("$@")
[ ${#sizes[@]} -eq 0 ] && sizes=(100 1000 5000)
[ -x "$bin" ] || { echo "profile_cost.sh: no nnfab at $bin (build it, or give -b)" >&2; exit 2; }
[ -f examples/while_sum.json ] || { echo "profile_cost.sh: run from the repository root" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One run; prints its inDriverNs.
driver_ns() {
  "$bin" run examples/while_sum.json --inputs "$work/in.json" --device "$device" "$@" |
    sed -n 's/.*"inDriverNs": \([0-9][0-9]*\).*/\1/p'
}

printf '%-8s %8s %12s %12s %8s  %-6s %-4s %s\n' device n off_us on_us cost TARGET MET paired_median_us
for n in "${sizes[@]}"; do
  printf '{"inputs": [{"dimensions": [1], "data": [%d]}]}\n' "$n" > "$work/in.json"
  off=""; on=""; diffs=()
  for ((i = 0; i < runs; i++)); do
    a=$(driver_ns)
    b=$(driver_ns --profile "$work/profile.json")
    [ -n "$a" ] && [ -n "$b" ] || { echo "profile_cost.sh: a run printed no inDriverNs" >&2; exit 1; }
    if [ -z "$off" ] || [ "$a" -lt "$off" ]; then off=$a; fi
    if [ -z "$on" ] || [ "$b" -lt "$on" ]; then on=$b; fi
    diffs+=($((b - a)))
  done
  median=$(printf '%s\n' "${diffs[@]}" | sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}')
  awk -v d="$device" -v n="$n" -v off="$off" -v on="$on" -v med="$median" 'BEGIN {
    cost = (on - off) / off * 100
    printf "%-8s %8d %12.1f %12.1f %+7.1f%%  <= 10   %-4s %+.1f\n", d, n, off / 1000, on / 1000, cost, cost <= 10 ? "yes" : "no", med / 1000
  }'
done
