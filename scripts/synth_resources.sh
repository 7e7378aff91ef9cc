#!/usr/bin/env bash
# Synthesizes the RTL core (rtl/*.sv) with yosys for Xilinx UltraScale+
# (synth_xilinx -family xcup -noiopad), checks that no latch was inferred, and
# writes the resource table into docs/rtl.md between its generated markers.
# Takes a few minutes; not part of ctest.
#   scripts/synth_resources.sh [BUILD_DIR]   (BUILD_DIR holds generated/nnfab_isa.svh;
#                                            default build/default, built if missing)
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build/default}"
svh="$build/generated/nnfab_isa.svh"
if [ ! -f "$svh" ]; then
  cmake --build "$build" --target isa-headers >&2
fi
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
sources=$(ls rtl/*.sv | tr '\n' ' ')
start=$(date +%s)
yosys -p "read_verilog -sv -I$build/generated $sources; synth_xilinx -family xcup -noiopad -top nnfab_core; select -assert-none t:\$dlatch t:\$_DLATCH_* t:LDCE t:LDPE; stat" > "$log" 2>&1 || {
  tail -30 "$log" >&2
  echo "synth_resources: yosys failed (see above)" >&2
  exit 1
}
seconds=$(( $(date +%s) - start ))
# proc_dlatch says "Latch inferred for signal ..." for each latch (and "No
# latch inferred" for every clean process).
if grep -q "^Latch inferred" "$log"; then
  grep "^Latch inferred" "$log" >&2
  echo "synth_resources: latches inferred" >&2
  exit 1
fi

# The top-level "Number of cells" block of `stat` (the last one printed).
count() {  # sum of the cells whose type matches the regex
  awk -v re="$1" '/=== design hierarchy ===/ {top=1} top && $1 ~ re && $2 ~ /^[0-9]+$/ {n += $2} END {print n+0}' "$log"
}
lut=$(count '^LUT[1-6]$')
ff=$(count '^FD[A-Z]*$')
dsp=$(count '^DSP48E2$')
bram36=$(count '^RAMB36E2$')
bram18=$(count '^RAMB18E2$')
lutram=$(count '^RAM(32|64|128|256)[A-Z0-9]*$')
carry=$(count '^CARRY[48]$')
muxf=$(count '^MUXF[789]$')
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

$version, \`synth_xilinx -family xcup -noiopad -top nnfab_core\`, no latches, $seconds s
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
echo "synth_resources: docs/rtl.md updated ($seconds s)" >&2
