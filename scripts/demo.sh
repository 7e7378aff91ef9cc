#!/usr/bin/env bash
# Installs what is missing, builds nnfab and runs the demo: a model whose WHILE
# loop sums 0..n-1, on the default device (the most hardware-like one built:
# `sim`, the RTL core under Verilator, where Verilator is installed).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake --preset default >&2
cmake --build --preset default --target nnfab >&2
echo "nnfab devices:" >&2
./build/default/host/cli/nnfab devices >&2
echo "nnfab run examples/while_sum.json --inputs examples/while_sum.inputs.json:" >&2
./build/default/host/cli/nnfab run examples/while_sum.json --inputs examples/while_sum.inputs.json
