# Vivado hook run before opt_design of the v++ link's implementation
# (bitstreams/*.cfg: [vivado] prop=run.impl_1.STEPS.OPT_DESIGN.TCL.PRE=...).
# Applies constraints/nnfab_core.xdc to every nnfab_core compute unit, scoped
# to that unit, and prints the pblock each unit was assigned to by `slr=`.
set here [file dirname [file normalize [info script]]]
set xdc [file join $here nnfab_core.xdc]
set cus [get_cells -quiet -hierarchical -filter {ORIG_REF_NAME == nnfab_core || REF_NAME == nnfab_core}]
if {[llength $cus] == 0} {
  error "nnfab_core_impl.tcl: no nnfab_core instance in the design"
}
foreach cu $cus {
  read_xdc -cells $cu $xdc
  set pblocks [get_pblocks -quiet -of_objects $cu]
  if {[llength $pblocks] == 0} {
    puts "WARNING: nnfab_core_impl.tcl: $cu is in no pblock; check slr= in the link configuration"
  } else {
    puts "INFO: nnfab_core_impl.tcl: $cu placed in pblock(s) $pblocks"
  }
}
