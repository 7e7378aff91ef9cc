#!/usr/bin/env bash
# Test of bitstreams/Makefile without Vitis: bad PLATFORM/KERNEL stop with a
# message, and a dry run (make -n) of each card runs the consistency preflight
# and issues the v++ link with that card's configuration, whose Vivado hook
# path the Makefile makes absolute.
#   test_makefile.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1 build=$2
mk=(make --no-print-directory -C "$src/bitstreams" BUILD="$build")
fail() { echo "FAIL: $*" >&2; exit 1; }

expect_error() {  # expect_error REGEX make-args...
  local regex=$1; shift
  local out
  if out=$("${mk[@]}" "$@" 2>&1); then fail "make $* succeeded"; fi
  grep -Eq "$regex" <<<"$out" || fail "make $*: no message matching '$regex' in: $out"
}
expect_error 'PLATFORM=<platform name> is required' check-platform PLATFORM=
expect_error 'PLATFORM=<platform name> is required' PLATFORM=   # the default goal is xclbin
expect_error "no link configuration for card 'u999'" check-platform PLATFORM=xilinx_u999_gen3x16_xdma_1_202210_1
expect_error "KERNEL must be rtl or hls, not 'vhdl'" check-kernel KERNEL=vhdl

declare -A platforms=(
  [u50]=xilinx_u50_gen3x16_xdma_5_202210_1
  [u55c]=xilinx_u55c_gen3x16_xdma_3_202210_1
  [u250]=xilinx_u250_gen3x16_xdma_4_1_202210_1
  [u280]=xilinx_u280_gen3x16_xdma_1_202211_1
)
for card in "${!platforms[@]}"; do
  p=${platforms[$card]}
  out=$("${mk[@]}" -n xclbin PLATFORM="$p")
  grep -q -- "v++ --link --target hw --platform $p --config $src/bitstreams/build/$card-rtl-hw/link.cfg" <<<"$out" ||
    fail "$card: no v++ link with its configuration in: $out"
  grep -q "package_xo.tcl" <<<"$out" || fail "$card: the RTL kernel is not packaged"
  grep -q "ctest --test-dir $build --no-tests=error" <<<"$out" || fail "$card: no consistency preflight before the link"
  grep -q "manifest.sh $src/bitstreams/build/$card-rtl-hw/nnfab_core.xclbin $p rtl hw" <<<"$out" ||
    fail "$card: no manifest"
  # The rewritten cfg points at the real hook.
  hook=$(sed "s|=\.\./constraints/|=$src/constraints/|" "$src/bitstreams/$card.cfg" |
         sed -n 's/^prop=run.impl_1.STEPS.OPT_DESIGN.TCL.PRE=//p')
  [[ "$hook" == /* && -f "$hook" ]] || fail "$card: hook '$hook' is not an existing absolute path"
done

out=$("${mk[@]}" -n xclbin PLATFORM=${platforms[u250]} PREFLIGHT=0)
if grep -q "ctest --test-dir" <<<"$out"; then fail "PREFLIGHT=0 still runs the preflight"; fi

out=$("${mk[@]}" -n hw_emu PLATFORM=${platforms[u280]} KERNEL=hls)
grep -q -- "--target hw_emu" <<<"$out" || fail "hw_emu: no hw_emu link"
grep -q "PART=xcu280-fsvh2892-2L-e" <<<"$out" || fail "hw_emu KERNEL=hls: HLS not built for the U280 part"
grep -q "emconfigutil --platform ${platforms[u280]}" <<<"$out" || fail "hw_emu: no emconfig"
echo "Makefile test OK"
