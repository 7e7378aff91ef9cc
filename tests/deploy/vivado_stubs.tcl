# Stand-ins for the Vivado, Vitis HLS and XDC commands nnfab's Tcl uses, so
# that plain tclsh can run those scripts without the tools (tcl_check.tcl).
# Each stub prints "CALL: <command> <args>" and returns a placeholder object;
# the queries that scripts test for emptiness return nothing. A command that
# is not listed here stays unknown, so a misspelt command fails the check.

namespace eval ::nnfab_stub {
  variable returns_empty {
    ipx::get_bus_parameters ipx::get_memory_maps ipx::get_address_blocks
    get_pblocks
  }
  variable commands {
    create_project add_files set_property get_property get_files
    current_fileset update_compile_order close_project package_xo
    ipx::package_project ipx::current_core ipx::associate_bus_interfaces
    ipx::get_bus_parameters ipx::get_bus_interfaces ipx::add_bus_parameter
    ipx::get_memory_maps ipx::add_memory_map ipx::get_address_blocks
    ipx::remove_address_block ipx::add_address_block ipx::add_register
    ipx::add_register_parameter ipx::get_register_parameters
    ipx::create_xgui_files ipx::update_checksums ipx::check_integrity
    ipx::save_core
    open_project set_top open_solution set_part config_interface
    csim_design csynth_design cosim_design export_design
    create_clock get_ports get_cells get_pins get_nets get_clocks
    set_false_path get_pblocks read_xdc
  }
}

namespace eval ::ipx {}
foreach cmd $::nnfab_stub::commands {
  set result [expr {[lsearch -exact $::nnfab_stub::returns_empty $cmd] >= 0 ? "" : "stub:$cmd"}]
  # The body is built now, with this command's name and result in it.
  proc ::$cmd {args} "puts \"CALL: $cmd \$args\"; return [list $result]"
}

# Options of the commands whose syntax the Vivado/Vitis references list
# (UG835, UG1393): a stub of these also rejects an option they do not have.
array set ::nnfab_stub::options {
  package_xo {-kernel_name -force -kernel_xml -output_kernel_xml -design_xml -ip_directory
              -parent_ip_directory -kernel_files -kernel_xml_args -kernel_xml_pipes
              -kernel_xml_connections -ctrl_protocol -xo_path -quiet -verbose}
  read_xdc {-cells -ref -quiet_diff_pairs -mode -unmanaged -no_add -quiet -verbose}
  create_clock {-period -name -waveform -add -quiet -verbose}
  ipx::package_project {-root_dir -vendor -library -name -version -taxonomy -import_files
                        -set_current -force -force_update_compile_order -archive_source_project
                        -generated_files -module -quiet -verbose}
  ipx::associate_bus_interfaces {-busif -clock -reset -remove -quiet -verbose}
}
foreach {cmd allowed} [array get ::nnfab_stub::options] {
  set result [expr {[lsearch -exact $::nnfab_stub::returns_empty $cmd] >= 0 ? "" : "stub:$cmd"}]
  proc ::$cmd {args} [string map [list @CMD@ $cmd @ALLOWED@ [list $allowed] @RESULT@ [list $result]] {
    foreach a $args {
      if {[string match -* $a] && [lsearch -exact @ALLOWED@ $a] < 0} {
        error "@CMD@: unknown option $a"
      }
    }
    puts "CALL: @CMD@ $args"
    return @RESULT@
  }]
}

# Vitis HLS scripts end with `exit`; keep the checker running after them.
rename ::exit ::nnfab_stub::real_exit
proc ::exit {{code 0}} { puts "CALL: exit $code" }
