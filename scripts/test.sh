#!/usr/bin/env bash
# Installs what is missing, builds the default (Release) preset and runs the
# whole test suite, after checking that the install script brings every
# package the build used. This is the README's test command and exactly what CI runs.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake --preset default
cmake --build --preset default
# a package the build needs but the install script would not bring fails here
bash scripts/check-install.sh build/default
ctest --preset default
