#!/usr/bin/env bash
# bench/peers/run.sh without the network: a bad option is a usage error, a
# machine without node (or npm, or python3-onnx) gets a SKIPPED message and
# exit 0, and where python3-onnx is installed the generator writes a model
# that ONNX's own checker accepts (make_loop_model.py runs it).
#   usage: peers_test.sh SOURCE_ROOT BUILD_DIR
set -uo pipefail
root="$1"
build="$2"
run="$root/bench/peers/run.sh"
fail() { echo "FAIL: $*" >&2; exit 1; }

out="$(bash "$run" --build-dir "$build" --bogus 2>&1)"; rc=$?
[[ $rc -eq 2 ]] || fail "unknown option: exit $rc, want 2 ($out)"
out="$(bash "$run" --build-dir "$build" --n1 10 --n2 5 2>&1)"; rc=$?
[[ $rc -eq 2 ]] || fail "n2 <= n1: exit $rc, want 2 ($out)"

# A PATH with the few tools run.sh needs before its checks, and no node.
tools="$(mktemp -d)"
trap 'rm -rf "$tools"' EXIT
for t in dirname; do ln -s "$(command -v "$t")" "$tools/$t"; done
out="$(PATH="$tools" /bin/bash "$run" --build-dir "$build" 2>&1)"; rc=$?
[[ $rc -eq 0 ]] || fail "no node: exit $rc, want 0 ($out)"
grep -q "SKIPPED: node is not installed" <<<"$out" || fail "no node: no SKIPPED message ($out)"
grep -q -- "--with-peers" <<<"$out" || fail "no node: the message does not say how to install it ($out)"

source "$root/bench/peers/python_onnx.sh"
if have_python_onnx; then
  model="$tools/loop.onnx"
  /usr/bin/python3 "$root/bench/peers/make_loop_model.py" "$model" || fail "make_loop_model.py failed"
  /usr/bin/python3 - "$model" <<'PY' || fail "the model is not the accumulator loop"
import sys, onnx
m = onnx.load(sys.argv[1])
ops = [n.op_type for n in m.graph.node]
assert ops == ["Less", "Loop"], ops
body = [a.g for a in m.graph.node[1].attribute if a.name == "body"][0]
assert sorted(n.op_type for n in body.node) == ["Add", "Add", "Less"], [n.op_type for n in body.node]
PY
  echo "peers_test: generator checked"
else
  echo "peers_test: python3-onnx not installed, generator not checked"
fi
echo "peers_test: passed"
