#!/usr/bin/env bash
# Installs what is missing, builds the default (Release) preset and runs the
# whole test suite. This is the README's test command and exactly what CI runs.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake --preset default
cmake --build --preset default
ctest --preset default
