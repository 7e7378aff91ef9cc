# Vitis HLS flow for the nnfab core: C-simulation, synthesis, C/RTL
# co-simulation and export as a Vitis kernel (.xo) for an Alveo U250 at
# 300 MHz. Run through the Makefile beside it (see docs/hls.md):
#   NNFAB_GENERATED=<dir with nnfab_isa.h> NNFAB_STEPS="csim csynth export" vitis_hls -f run_hls.tcl
set here [file normalize [file dirname [info script]]]
set root [file dirname $here]
if {![info exists ::env(NNFAB_GENERATED)]} {
  error "NNFAB_GENERATED must name the directory holding nnfab_isa.h (cmake target isa-headers)"
}
set generated [file normalize $::env(NNFAB_GENERATED)]
if {![file exists $generated/nnfab_isa.h]} {
  error "$generated/nnfab_isa.h is missing: run cmake --build <build dir> --target isa-headers"
}
set steps [expr {[info exists ::env(NNFAB_STEPS)] ? $::env(NNFAB_STEPS) : "csim csynth export"}]
set part [expr {[info exists ::env(NNFAB_PART)] ? $::env(NNFAB_PART) : "xcu250-figd2104-2L-e"}]
set xo [expr {[info exists ::env(NNFAB_XO)] ? $::env(NNFAB_XO) : "$here/build/nnfab_core.xo"}]
set cflags "-std=c++14 -I$root -I$here -I$generated"

open_project -reset nnfab_core_prj
set_top nnfab_core
add_files $here/nnfab_core.cpp -cflags $cflags
add_files -tb $here/csim_main.cpp -cflags $cflags

open_solution -reset sol1 -flow_target vitis
set_part $part
create_clock -period 300MHz -name default
# 64-bit device addresses on every m_axi port (PROG_ADDR, DATA_ADDR, CTX_ADDR).
config_interface -m_axi_addr64=true

foreach step $steps {
  switch -- $step {
    csim   { csim_design }
    csynth { csynth_design }
    cosim  { cosim_design }
    export {
      file mkdir [file dirname $xo]
      export_design -format xo -output $xo
    }
    default { error "unknown step $step (csim csynth cosim export)" }
  }
}
exit
