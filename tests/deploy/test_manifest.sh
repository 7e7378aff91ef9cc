#!/usr/bin/env bash
# Test of bitstreams/manifest.sh with stand-ins for v++ and xclbinutil:
#   test_manifest.sh MANIFEST_SH NNFAB_ISA_H FAKE_VITIS_DIR
# Checks every field against what the stand-ins and the file say, that a
# missing xclbinutil gives null (never a guess), and that bad use fails.
set -euo pipefail
manifest=$1 header=$2 fake=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'not really an xclbin\n' > "$work/nnfab_core.xclbin"
expected_sha=$(sha256sum "$work/nnfab_core.xclbin" | cut -d' ' -f1)

PATH="$fake:$PATH" bash "$manifest" "$work/nnfab_core.xclbin" xilinx_u250_gen3x16_xdma_4_1_202210_1 rtl hw \
  "$header" "$work/m.json"
python3 - "$work/m.json" "$expected_sha" "$header" <<'PY'
import json, re, sys
m = json.load(open(sys.argv[1]))
# The ISA version the manifest must carry: the generated header's (isa.json's).
isa_version = int(re.search(r"kIsaVersion = (\d+);", open(sys.argv[3]).read()).group(1))
want = {"format": "nnfab-xclbin-manifest", "format_version": 1, "xclbin": "nnfab_core.xclbin",
        "sha256": sys.argv[2], "bytes": 21, "platform": "xilinx_u250_gen3x16_xdma_4_1_202210_1",
        "kernel": "rtl", "kernel_name": "nnfab_core", "target": "hw", "isa_version": isa_version,
        "tool_version": "v++ v2023.2 (64-bit)", "requested_clock_mhz": 300, "achieved_clock_mhz": 287}
bad = {k: (m.get(k), v) for k, v in want.items() if m.get(k) != v}
assert not bad, f"manifest fields differ (got, want): {bad}"
assert m["built_at"].endswith("Z"), m["built_at"]
PY

# Without Vitis tools on PATH the unknown values are null.
PATH="/usr/bin:/bin" bash "$manifest" "$work/nnfab_core.xclbin" p hls hw_emu "$header" "$work/n.json"
python3 - "$work/n.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
assert m["tool_version"] is None and m["achieved_clock_mhz"] is None, m
assert m["kernel"] == "hls" and m["target"] == "hw_emu", m
PY

# A missing xclbin and a wrong argument count fail and write nothing.
if bash "$manifest" "$work/none.xclbin" p rtl hw "$header" "$work/x.json" 2>/dev/null; then
  echo "manifest.sh accepted a missing xclbin" >&2; exit 1
fi
if bash "$manifest" "$work/nnfab_core.xclbin" 2>/dev/null; then
  echo "manifest.sh accepted too few arguments" >&2; exit 1
fi
[ ! -e "$work/x.json" ] || { echo "manifest.sh left a file behind after failing" >&2; exit 1; }
echo "manifest test OK"
