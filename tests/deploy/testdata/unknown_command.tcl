# tcl_check.tcl must reject this: "creat_project" is no Vivado command.
creat_project -force nnfab
