#!/usr/bin/env bash
# Installs every Debian package that building and testing nnfab needs.
# Idempotent; works as root on a bare Debian 12 (only git present), or via sudo.
#   --with-peers   also what bench/peers/ (run.sh, onnx_testdata.sh) needs (ONNX Runtime comparisons)
set -euo pipefail

WITH_PEERS=0
for arg in "$@"; do
  case "$arg" in
    --with-peers) WITH_PEERS=1 ;;
    *) echo "install-deps: unknown option $arg (known: --with-peers)" >&2; exit 2 ;;
  esac
done

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

PACKAGES=(
  # compiler and build tools (a bare Debian 12 has none of these)
  build-essential cmake pkg-config ninja-build git
  # libraries: JSON, command line, logging/formatting
  nlohmann-json3-dev libcli11-dev libspdlog-dev libfmt-dev
  # tests and benchmarks
  googletest libgtest-dev libgmock-dev libbenchmark-dev
  # clang + its runtime for the libFuzzer and sanitizer presets
  clang libclang-rt-14-dev
  # RTL: Verilator co-simulation, yosys resource estimates, SystemC, XRT host API
  verilator yosys libsystemc-dev libxrt-dev uuid-dev ccache
  # Verilator's FST waveform writer includes zlib.h
  zlib1g-dev
  # sim/systemc/make_models.py writes the platform-model projection models
  python3
  # tclsh: ctest checks that every Vivado/Vitis Tcl file of the deploy flow
  # parses and runs against stubs (tests/deploy/tcl_check.tcl, docs/deploy.md)
  tcl
  # xrt / xrt-emu (docs/xrt-emu.md): the xclbin writer reads kernel.xml with
  # expat and packs the emulation BITSTREAM with zip; XRT's hw_emu shim
  # unpacks it with unzip; the xrt-emu tests run under setsid (util-linux)
  libexpat1-dev zip unzip util-linux
  # ONNX import (docs/onnx.md): the ONNX protobuf classes, checker and shape
  # inference come from libonnx-dev (on protobuf 3.21, libprotobuf-dev); the
  # backend node tests that the import is checked against from libonnx-testdata
  libonnx-dev libprotobuf-dev libonnx-testdata
)
if [ "$WITH_PEERS" -eq 1 ]; then
  # bench/peers (opt-in): python3-onnx writes the ONNX Loop model (and reads
  # the backend tests' .pb tensors for onnx_testdata.sh); node and
  # npm run and install onnxruntime-node. A node that is already on PATH
  # (e.g. another distribution's nodejs, which bundles npm) is kept.
  PACKAGES+=(python3-onnx)
  command -v node >/dev/null || PACKAGES+=(nodejs)
  command -v npm >/dev/null || PACKAGES+=(npm)
fi

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages already installed" >&2
  exit 0
fi

echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q >&2
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
