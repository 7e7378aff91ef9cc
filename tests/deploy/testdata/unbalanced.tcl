# tcl_check.tcl must reject this: the brace never closes.
if {1} {
  create_project -force nnfab
