# Checks one of nnfab's Tcl files without Vivado (docs/deploy.md, "What was
# verified"): the file must be syntactically complete, and it must run to its
# end under tclsh with the Vivado commands replaced by the stubs of
# vivado_stubs.tcl, which print every tool command the script would issue.
#   tclsh tcl_check.tcl FILE [ARG...]     (ARGs become the script's $argv)
# Prints "CALL: ..." lines, then "TCL-CHECK OK FILE"; exits 1 on any error.
if {$argc < 1} {
  puts stderr "usage: tclsh tcl_check.tcl FILE ?ARG...?"
  exit 2
}
set file [lindex $argv 0]
set script_args [lrange $argv 1 end]
set fd [open $file r]
set text [read $fd]
close $fd
if {![info complete $text]} {
  puts stderr "TCL-CHECK FAIL $file: unbalanced braces, brackets or quotes"
  exit 1
}
source [file join [file dirname [file normalize [info script]]] vivado_stubs.tcl]
set ::argv $script_args
set ::argc [llength $script_args]
if {[catch {uplevel #0 [list source $file]} message options]} {
  puts stderr "TCL-CHECK FAIL $file: $message"
  puts stderr [dict get $options -errorinfo]
  ::nnfab_stub::real_exit 1
}
puts "TCL-CHECK OK $file"
# tclsh itself ends with `exit`, which the stubs replaced.
::nnfab_stub::real_exit 0
