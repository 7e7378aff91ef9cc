# tcl_check.tcl must reject this: package_xo has no -kernel option.
package_xo -kernel nnfab_core -xo_path x.xo
