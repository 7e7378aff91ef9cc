#!/usr/bin/env bash
# The one place that runs Yosys on the RTL (docs/rtl.md, "Timing"):
# synth_xilinx -family xcup -noiopad -flatten for UltraScale+, then
#   - checks that no latch was inferred,
#   - `stat` (resources, read by scripts/synth_resources.sh),
#   - `ltp` on the combinational cells between sequential ones (the longest
#     path in cells, the figure docs/rtl.md records; at most 16 for 300 MHz),
#   - the worst path into each of the ten worst end points
#     (scripts/synth_paths.py over the JSON netlist; `ltp` names only one).
#   scripts/synth_depth.sh [-t TOP] [-o OUTDIR] [BUILD_DIR]
# TOP defaults to nnfab_core (about 12 minutes); a single module such as
# nnfab_tensor is much faster for iterating. OUTDIR (default: a temporary
# directory, removed) keeps yosys.log, stat.txt, ltp.txt, paths.txt and
# netlist.json (hundreds of MB for the core).
# Prints the resource summary and the paths on stdout; the last line is
# "depth N".
set -euo pipefail
cd "$(dirname "$0")/.."
top=nnfab_core
out=""
while getopts "t:o:" opt; do
  case $opt in
    t) top=$OPTARG ;;
    o) out=$OPTARG ;;
    *) echo "usage: $0 [-t TOP] [-o OUTDIR] [BUILD_DIR]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
build="${1:-build/default}"
svh="$build/generated/nnfab_isa.svh"
if [ ! -f "$svh" ]; then
  cmake --build "$build" --target isa-headers >&2
fi
if [ -z "$out" ]; then
  out="$(mktemp -d)"
  trap 'rm -rf "$out"' EXIT
fi
mkdir -p "$out"
log="$out/yosys.log"
sources=$(ls rtl/*.sv | tr '\n' ' ')
# Sequential cells end a path; everything else (LUT, CARRY8, MUXF7/8, ...) counts.
ends='t:FD* t:DSP48E2 %u t:RAMB* %u t:RAM* %u t:SRL* %u'
# read_verilog defines SYNTHESIS, which keeps the assertions out.
start=$(date +%s)
yosys -p "read_verilog -sv -I$build/generated $sources; \
synth_xilinx -family xcup -noiopad -top $top -flatten; \
select -assert-none t:\$dlatch t:\$_DLATCH_* t:LDCE t:LDPE; \
tee -o $out/stat.txt stat; \
tee -o $out/ltp.txt ltp -noff $ends %n; \
write_json $out/netlist.json" > "$log" 2>&1 || {
  tail -30 "$log" >&2
  echo "synth_depth: yosys failed (see above)" >&2
  exit 1
}
echo $(( $(date +%s) - start )) > "$out/seconds"
# proc_dlatch says "Latch inferred for signal ..." for each latch.
if grep -q "^Latch inferred" "$log"; then
  grep "^Latch inferred" "$log" >&2
  echo "synth_depth: latches inferred" >&2
  exit 1
fi
/usr/bin/python3 scripts/synth_paths.py "$out/netlist.json" "$top" 10 > "$out/paths.txt"
ltp=$(sed -n 's/.*Longest topological path in [^ ]* (length=\([0-9]*\)).*/\1/p' "$out/ltp.txt" | tail -1)
cat "$out/stat.txt"
echo "ten worst end points (cells, start -> end), scripts/synth_paths.py:"
tail -n +2 "$out/paths.txt"
echo "depth ${ltp:-unknown}"
