#!/usr/bin/env bash
# The accumulator loop (i < n; acc += i; i += 1) on nnfab's CPU executor and
# in ONNX Runtime, in one invocation: marginal ns per iteration of each
# (n = N1 vs N2, fixed costs cancelled) and the ratio. README.md beside this
# file says what is compared and how.
#
#   bench/peers/run.sh [--build-dir DIR] [--n1 N] [--n2 N] [--repeats R]
#
# nnfab side: `nnfab run examples/while_sum.json --device cpu`, onDeviceNs.
# ONNX Runtime side: the same loop as an ONNX Loop (make_loop_model.py,
# Debian's python3-onnx) run by the onnxruntime-node npm package, installed
# on first use into DIR/peers/node with --ignore-scripts (the package ships
# its CPU binaries; its install script only fetches CUDA ones).
#
# Exit: 0 measured (or skipped: node, npm or python3-onnx missing, with a
# message saying what to install), 1 a run failed, 2 usage.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="$root/build/default"
n1=1000
n2=100000
repeats=5
source "$here/ort_install.sh"  # ORT_VERSION, ort_install

while [[ $# -gt 0 ]]; do
  case "$1" in
    --build-dir) build="$(cd "$2" && pwd)"; shift 2 ;;
    --n1) n1="$2"; shift 2 ;;
    --n2) n2="$2"; shift 2 ;;
    --repeats) repeats="$2"; shift 2 ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
if ! [[ "$n1" =~ ^[0-9]+$ && "$n2" =~ ^[0-9]+$ && "$repeats" =~ ^[1-9][0-9]*$ ]] || (( n2 <= n1 )); then
  echo "run.sh: --n1 and --n2 are counts with n2 > n1, --repeats at least 1" >&2
  exit 2
fi

nnfab="$build/host/cli/nnfab"
if [[ ! -x "$nnfab" ]]; then
  echo "run.sh: $nnfab not found: build first (cmake --preset default && cmake --build --preset default --target nnfab)" >&2
  exit 1
fi

skip() {
  echo "run.sh: SKIPPED: $1 (scripts/install-deps.sh --with-peers installs it)"
  exit 0
}
source "$here/python_onnx.sh"
python=$nnfab_python
command -v node >/dev/null || skip "node is not installed"
command -v npm >/dev/null || skip "npm is not installed"
have_python_onnx || skip "python3-onnx is not installed"

work="$build/peers"
mkdir -p "$work"
"$python" "$here/make_loop_model.py" "$work/accumulator_loop.onnx"
ort_install "$work"

# The least of `repeats` onDeviceNs of `nnfab run` at n (one process each,
# so every run prepares afresh, as a caller of the CLI would): the run other
# jobs on the machine disturbed least, as on the ONNX Runtime side.
nnfab_ns() {
  local n="$1" inputs="$work/while_sum.n$1.json" out
  printf '{"inputs": [{"dimensions": [1], "data": [%s]}]}\n' "$n" > "$inputs"
  for ((r = 0; r < repeats; ++r)); do
    out="$("$nnfab" run "$root/examples/while_sum.json" --inputs "$inputs" --device cpu)"
    grep -q "\"data\": \[$n\]" <<<"$out" || { echo "run.sh: nnfab gave $out for n = $n" >&2; exit 1; }
    sed -n 's/.*"onDeviceNs": \([0-9]*\).*/\1/p' <<<"$out"
  done | sort -n | sed -n 1p
}

echo "run.sh: nnfab run --device cpu, n = $n1 and $n2, $repeats runs each" >&2
a="$(nnfab_ns "$n1")"
b="$(nnfab_ns "$n2")"
echo "run.sh: onnxruntime-node, n = $n1 and $n2, $repeats runs each" >&2
ort_json="$(NODE_PATH="$work/node/node_modules" node "$here/ort_loop.js" "$work/accumulator_loop.onnx" "$n1" "$n2" "$repeats")"

"$python" - "$a" "$b" "$n1" "$n2" "$ort_json" <<'PY'
import json, sys
a, b, n1, n2 = (int(x) for x in sys.argv[1:5])
ort = json.loads(sys.argv[5])
nnfab = (b - a) / (n2 - n1)
peer = ort["marginal_ns_per_iteration"]
ratio = peer / nnfab if nnfab > 0 else float("inf")
target = 100.0
print(f"{'figure':<58} {'value':>12}  {'TARGET':>8}  MET")
print(f"{'nnfab cpu, marginal ns/iteration (onDeviceNs)':<58} {nnfab:>12.2f}  {'<= 20':>8}  {'yes' if nnfab <= 20 else 'NO'}")
print(f"{ort['runtime'] + ', marginal ns/iteration':<58} {peer:>12.1f}")
print(f"{'  (wall ' + format(ort['wall_marginal_ns_per_iteration'], '.1f') + ', CPU time ' + format(ort['cpu_marginal_ns_per_iteration'], '.1f') + ': the smaller counts)':<58}")
print(f"{'ratio (ONNX Runtime / nnfab)':<58} {ratio:>11.1f}x  {'>= 100x':>8}  {'yes' if ratio >= target else 'NO'}")
print(f"(best of {ort['repeats']} runs at n = {n1} / {n2}: nnfab {a} / {b} ns, "
      f"ONNX Runtime {ort['n1_ns']} / {ort['n2_ns']} ns wall, {ort['n1_cpu_ns']} / {ort['n2_cpu_ns']} ns CPU)")
PY
