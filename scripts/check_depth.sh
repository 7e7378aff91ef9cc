#!/usr/bin/env bash
# Fails when the longest combinational path of the RTL core, in cells between
# sequential elements after synth_xilinx -flatten (Yosys ltp; see
# scripts/synth_depth.sh), is above the 300 MHz budget of 16 cells
# (docs/rtl.md "Timing"). Minutes of synthesis, so not in ctest: run it after
# every RTL change and record the figure (scripts/synth_resources.sh).
#   scripts/check_depth.sh [-t TOP] [-m MAX] [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
top=nnfab_core
max=16
while getopts "t:m:" opt; do
  case $opt in
    t) top=$OPTARG ;;
    m) max=$OPTARG ;;
    *) echo "usage: $0 [-t TOP] [-m MAX] [BUILD_DIR]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
summary=$(scripts/synth_depth.sh -t "$top" "${1:-build/default}")
depth=$(tail -1 <<<"$summary" | awk '{print $2}')
sed -n '/ten worst/,$p' <<<"$summary"
if ! [[ "$depth" =~ ^[0-9]+$ ]]; then
  echo "check_depth: no depth from ltp" >&2
  exit 1
fi
if (( depth > max )); then
  echo "check_depth: $top: longest path $depth cells > $max" >&2
  exit 1
fi
echo "check_depth: $top: longest path $depth cells <= $max" >&2
