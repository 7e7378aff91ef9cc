// The Vitis kernel view of isa.json (its "kernel" block and the registers'
// "arg" entries): kernel.xml and the Vivado packaging scripts of the RTL
// kernel. Part of isa_gen; header-only because sim/ bootstraps isa_gen at
// configure time by compiling isa_gen.cpp alone. See docs/deploy.md.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace nnfab::isagen {
namespace detail {

using nlohmann::json;

inline std::string hexOf(uint64_t v) {
  std::ostringstream s;
  s << "0x" << std::uppercase << std::hex << v;
  return s.str();
}

inline std::string xmlEscape(const std::string& s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '&': o += "&amp;"; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '"': o += "&quot;"; break;
      default: o += c;
    }
  }
  return o;
}

// A Tcl word in double quotes with every substitution character escaped, so
// documentation text can never run a command inside Vivado.
inline std::string tclQuote(const std::string& s) {
  std::string o = "\"";
  for (char c : s) {
    if (c == '\\' || c == '"' || c == '$' || c == '[' || c == ']' || c == '{' || c == '}') o += '\\';
    o += c;
  }
  return o + "\"";
}

struct Port {
  std::string name, mode, protocol, access;
  int dataWidth = 0, addressWidth = 0;
  uint64_t range = 0;
};

struct Arg {
  std::string name, reg, type, port;  // port empty: scalar on the control slave
  int id = 0;
  uint32_t offset = 0, bytes = 0;
  bool pointer() const { return !port.empty(); }
};

struct Kernel {
  std::string name, vlnv, vendor, library, version, protocol, clock, reset;
  bool interrupt = false;
  int frequencyMhz = 0;
  std::vector<Port> ports;
  std::vector<Arg> args;
  const Port& control() const {
    for (const auto& p : ports)
      if (p.mode == "slave") return p;
    throw std::runtime_error("isa.json kernel: no slave port");
  }
};

// Reads and checks the "kernel" block: a bad annotation fails the build here,
// not in a Vitis run hours later.
inline Kernel readKernel(const json& isa) {
  if (!isa.contains("kernel")) throw std::runtime_error("isa.json has no \"kernel\" block");
  const json& k = isa["kernel"];
  Kernel out;
  out.name = k.at("name");
  out.vendor = k.at("vendor");
  out.library = k.at("library");
  out.version = k.at("version");
  out.vlnv = out.vendor + ":" + out.library + ":" + out.name + ":" + out.version;
  out.protocol = k.at("control_protocol");
  out.interrupt = k.at("interrupt");
  out.clock = k.at("clock").at("port");
  out.reset = k.at("clock").at("reset");
  out.frequencyMhz = k.at("clock").at("frequency_mhz");
  int slaves = 0;
  for (const auto& p : k.at("ports")) {
    Port port;
    port.name = p.at("name");
    port.mode = p.at("mode");
    port.protocol = p.at("protocol");
    port.dataWidth = p.at("data_width");
    port.addressWidth = p.at("address_width");
    port.access = p.value("access", "read-write");
    if (port.mode == "slave") {
      ++slaves;
      port.range = p.at("range");
      if (port.range < (uint64_t{1} << port.addressWidth))
        throw std::runtime_error("isa.json kernel: range of " + port.name + " is below its address space");
    } else if (port.mode == "master") {
      if (port.addressWidth != 64) throw std::runtime_error("isa.json kernel: Vitis needs 64-bit addresses on " + port.name);
    } else {
      throw std::runtime_error("isa.json kernel: port " + port.name + " has mode " + port.mode);
    }
    out.ports.push_back(port);
  }
  if (slaves != 1) throw std::runtime_error("isa.json kernel: a Vitis kernel has exactly one AXI4-Lite slave");

  const Port& ctl = out.control();
  for (const auto& r : isa.at("registers")) {
    if (!r.contains("arg")) continue;
    Arg a;
    a.reg = r.at("name");
    a.name = r["arg"].at("name");
    a.type = r["arg"].at("type");
    a.port = r["arg"].value("port", "");
    a.offset = r.at("offset");
    a.bytes = static_cast<uint32_t>(r.value("width", 32) / 8);
    a.id = static_cast<int>(out.args.size());
    if (a.offset < 0x10) throw std::runtime_error("isa.json: arg " + a.name + " below 0x10 (reserved for control)");
    if (a.offset + a.bytes > (uint64_t{1} << ctl.addressWidth))
      throw std::runtime_error("isa.json: arg " + a.name + " outside the control slave's address space");
    if (r.at("access") != "RW") throw std::runtime_error("isa.json: arg " + a.name + " on a register the host cannot write");
    if (a.pointer()) {
      bool found = false;
      for (const auto& p : out.ports) found = found || (p.name == a.port && p.mode == "master");
      if (!found) throw std::runtime_error("isa.json: arg " + a.name + " names unknown master port " + a.port);
      if (a.bytes != 8) throw std::runtime_error("isa.json: pointer arg " + a.name + " is not a 64-bit register");
    }
    out.args.push_back(a);
  }
  if (out.args.empty()) throw std::runtime_error("isa.json: no register carries an \"arg\"");
  return out;
}

}  // namespace detail


// kernel.xml: the kernel's ports, arguments and control protocol, as v++ and
// XRT read it (package_xo -kernel_xml, the xclbin's EMBEDDED_METADATA).
inline std::string kernelXml(const nlohmann::json& isa) {
  const detail::Kernel k = detail::readKernel(isa);
  std::ostringstream x;
  x << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
       "<!-- GENERATED by isa/isa_gen from isa/isa.json. Do not edit. -->\n"
       "<root versionMajor=\"1\" versionMinor=\"6\">\n";
  x << "  <kernel name=\"" << k.name << "\" language=\"ip_c\" vlnv=\"" << k.vlnv
    << "\" attributes=\"\" preferredWorkGroupSizeMultiple=\"0\" workGroupSize=\"1\" interrupt=\""
    << (k.interrupt ? "true" : "false") << "\" hwControlProtocol=\"" << k.protocol << "\">\n";
  x << "    <ports>\n";
  for (const auto& p : k.ports)
    x << "      <port name=\"" << p.name << "\" mode=\"" << p.mode << "\" range=\""
      << (p.mode == "slave" ? detail::hexOf(p.range) : std::string("0xFFFFFFFFFFFFFFFF")) << "\" dataWidth=\"" << p.dataWidth
      << "\" portType=\"addressable\" base=\"0x0\"/>\n";
  x << "    </ports>\n    <args>\n";
  for (const auto& a : k.args)
    x << "      <arg name=\"" << a.name << "\" addressQualifier=\"" << (a.pointer() ? 1 : 0) << "\" id=\"" << a.id
      << "\" port=\"" << (a.pointer() ? a.port : k.control().name) << "\" size=\"" << detail::hexOf(a.bytes) << "\" offset=\""
      << detail::hexOf(a.offset) << "\" type=\"" << detail::xmlEscape(a.type) << "\" hostOffset=\"0x0\" hostSize=\"" << detail::hexOf(a.bytes)
      << "\"/>\n";
  x << "    </args>\n  </kernel>\n</root>\n";
  return x.str();
}

// Vivado Tcl that packages the RTL as an IP for Vitis:
//   vivado -mode batch -source nnfab_package_ip.tcl -tclargs SOURCE_DIR GENERATED_DIR IP_DIR [PART]
inline std::string packageIpTcl(const nlohmann::json& isa) {
  const detail::Kernel k = detail::readKernel(isa);
  std::ostringstream t;
  t << "# GENERATED by isa/isa_gen from isa/isa.json. Do not edit.\n"
       "# Packages the RTL core as a Vivado IP that Vitis can link as an RTL kernel\n"
       "# (docs/deploy.md). bitstreams/Makefile runs it:\n"
       "#   vivado -mode batch -source nnfab_package_ip.tcl -tclargs SOURCE_DIR GENERATED_DIR IP_DIR [PART]\n"
       "# SOURCE_DIR is the repository (rtl/, constraints/).\n";
  t << "if {[llength $argv] < 3} {\n"
       "  error \"usage: vivado -mode batch -source nnfab_package_ip.tcl -tclargs SOURCE_DIR GENERATED_DIR IP_DIR ?PART?\"\n"
       "}\n"
       "set source_dir [file normalize [lindex $argv 0]]\n"
       "set generated_dir [file normalize [lindex $argv 1]]\n"
       "set ip_dir [file normalize [lindex $argv 2]]\n"
       "# The part only fixes the device family for elaboration; v++ --link retargets the IP.\n"
       "set part [expr {[llength $argv] > 3 ? [lindex $argv 3] : \"xcu250-figd2104-2L-e\"}]\n"
       "set svh [file join $generated_dir nnfab_isa.svh]\n"
       "set ooc_xdc [file join $source_dir constraints " << k.name << "_ooc.xdc]\n"
       "foreach f [list $svh $ooc_xdc] {\n"
       "  if {![file exists $f]} {\n"
       "    error \"$f is missing (nnfab_isa.svh: cmake --build <build dir> --target isa-headers)\"\n"
       "  }\n"
       "}\n\n";
  t << "create_project -force -part $part " << k.name << "_pkg [file join $ip_dir .. " << k.name << "_pkg]\n"
       "add_files -norecurse [lsort [glob -directory [file join $source_dir rtl] *.sv]]\n"
       "add_files -norecurse $svh\n"
       "set_property file_type {Verilog Header} [get_files $svh]\n"
       "set_property is_global_include true [get_files $svh]\n"
       "set_property include_dirs [list $generated_dir] [current_fileset]\n"
       "set_property top " << k.name << " [current_fileset]\n"
       "# The kernel clock for the kernel's out-of-context synthesis only; in the\n"
       "# linked design the platform's clock (v++ kernel_frequency) drives ap_clk.\n"
       "add_files -fileset constrs_1 -norecurse $ooc_xdc\n"
       "set_property USED_IN {synthesis implementation out_of_context} [get_files $ooc_xdc]\n"
       "update_compile_order -fileset sources_1\n\n";
  t << "# Port prefixes (s_axi_control_*, m_axi_prog_*, m_axi_data_*, ...) make Vivado\n"
       "# infer the AXI interfaces; ap_clk, ap_rst_n and interrupt are inferred too.\n"
       "ipx::package_project -root_dir $ip_dir -vendor " << k.vendor << " -library " << k.library
    << " -taxonomy /KernelIP -import_files -set_current true\n"
       "set core [ipx::current_core]\n"
       "set_property name " << k.name << " $core\n"
       "set_property version " << k.version << " $core\n"
       "set_property core_revision 1 $core\n\n";
  t << "# Every port belongs to an interface (Vitis rejects loose pins); the clock\n"
       "# drives all of them and the reset is active low.\n";
  for (const auto& p : k.ports)
    t << "ipx::associate_bus_interfaces -busif " << p.name << " -clock " << k.clock << " $core\n";
  t << "ipx::associate_bus_interfaces -clock " << k.clock << " -reset " << k.reset << " $core\n"
       "set_property value ACTIVE_LOW [ipx::get_bus_parameters POLARITY -of_objects [ipx::get_bus_interfaces "
    << k.reset << " -of_objects $core]]\n"
       "set clk_if [ipx::get_bus_interfaces " << k.clock << " -of_objects $core]\n"
       "if {[llength [ipx::get_bus_parameters FREQ_HZ -of_objects $clk_if]] == 0} {\n"
       "  ipx::add_bus_parameter FREQ_HZ $clk_if\n"
       "}\n"
       "set_property value " << k.frequencyMhz << "000000 [ipx::get_bus_parameters FREQ_HZ -of_objects $clk_if]\n";
  if (k.interrupt)
    t << "set_property value LEVEL_HIGH [ipx::get_bus_parameters SENSITIVITY -of_objects [ipx::get_bus_interfaces interrupt "
         "-of_objects $core]]\n";
  t << "\n";

  const detail::Port& ctl = k.control();
  t << "# The register map, every register of isa.json; the kernel arguments name the\n"
       "# AXI4 master their address is used on (ASSOCIATED_BUSIF).\n"
       "set mm [ipx::get_memory_maps " << ctl.name << " -of_objects $core]\n"
       "if {[llength $mm] == 0} {\n"
       "  set mm [ipx::add_memory_map " << ctl.name << " $core]\n"
       "}\n"
       "set_property slave_memory_map_ref " << ctl.name << " [ipx::get_bus_interfaces " << ctl.name
    << " -of_objects $core]\n"
       "foreach block [ipx::get_address_blocks -of_objects $mm] {\n"
       "  ipx::remove_address_block [get_property NAME $block] $mm\n"
       "}\n"
       "set block [ipx::add_address_block reg0 $mm]\n"
       "set_property range " << detail::hexOf(ctl.range) << " $block\n"
       "set_property width " << ctl.dataWidth << " $block\n"
       "set_property usage register $block\n";
  for (const auto& r : isa.at("registers")) {
    const std::string name = r.at("name");
    t << "set reg [ipx::add_register " << name << " $block]\n"
      << "set_property address_offset " << detail::hexOf(r.at("offset").get<uint32_t>()) << " $reg\n"
      << "set_property size " << r.value("width", 32) << " $reg\n"
      << "set_property description " << detail::tclQuote(r.at("doc").get<std::string>()) << " $reg\n";
    for (const auto& a : k.args)
      if (a.reg == name && a.pointer())
        t << "ipx::add_register_parameter ASSOCIATED_BUSIF $reg\n"
          << "set_property value " << a.port << " [ipx::get_register_parameters ASSOCIATED_BUSIF -of_objects $reg]\n";
  }
  t << "\n# A Vitis RTL kernel, controlled by the host alone (isa.json kernel.control_protocol).\n"
       "set_property sdx_kernel true $core\n"
       "set_property sdx_kernel_type rtl $core\n"
       "set_property vitis_drc {ctrl_protocol " << k.protocol << "} $core\n"
       "set_property ipi_drc {ignore_freq_hz true} $core\n"
       "ipx::create_xgui_files $core\n"
       "ipx::update_checksums $core\n"
       "ipx::check_integrity -kernel $core\n"
       "ipx::save_core $core\n"
       "close_project -delete\n";
  return t.str();
}

// Vivado Tcl that turns that IP into nnfab_core.xo:
//   vivado -mode batch -source nnfab_package_xo.tcl -tclargs IP_DIR KERNEL_XML XO
inline std::string packageXoTcl(const nlohmann::json& isa) {
  const detail::Kernel k = detail::readKernel(isa);
  std::ostringstream t;
  t << "# GENERATED by isa/isa_gen from isa/isa.json. Do not edit.\n"
       "# Wraps the packaged IP and the generated kernel.xml into " << k.name << ".xo for\n"
       "# v++ --link (docs/deploy.md). bitstreams/Makefile runs it:\n"
       "#   vivado -mode batch -source nnfab_package_xo.tcl -tclargs IP_DIR KERNEL_XML XO\n";
  t << "if {[llength $argv] != 3} {\n"
       "  error \"usage: vivado -mode batch -source nnfab_package_xo.tcl -tclargs IP_DIR KERNEL_XML XO\"\n"
       "}\n"
       "set ip_dir [file normalize [lindex $argv 0]]\n"
       "set kernel_xml [file normalize [lindex $argv 1]]\n"
       "set xo [file normalize [lindex $argv 2]]\n"
       "foreach f [list [file join $ip_dir component.xml] $kernel_xml] {\n"
       "  if {![file exists $f]} { error \"$f is missing\" }\n"
       "}\n"
       "file mkdir [file dirname $xo]\n"
       "# " << k.protocol << ": XRT never starts or polls the kernel; the host's CoreDriver\n"
       "# drives every register through xrt::ip (docs/deploy.md).\n"
       "package_xo -force -xo_path $xo -kernel_name " << k.name << " -ip_directory $ip_dir -kernel_xml $kernel_xml"
       " -ctrl_protocol " << k.protocol << "\n";
  return t.str();
}

}  // namespace nnfab::isagen
