#!/usr/bin/env bash
# Synthesizes the RTL core with scripts/synth_depth.sh (the one Yosys run:
# synth_xilinx -family xcup -noiopad -flatten, no latches, resources, ltp
# depth, the ten worst end points) and writes the resource and depth table
# into docs/rtl.md between its generated markers. About 12 minutes; not part
# of ctest (scripts/check_depth.sh is the pass/fail check on the depth).
#   scripts/synth_resources.sh [-r DIR] [BUILD_DIR]
# BUILD_DIR holds generated/nnfab_isa.svh (default build/default, built if
# missing). -r DIR reuses the results of an earlier
# `scripts/synth_depth.sh -o DIR` of the same RTL instead of synthesizing.
set -euo pipefail
cd "$(dirname "$0")/.."
reuse=""
while getopts "r:" opt; do
  case $opt in
    r) reuse=$OPTARG ;;
    *) echo "usage: $0 [-r DIR] [BUILD_DIR]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
build="${1:-build/default}"
if [ -n "$reuse" ]; then
  out="$reuse"
else
  out="$(mktemp -d)"
  trap 'rm -rf "$out"' EXIT
  scripts/synth_depth.sh -o "$out" "$build" > /dev/null
fi
seconds=$(cat "$out/seconds")
stat="$out/stat.txt"

count() {  # sum of the cells of the flattened top whose type matches the regex
  awk -v re="$1" '$1 ~ re && $2 ~ /^[0-9]+$/ {n += $2} END {print n+0}' "$stat"
}
lut=$(count '^LUT[1-6]$')
ff=$(count '^FD[A-Z]*$')
dsp=$(count '^DSP48E2$')
bram36=$(count '^RAMB36E2$')
bram18=$(count '^RAMB18E2$')
lutram=$(count '^RAM(32|64|128|256)[A-Z0-9]*$')
carry=$(count '^CARRY[48]$')
muxf=$(count '^MUXF[789]$')
depth=$(sed -n 's/.*Longest topological path in [^ ]* (length=\([0-9]*\)).*/\1/p' "$out/ltp.txt" | tail -1)
paths=$(sed -n '2,/^worst per unit/p' "$out/paths.txt" | grep -v '^worst per unit' |
  sed 's/^ *\([0-9]*\)  \(.*\)  ->  \(.*\)$/| \1 | `\2` | `\3` |/')
units=$(sed -n '/^worst per unit/,$p' "$out/paths.txt" | tail -n +2 |
  sed 's/^ *\([0-9]*\)  \([^ ]*\)  \(.*\)  ->  \(.*\)$/| `\2` | \1 | `\3` | `\4` |/')
version=$(yosys -V | awk '{print $1, $2}')

table=$(cat <<TABLE
| Resource | Count |
|---|---|
| LUT (LUT1–LUT6) | $lut |
| LUTRAM cells | $lutram |
| FF | $ff |
| DSP48E2 | $dsp |
| BRAM (RAMB36E2 / RAMB18E2) | $bram36 / $bram18 |
| CARRY | $carry |
| MUXF7/8/9 | $muxf |
| **Longest path (cells, \`ltp\`)** | **$depth** |

The ten worst end points and the start of the worst path into each
(cells; \`scripts/synth_paths.py\`):

| Cells | Start | End |
|---|---|---|
$paths

The worst path into each unit of the flattened core:

| Unit | Cells | Start | End |
|---|---|---|---|
$units

$version, \`synth_xilinx -family xcup -noiopad -top nnfab_core -flatten\`, no latches, $seconds s
(\`scripts/synth_resources.sh\`).
TABLE
)
python3 - "$table" <<'PY'
import sys
path = "docs/rtl.md"
text = open(path).read()
begin, end = "<!-- BEGIN GENERATED resources -->\n", "<!-- END GENERATED resources -->"
b = text.index(begin) + len(begin)
e = text.index(end, b)
open(path, "w").write(text[:b] + sys.argv[1] + "\n" + text[e:])
PY
echo "synth_resources: docs/rtl.md updated (depth $depth, $seconds s)" >&2
