#!/usr/bin/env bash
# bench/peers/onnx_testdata.sh without the network: a bad option is a usage
# error, a machine without node gets SKIPPED and exit 77, the comparison
# keeps ONNX's tolerances (where node is installed), a build without
# onnxruntime-node under --no-install gets SKIPPED and 77 (never npm); where
# python3-onnx and libonnx-testdata are installed, testdata_tensors.py decodes
# a test's .pb files; where onnxruntime-node is installed too, a list that
# says nnfab refuses test_if (it does not) makes the driver fail, naming it.
#   usage: peers_script_test.sh SOURCE_ROOT BUILD_DIR TESTDATA_DIR
set -uo pipefail
root="$1"
build="$2"
data="$3"
drv="$root/bench/peers/onnx_testdata.sh"
fail() { echo "FAIL: $*" >&2; exit 1; }

out="$(bash "$drv" --build-dir "$build" --bogus 2>&1)"; rc=$?
[[ $rc -eq 2 ]] || fail "unknown option: exit $rc, want 2 ($out)"
out="$(bash "$drv" --build-dir "$build" --list /nonexistent 2>&1)"; rc=$?
[[ $rc -eq 2 ]] || fail "missing --list file: exit $rc, want 2 ($out)"

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# A PATH with the few tools the driver needs before its checks, and no node.
mkdir "$tmp/bin"
for t in dirname; do ln -s "$(command -v "$t")" "$tmp/bin/$t"; done
out="$(PATH="$tmp/bin" /bin/bash "$drv" --build-dir "$build" --data "$data" 2>&1)"; rc=$?
[[ $rc -eq 77 ]] || fail "no node: exit $rc, want 77 ($out)"
grep -q "SKIPPED: node is not installed" <<<"$out" || fail "no node: no SKIPPED message ($out)"
grep -q -- "--with-peers" <<<"$out" || fail "no node: the message does not say how to install it ($out)"

# The comparison (bench/peers/tensor_compare.js) at ONNX's tolerances.
if command -v node >/dev/null; then
  node - "$root/bench/peers/tensor_compare.js" <<'JS' || fail "tensor_compare.js does not compare as ONNX's backend tests do"
const assert = require('assert');
const { mismatch, compareOutputs } = require(process.argv[2]);
const f = (dims, data) => ({ name: 'y', type: 'float32', dims, data });
const i = (dims, data) => ({ name: 'n', type: 'int64', dims, data });
assert.strictEqual(mismatch(f([2], [1, 1000]), f([2], [1 + 5e-4, 1000.9])), '');        // within rtol 1e-3
assert.notStrictEqual(mismatch(f([2], [1, 1000]), f([2], [1, 1001.1])), '');            // outside it
assert.strictEqual(mismatch(f([1], [0]), f([1], [5e-8])), '');                           // within atol 1e-7
assert.notStrictEqual(mismatch(f([1], [0]), f([1], [2e-7])), '');
assert.strictEqual(mismatch(f([1], ['NaN']), f([1], ['NaN'])), '');                      // NaN equals NaN
assert.notStrictEqual(mismatch(f([1], ['NaN']), f([1], [0])), '');
assert.notStrictEqual(mismatch(f([1], [0]), f([1], ['NaN'])), '');
assert.notStrictEqual(mismatch(f([1], ['Infinity']), f([1], ['-Infinity'])), '');      // an infinity only itself
assert.notStrictEqual(mismatch(f([1], ['Infinity']), f([1], [5])), '');
assert.strictEqual(mismatch(f([1], ['-Infinity']), f([1], ['-Infinity'])), '');
assert.strictEqual(mismatch(i([], [5n]), i([1], [5])), '');                              // rank 0 is [1], BigInt is a number
assert.notStrictEqual(mismatch(i([1], [1000]), i([1], [1001])), '');                     // integers exactly
assert.notStrictEqual(mismatch(f([2, 1], [1, 2]), f([1, 2], [1, 2])), '');               // dimensions count
assert.notStrictEqual(mismatch(f([2], [1, 2]), f([2], [1])), '');
assert.match(compareOutputs([f([1], [1]), i([1], [2])], [f([1], [1]), i([1], [3])]), /^output 1 \(n\)/);
assert.notStrictEqual(compareOutputs([f([1], [1])], []), '');
JS
  echo "peers_script_test: tensor_compare.js checked"
fi

have_onnx=0
source "$root/bench/peers/python_onnx.sh"
have_python_onnx && [[ -d "$data/node/test_loop11" ]] && have_onnx=1

# A build directory with nnfab and no onnxruntime-node: --no-install skips.
if command -v node >/dev/null && [[ $have_onnx -eq 1 ]]; then
  mkdir -p "$tmp/build/host/cli"
  ln -s "$build/host/cli/nnfab" "$tmp/build/host/cli/nnfab"
  out="$(bash "$drv" --build-dir "$tmp/build" --data "$data" --no-install 2>&1)"; rc=$?
  if [[ "$out" != *"without ONNX support"* ]]; then
    [[ $rc -eq 77 ]] || fail "--no-install without onnxruntime-node: exit $rc, want 77 ($out)"
    grep -q "SKIPPED: onnxruntime-node .* is not in" <<<"$out" || fail "--no-install: no SKIPPED message ($out)"
    [[ ! -e "$tmp/build/peers/node/node_modules" ]] || fail "--no-install ran npm"
  fi
fi

if [[ $have_onnx -eq 1 ]]; then
  values="$(/usr/bin/python3 "$root/bench/peers/testdata_tensors.py" "$data/node/test_loop11")" ||
    fail "testdata_tensors.py failed on test_loop11"
  /usr/bin/python3 - "$values" <<'PY' || fail "testdata_tensors.py: test_loop11's values are not as ONNX wrote them ($values)"
import json, sys
v = json.loads(sys.argv[1])
assert [(i["name"], i["type"], i["dims"]) for i in v["inputs"]] == [
    ("trip_count", "int64", []), ("cond", "bool", []), ("y", "float32", [1])], v["inputs"]
assert v["inputs"][0]["data"] == [5] and v["inputs"][1]["data"] == [True], v["inputs"]
assert v["outputs"][1]["dims"] == [5, 1] and v["outputs"][1]["data"] == [-1.0, 1.0, 4.0, 8.0, 13.0], v["outputs"]
PY
  values="$(/usr/bin/python3 "$root/bench/peers/testdata_tensors.py" "$data/node/test_loop13_seq")" ||
    fail "testdata_tensors.py failed on test_loop13_seq"
  grep -q '"name": "seq_empty", "kind": "sequence"' <<<"$values" || fail "test_loop13_seq: seq_empty not a sequence ($values)"
  echo "peers_script_test: testdata_tensors.py checked"
fi

# The driver fails when nnfab does not do what the list says.
if [[ $have_onnx -eq 1 ]] && command -v node >/dev/null &&
   [[ -f "$build/peers/node/node_modules/onnxruntime-node/package.json" ]]; then
  sed 's/"test_if": ""/"test_if": "a refusal nnfab does not give"/' \
    "$root/tests/onnx/control_flow_tests.json" > "$tmp/list.json"
  out="$(bash "$drv" --build-dir "$build" --data "$data" --no-install --list "$tmp/list.json" 2>&1)"; rc=$?
  if [[ $rc -ne 77 ]]; then
    [[ $rc -eq 1 ]] || fail "wrong list: exit $rc, want 1 ($out)"
    grep -q 'test_if on cpu: nnfab should refuse it' <<<"$out" || fail "wrong list: test_if not named ($out)"
    echo "peers_script_test: a wrong list fails the driver"
  fi
fi
echo "peers_script_test: passed"
