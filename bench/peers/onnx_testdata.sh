#!/usr/bin/env bash
# libonnx-testdata's control-flow node tests (the list tests/onnx checks:
# tests/onnx/control_flow_tests.json) through ONNX Runtime and through
# `nnfab run MODEL.onnx`, each compared with the test's output_K.pb and with
# each other; prints a Markdown table. README.md beside this file says more.
#
#   bench/peers/onnx_testdata.sh [--build-dir DIR] [--device D]... [--no-install] [--data DIR] [--list FILE]
#
# --device    an nnfab device to run on (repeatable; default cpu)
# --no-install  use an onnxruntime-node already in DIR/peers/node, never npm
#             (ctest runs it so: a test does not download 290 MB)
# --data      libonnx-testdata's data directory (default /usr/share/libonnx-testdata/data)
# --list      the tests and what nnfab should do with each (default
#             tests/onnx/control_flow_tests.json, the list tests/onnx checks)
#
# Exit: 0 nnfab does what the list says and agrees with ONNX Runtime wherever
# both ran; 1 it does not (reasons on stderr), or nnfab is not built;
# 2 usage; 77 skipped (node, npm, python3-onnx, libonnx-testdata,
# onnxruntime-node or nnfab's ONNX support missing: the message says which),
# the code ctest's SKIP_RETURN_CODE and automake read as "skipped".
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="$root/build/default"
data=/usr/share/libonnx-testdata/data
list="$root/tests/onnx/control_flow_tests.json"
devices=()
install=1
source "$here/ort_install.sh"  # ORT_VERSION, ort_present, ort_install

while [[ $# -gt 0 ]]; do
  case "$1" in
    --build-dir) [[ $# -ge 2 && -d "$2" ]] || { echo "onnx_testdata.sh: --build-dir needs a directory" >&2; exit 2; }
                 build="$(cd "$2" && pwd)"; shift 2 ;;
    --device) [[ $# -ge 2 ]] || { echo "onnx_testdata.sh: --device needs a name" >&2; exit 2; }
              devices+=(--device "$2"); shift 2 ;;
    --data) [[ $# -ge 2 ]] || { echo "onnx_testdata.sh: --data needs a directory" >&2; exit 2; }
            data="$2"; shift 2 ;;
    --list) [[ $# -ge 2 && -f "$2" ]] || { echo "onnx_testdata.sh: --list needs a file" >&2; exit 2; }
            list="$2"; shift 2 ;;
    --no-install) install=0; shift ;;
    -h|--help) sed -n '2,21p' "$0"; exit 0 ;;
    *) echo "onnx_testdata.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[[ ${#devices[@]} -gt 0 ]] || devices=(--device cpu)

nnfab="$build/host/cli/nnfab"
if [[ ! -x "$nnfab" ]]; then
  echo "onnx_testdata.sh: $nnfab not found: build first (cmake --preset default && cmake --build --preset default --target nnfab)" >&2
  exit 1
fi

skip() {
  echo "onnx_testdata.sh: SKIPPED: $1"
  exit 77
}
source "$here/python_onnx.sh"
python=$nnfab_python
command -v node >/dev/null || skip "node is not installed (scripts/install-deps.sh --with-peers installs it)"
have_python_onnx || skip "python3-onnx is not installed (scripts/install-deps.sh --with-peers installs it)"
[[ -d "$data/node" ]] || skip "$data/node not found: libonnx-testdata is not installed"
if [[ "$("$nnfab" import /dev/null 2>&1 || true)" == *"without ONNX support"* ]]; then
  skip "this nnfab was built without ONNX support (libonnx-dev, libprotobuf-dev: scripts/install-deps.sh)"
fi

work="$build/peers"
if ! ort_present "$work"; then
  [[ $install -eq 1 ]] || skip "onnxruntime-node $ORT_VERSION is not in $work/node (bench/peers/onnx_testdata.sh without --no-install, or bench/peers/run.sh, installs it)"
  command -v npm >/dev/null || skip "npm is not installed (scripts/install-deps.sh --with-peers installs it)"
  ort_install "$work" || skip "npm could not install onnxruntime-node $ORT_VERSION (offline?)"
fi

# The inputs files of this run, in a directory of its own: ctest may run two
# drivers on one build directory at once.
runs="$(mktemp -d "$work/onnx_testdata.XXXXXX")"
trap 'rm -rf "$runs"' EXIT
NODE_PATH="$work/node/node_modules" node "$here/onnx_testdata.js" \
  --list "$list" --data "$data" --nnfab "$nnfab" \
  --python "$python" --work "$runs" "${devices[@]}"
