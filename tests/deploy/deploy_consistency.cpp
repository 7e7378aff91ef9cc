#include "deploy_consistency.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>

#include "xml_tags.h"

namespace nnfab::deploy {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;
using Problems = std::vector<std::string>;

std::string readText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string hex(uint64_t v) {
  std::ostringstream s;
  s << "0x" << std::uppercase << std::hex << v;
  return s.str();
}

// "0x1C", "28": kernel.xml writes hex, the rest decimal.
std::optional<uint64_t> number(const std::string& s) {
  if (s.empty()) return std::nullopt;
  try {
    size_t used = 0;
    const uint64_t v = std::stoull(s, &used, 0);
    if (used != s.size()) return std::nullopt;
    return v;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// ------------------------------------------------------------ the one source
struct IsaPort {
  std::string name, mode, access;
  int dataWidth = 0, addressWidth = 0;
  uint64_t range = 0;
};
struct IsaArg {
  std::string name, reg, type, port;
  uint32_t offset = 0, bytes = 0;
};
struct Isa {
  int version = 0;
  std::string kernelName, protocol, clock, reset;
  bool interrupt = false;
  int frequencyMhz = 0;
  std::map<std::string, uint32_t> registers;  // name -> offset
  uint32_t lastRegisterEnd = 0;                // one past the highest register byte
  std::map<std::string, uint32_t> windows;     // read windows beside the registers: name -> offset
  std::vector<IsaPort> ports;
  std::vector<IsaArg> args;  // offset order

  const IsaPort* port(const std::string& name) const {
    for (const auto& p : ports)
      if (p.name == name) return &p;
    return nullptr;
  }
};

Isa readIsa(const fs::path& path) {
  const json j = json::parse(readText(path));
  Isa isa;
  isa.version = j.at("version");
  const json& k = j.at("kernel");
  isa.kernelName = k.at("name");
  isa.protocol = k.at("control_protocol");
  isa.interrupt = k.at("interrupt");
  isa.clock = k.at("clock").at("port");
  isa.reset = k.at("clock").at("reset");
  isa.frequencyMhz = k.at("clock").at("frequency_mhz");
  for (const auto& p : k.at("ports")) {
    IsaPort port;
    port.name = p.at("name");
    port.mode = p.at("mode");
    port.access = p.value("access", "read-write");
    port.dataWidth = p.at("data_width");
    port.addressWidth = p.at("address_width");
    port.range = p.value("range", uint64_t{0});
    isa.ports.push_back(port);
  }
  for (const auto& r : j.at("registers")) {
    const uint32_t offset = r.at("offset");
    const uint32_t bytes = static_cast<uint32_t>(r.value("width", 32) / 8);
    isa.registers[r.at("name")] = offset;
    isa.lastRegisterEnd = std::max(isa.lastRegisterEnd, offset + bytes);
    if (!r.contains("arg")) continue;
    IsaArg a;
    a.reg = r.at("name");
    a.name = r["arg"].at("name");
    a.type = r["arg"].at("type");
    a.port = r["arg"].value("port", "");
    a.offset = offset;
    a.bytes = bytes;
    isa.args.push_back(a);
  }
  // The trace ring's read window (TRACE_DEPTH 64-bit entries at
  // TRACE_RING_OFFSET, docs/isa.md "Trace ring"): the HLS top's `trace`.
  uint32_t ringOffset = 0, ringDepth = 0;
  for (const auto& c : j.at("constants")) {
    if (c.at("name") == "TRACE_RING_OFFSET") ringOffset = c.at("value");
    if (c.at("name") == "TRACE_DEPTH") ringDepth = c.at("value");
  }
  if (ringDepth != 0) {
    isa.windows["TRACE"] = ringOffset;
    isa.lastRegisterEnd = std::max(isa.lastRegisterEnd, ringOffset + ringDepth * 8u);
  }
  return isa;
}

// ------------------------------------------------- generated C++ header
void checkHeader(const Isa& isa, const fs::path& path, Problems& out) {
  const std::string text = readText(path);
  const std::regex reg(R"(static constexpr uint32_t kReg(\w+) = 0x([0-9A-Fa-f]+)u;)");
  std::map<std::string, uint32_t> seen;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), reg); it != std::sregex_iterator(); ++it)
    seen[(*it)[1]] = static_cast<uint32_t>(std::stoul((*it)[2], nullptr, 16));
  for (const auto& [name, offset] : isa.registers) {
    const auto it = seen.find(name);
    if (it == seen.end())
      out.push_back("nnfab_isa.h: register " + name + " missing (stale header?)");
    else if (it->second != offset)
      out.push_back("nnfab_isa.h: register " + name + " at " + hex(it->second) + ", isa.json says " + hex(offset));
  }
  for (const auto& [name, offset] : seen)
    if (!isa.registers.count(name)) out.push_back("nnfab_isa.h: register " + name + " is not in isa.json");
  std::smatch m;
  const std::regex version(R"(kIsaVersion = (\d+);)");
  if (!std::regex_search(text, m, version) || std::stoi(m[1]) != isa.version)
    out.push_back("nnfab_isa.h: kIsaVersion differs from isa.json version " + std::to_string(isa.version));
}

// -------------------------------------------------------------- kernel.xml
void checkKernelXml(const Isa& isa, const fs::path& path, Problems& out) {
  const auto tags = scanXml(readText(path));
  const XmlTag* kernel = nullptr;
  std::map<std::string, XmlTag> ports, args;
  for (const auto& t : tags) {
    if (t.closing) continue;
    if (t.name == "kernel") {
      if (kernel) out.push_back("kernel.xml: more than one <kernel>");
      kernel = &t;
    } else if (t.name == "port") {
      ports[t.attr("name")] = t;
    } else if (t.name == "arg") {
      args[t.attr("name")] = t;
    }
  }
  if (!kernel) {
    out.push_back("kernel.xml: no <kernel>");
    return;
  }
  if (kernel->attr("name") != isa.kernelName)
    out.push_back("kernel.xml: kernel name '" + kernel->attr("name") + "', isa.json says '" + isa.kernelName + "'");
  if (kernel->attr("hwControlProtocol") != isa.protocol)
    out.push_back("kernel.xml: hwControlProtocol '" + kernel->attr("hwControlProtocol") + "', isa.json says '" +
                  isa.protocol + "'");
  if (kernel->attr("interrupt") != (isa.interrupt ? "true" : "false"))
    out.push_back("kernel.xml: interrupt attribute differs from isa.json");

  for (const auto& p : isa.ports) {
    const auto it = ports.find(p.name);
    if (it == ports.end()) {
      out.push_back("kernel.xml: port " + p.name + " missing");
      continue;
    }
    const XmlTag& x = it->second;
    if (x.attr("mode") != p.mode) out.push_back("kernel.xml: port " + p.name + " mode " + x.attr("mode"));
    if (number(x.attr("dataWidth")) != uint64_t(p.dataWidth))
      out.push_back("kernel.xml: port " + p.name + " dataWidth " + x.attr("dataWidth") + ", isa.json says " +
                    std::to_string(p.dataWidth));
    if (p.mode == "slave" && number(x.attr("range")) != p.range)
      out.push_back("kernel.xml: port " + p.name + " range " + x.attr("range") + ", isa.json says " + hex(p.range));
  }
  for (const auto& [name, x] : ports)
    if (!isa.port(name)) out.push_back("kernel.xml: port " + name + " is not in isa.json");

  const IsaPort* control = nullptr;
  for (const auto& p : isa.ports)
    if (p.mode == "slave") control = &p;
  for (size_t id = 0; id < isa.args.size(); ++id) {
    const IsaArg& a = isa.args[id];
    const auto it = args.find(a.name);
    if (it == args.end()) {
      out.push_back("kernel.xml: arg " + a.name + " (register " + a.reg + ") missing");
      continue;
    }
    const XmlTag& x = it->second;
    const std::string where = "kernel.xml: arg " + a.name + ": ";
    if (number(x.attr("offset")) != a.offset)
      out.push_back(where + "offset " + x.attr("offset") + ", register " + a.reg + " is at " + hex(a.offset));
    if (number(x.attr("size")) != a.bytes || number(x.attr("hostSize")) != a.bytes)
      out.push_back(where + "size/hostSize " + x.attr("size") + "/" + x.attr("hostSize") + ", register " + a.reg +
                    " has " + std::to_string(a.bytes) + " bytes");
    if (number(x.attr("id")) != id) out.push_back(where + "id " + x.attr("id") + ", expected " + std::to_string(id));
    const bool pointer = !a.port.empty();
    if (x.attr("addressQualifier") != (pointer ? "1" : "0"))
      out.push_back(where + "addressQualifier " + x.attr("addressQualifier") + ", expected " + (pointer ? "1" : "0"));
    const std::string port = pointer ? a.port : (control ? control->name : "");
    if (x.attr("port") != port) out.push_back(where + "port " + x.attr("port") + ", expected " + port);
    if (x.attr("type") != a.type) out.push_back(where + "type " + x.attr("type") + ", expected " + a.type);
    if (control && a.offset + a.bytes > control->range) out.push_back(where + "outside the control range");
  }
  for (const auto& [name, x] : args) {
    bool known = false;
    for (const auto& a : isa.args) known = known || a.name == name;
    if (!known) out.push_back("kernel.xml: arg " + name + " is not a register argument in isa.json");
  }
}

// ------------------------------------------------------ the RTL top's ports
struct RtlPort {
  std::string dir;
  int width = 0;
};

std::map<std::string, RtlPort> readRtlPorts(const fs::path& path, const std::string& top) {
  const auto tags = scanXml(readText(path));
  std::map<std::string, int> widths;  // dtype id -> bits
  for (const auto& t : tags)
    if (!t.closing && t.name == "basicdtype") {
      const auto left = number(t.attr("left")), right = number(t.attr("right"));
      widths[t.attr("id")] = (left && right) ? static_cast<int>(*left - *right + 1) : 1;
    }
  std::map<std::string, RtlPort> ports;
  bool inTop = false;
  for (const auto& t : tags) {
    if (t.name == "module") {
      if (t.closing)
        inTop = false;
      else
        inTop = t.attr("name") == top;
      continue;
    }
    if (inTop && !t.closing && t.name == "var" && !t.attr("dir").empty()) {
      const auto w = widths.find(t.attr("dtype_id"));
      ports[t.attr("name")] = RtlPort{t.attr("dir"), w == widths.end() ? 0 : w->second};
    }
  }
  if (ports.empty()) throw std::runtime_error(path.string() + ": no ports of module " + top);
  return ports;
}

void checkRtl(const Isa& isa, const fs::path& path, Problems& out) {
  const auto ports = readRtlPorts(path, isa.kernelName);
  std::set<std::string> claimed;
  auto expect = [&](const std::string& name, const std::string& dir, int width) {
    claimed.insert(name);
    const auto it = ports.find(name);
    if (it == ports.end()) {
      out.push_back("RTL " + isa.kernelName + ": port " + name + " missing");
      return;
    }
    if (it->second.dir != dir) out.push_back("RTL: port " + name + " is " + it->second.dir + ", expected " + dir);
    if (it->second.width != width)
      out.push_back("RTL: port " + name + " is " + std::to_string(it->second.width) + " bits, expected " +
                    std::to_string(width));
  };
  auto forbid = [&](const std::string& name, const std::string& why) {
    if (ports.count(name)) out.push_back("RTL: port " + name + " present but " + why);
  };
  expect(isa.clock, "input", 1);
  expect(isa.reset, "input", 1);
  if (isa.interrupt) expect("interrupt", "output", 1);

  for (const auto& p : isa.ports) {
    const std::string& n = p.name;
    const bool slave = p.mode == "slave";
    const std::string in = slave ? "input" : "output";  // driven by the requester
    const std::string back = slave ? "output" : "input";
    const bool writes = slave || p.access != "read-only";
    const bool reads = slave || p.access != "write-only";
    // Read address and data: every port but a write-only master has them.
    if (reads) {
      expect(n + "_arvalid", in, 1);
      expect(n + "_arready", back, 1);
      expect(n + "_araddr", in, p.addressWidth);
      expect(n + "_rvalid", back, 1);
      expect(n + "_rready", in, 1);
      expect(n + "_rdata", back, p.dataWidth);
      expect(n + "_rresp", back, 2);
    } else {
      for (const char* s : {"_arvalid", "_araddr", "_rvalid", "_rdata"})
        forbid(n + s, "isa.json declares " + n + " write-only");
    }
    if (writes) {
      expect(n + "_awvalid", in, 1);
      expect(n + "_awready", back, 1);
      expect(n + "_awaddr", in, p.addressWidth);
      expect(n + "_wvalid", in, 1);
      expect(n + "_wready", back, 1);
      expect(n + "_wdata", in, p.dataWidth);
      expect(n + "_wstrb", in, p.dataWidth / 8);
      expect(n + "_bvalid", back, 1);
      expect(n + "_bready", in, 1);
      expect(n + "_bresp", back, 2);
    } else {
      for (const char* s : {"_awvalid", "_awaddr", "_wvalid", "_wdata", "_bvalid"})
        forbid(n + s, "isa.json declares " + n + " read-only");
    }
    if (!slave) {
      // Full AXI4: burst fields on every address channel, RLAST/WLAST.
      std::vector<std::string> channels;
      if (reads) channels.push_back("ar");
      if (writes) channels.push_back("aw");
      for (const std::string& ch : channels) {
        expect(n + "_" + ch + "len", "output", 8);
        expect(n + "_" + ch + "size", "output", 3);
        expect(n + "_" + ch + "burst", "output", 2);
      }
      if (reads) expect(n + "_rlast", "input", 1);
      if (writes) expect(n + "_wlast", "output", 1);
    } else {
      // The register map must fit the slave's address space and its range.
      if (isa.lastRegisterEnd > (uint64_t{1} << p.addressWidth))
        out.push_back("RTL: " + n + " address width " + std::to_string(p.addressWidth) +
                      " bits cannot reach the last register (ends at " + hex(isa.lastRegisterEnd) + ")");
      if ((uint64_t{1} << p.addressWidth) > p.range)
        out.push_back("isa.json: " + n + " range " + hex(p.range) + " smaller than its address space");
    }
  }
  // Vitis rejects a pin outside every interface; also catches a port isa.json
  // does not know (say, a new AXI channel signal) before a link does.
  for (const auto& [name, port] : ports) {
    if (claimed.count(name)) continue;
    bool inInterface = false;
    for (const auto& p : isa.ports) inInterface = inInterface || name.rfind(p.name + "_", 0) == 0;
    if (!inInterface) out.push_back("RTL: port " + name + " belongs to no interface of isa.json");
  }
}

// ------------------------------------------------------ the HLS top function
// The HLS kernel must be the same core to the outside: every register at
// its isa.json offset on the control bundle, and every pointer argument on
// the bundle whose m_axi port the link configurations name. A parameter is
// the register of its uppercase name, or the register whose "arg" it is.
void checkHlsTop(const Isa& isa, const fs::path& path, Problems& out) {
  const std::string text = readText(path);
  const std::string where = path.filename().string() + ": ";
  std::map<std::string, std::string> registerOf;  // HLS parameter -> register
  for (const auto& [name, offset] : isa.registers) {
    std::string lower;
    for (char c : name) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    registerOf[lower] = name;
  }
  for (const auto& a : isa.args) registerOf[a.name] = a.reg;
  std::map<std::string, uint32_t> windowAt;  // HLS parameter -> window offset
  for (const auto& [name, offset] : isa.windows) {
    std::string lower;
    for (char c : name) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    windowAt[lower] = offset;
  }

  const std::regex lite(R"(#pragma HLS INTERFACE mode=s_axilite port=(\w+) offset=(0x[0-9A-Fa-f]+) bundle=(\w+))");
  const std::regex axi(R"(#pragma HLS INTERFACE mode=m_axi port=(\w+) bundle=(\w+))");
  std::map<std::string, uint32_t> offsets;
  std::map<std::string, std::string> bundles;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), lite); it != std::sregex_iterator(); ++it) {
    offsets[(*it)[1]] = static_cast<uint32_t>(std::stoul((*it)[2], nullptr, 16));
    if ((*it)[3] != "control") out.push_back(where + (*it)[1].str() + " on s_axilite bundle " + (*it)[3].str());
  }
  for (auto it = std::sregex_iterator(text.begin(), text.end(), axi); it != std::sregex_iterator(); ++it)
    bundles[(*it)[1]] = (*it)[2];
  for (const auto& [param, offset] : offsets) {
    if (const auto w = windowAt.find(param); w != windowAt.end()) {
      if (offset != w->second)
        out.push_back(where + param + " at " + hex(offset) + ", its window is at " + hex(w->second));
      continue;
    }
    const auto reg = registerOf.find(param);
    if (reg == registerOf.end()) {
      out.push_back(where + "s_axilite parameter " + param + " is no register of isa.json");
      continue;
    }
    const uint32_t expected = isa.registers.at(reg->second);
    if (offset != expected)
      out.push_back(where + param + " at " + hex(offset) + ", register " + reg->second + " is at " + hex(expected));
  }
  for (const auto& a : isa.args) {
    if (!offsets.count(a.name)) out.push_back(where + "no s_axilite pragma for argument " + a.name);
    if (a.port.empty()) continue;
    const auto b = bundles.find(a.name);
    if (b == bundles.end())
      out.push_back(where + "no m_axi pragma for pointer argument " + a.name);
    else if ("m_axi_" + b->second != a.port)
      out.push_back(where + a.name + " on bundle " + b->second + " (port m_axi_" + b->second + "), isa.json says " +
                    a.port);
  }
}

// --------------------------------------------------- v++ link configurations
// What the cards offer (docs/deploy.md, "Memory per card").
struct Card {
  int hbm = 0, ddr = 0, slrs = 0;
};
const std::map<std::string, Card>& cards() {
  static const std::map<std::string, Card> kCards = {
      {"u50", {32, 0, 2}}, {"u55c", {32, 0, 3}}, {"u250", {0, 4, 4}}, {"u280", {32, 2, 3}}};
  return kCards;
}

bool bankExists(const Card& card, const std::string& bank) {
  std::smatch m;
  static const std::regex range(R"((HBM|DDR)\[(\d+)(?::(\d+))?\])");
  if (!std::regex_match(bank, m, range)) return false;
  const int count = m[1] == "HBM" ? card.hbm : card.ddr;
  const int first = std::stoi(m[2]);
  const int last = m[3].matched ? std::stoi(m[3]) : first;
  return first <= last && last < count;
}

void checkCfg(const Isa& isa, const fs::path& cfg, Problems& out) {
  const std::string where = cfg.filename().string() + ": ";
  const auto card = cards().find(cfg.stem().string());
  if (card == cards().end()) {
    out.push_back(where + "no such card (u50, u55c, u250, u280)");
    return;
  }
  std::istringstream in(readText(cfg));
  std::string line, section;
  std::vector<std::string> cus;
  std::map<std::string, std::set<std::string>> mapped;  // cu -> ports with sp
  std::set<std::string> placed;
  bool frequency = false;
  std::set<std::string> masters;
  for (const auto& p : isa.ports)
    if (p.mode == "master") masters.insert(p.name);
  std::vector<std::pair<std::string, std::string>> sps, slrs;
  while (std::getline(in, line)) {
    line = line.substr(0, line.find('#'));
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.pop_back();
    if (line.empty()) continue;
    if (line.front() == '[') {
      section = line;
      continue;
    }
    const auto eq = line.find('=');
    if (eq == std::string::npos) {
      out.push_back(where + "line without '=': " + line);
      continue;
    }
    const std::string key = line.substr(0, eq), value = line.substr(eq + 1);
    if (section.empty() && key == "kernel_frequency") {
      frequency = true;
      if (value != "0:" + std::to_string(isa.frequencyMhz) && value != std::to_string(isa.frequencyMhz))
        out.push_back(where + "kernel_frequency=" + value + ", isa.json says " + std::to_string(isa.frequencyMhz) +
                      " MHz");
    } else if (section == "[connectivity]" && key == "nk") {
      std::smatch m;
      static const std::regex nk(R"(([A-Za-z_]\w*):(\d+):([\w,]+))");
      if (!std::regex_match(value, m, nk)) {
        out.push_back(where + "nk=" + value + " is not <kernel>:<count>:<names>");
        continue;
      }
      if (m[1] != isa.kernelName) out.push_back(where + "nk names kernel " + m[1].str() + ", not " + isa.kernelName);
      std::stringstream names(m[3]);
      for (std::string n; std::getline(names, n, ',');) cus.push_back(n);
      if (std::to_string(cus.size()) != m[2].str())
        out.push_back(where + "nk count " + m[2].str() + " but " + std::to_string(cus.size()) + " names");
    } else if (section == "[connectivity]" && key == "sp") {
      const auto dot = value.find('.'), colon = value.find(':');
      if (dot == std::string::npos || colon == std::string::npos || colon < dot) {
        out.push_back(where + "sp=" + value + " is not <cu>.<port>:<bank>");
        continue;
      }
      sps.emplace_back(value.substr(0, colon), value.substr(colon + 1));
    } else if (section == "[connectivity]" && key == "slr") {
      const auto colon = value.find(':');
      if (colon == std::string::npos) {
        out.push_back(where + "slr=" + value + " is not <cu>:SLR<n>");
        continue;
      }
      slrs.emplace_back(value.substr(0, colon), value.substr(colon + 1));
    } else if (section == "[vivado]" && key == "prop") {
      const auto pe = value.find('=');
      if (pe != std::string::npos && value.find("TCL.") != std::string::npos) {
        const fs::path hook = cfg.parent_path() / value.substr(pe + 1);
        if (!fs::exists(hook)) out.push_back(where + "Vivado hook " + value.substr(pe + 1) + " does not exist");
      }
    }
  }
  if (!frequency) out.push_back(where + "no kernel_frequency");
  if (cus.empty()) out.push_back(where + "no nk= for " + isa.kernelName);
  const std::set<std::string> cuSet(cus.begin(), cus.end());
  if (cuSet.size() != cus.size()) out.push_back(where + "compute unit names repeat");
  for (const auto& [target, bank] : sps) {
    const auto dot = target.find('.');
    const std::string cu = target.substr(0, dot), port = target.substr(dot + 1);
    if (!cuSet.count(cu)) out.push_back(where + "sp for unknown compute unit " + cu);
    if (!masters.count(port)) out.push_back(where + "sp for " + port + ", which is no AXI4 master of kernel.xml");
    if (!bankExists(card->second, bank)) out.push_back(where + "sp to " + bank + ", not a memory of this card");
    mapped[cu].insert(port);
  }
  for (const auto& [cu, slr] : slrs) {
    if (!cuSet.count(cu)) out.push_back(where + "slr for unknown compute unit " + cu);
    std::smatch m;
    static const std::regex slrRe(R"(SLR(\d+))");
    if (!std::regex_match(slr, m, slrRe) || std::stoi(m[1]) >= card->second.slrs)
      out.push_back(where + cu + " placed in " + slr + ", the card has SLR0..SLR" +
                    std::to_string(card->second.slrs - 1));
    placed.insert(cu);
  }
  for (const auto& cu : cus) {
    for (const auto& port : masters)
      if (!mapped[cu].count(port)) out.push_back(where + cu + "." + port + " has no sp= (memory bank)");
    if (!placed.count(cu)) out.push_back(where + cu + " has no slr=");
  }
}

// ------------------------------------------------------------- constraints
void checkConstraints(const Isa& isa, const fs::path& dir, Problems& out) {
  const fs::path ooc = dir / (isa.kernelName + "_ooc.xdc");
  if (!fs::exists(ooc)) {
    out.push_back(ooc.filename().string() + " missing");
    return;
  }
  const std::string text = readText(ooc);
  std::smatch m;
  static const std::regex clock(R"(create_clock\s+-period\s+([0-9.]+)\s+-name\s+(\w+)\s+\[get_ports\s+(\w+)\])");
  if (!std::regex_search(text, m, clock)) {
    out.push_back(ooc.filename().string() + ": no create_clock on a port");
    return;
  }
  const double expected = 1000.0 / isa.frequencyMhz;
  if (std::fabs(std::stod(m[1]) - expected) > 0.001)
    out.push_back(ooc.filename().string() + ": period " + m[1].str() + " ns, isa.json's " +
                  std::to_string(isa.frequencyMhz) + " MHz needs " + std::to_string(expected));
  if (m[3] != isa.clock) out.push_back(ooc.filename().string() + ": clock on port " + m[3].str() + ", not " + isa.clock);
}

}  // namespace

std::vector<std::string> checkDeployConsistency(const DeploySources& s) {
  Problems out;
  const Isa isa = readIsa(s.isaJson);
  checkHeader(isa, s.isaHeader, out);
  checkKernelXml(isa, s.kernelXml, out);
  checkRtl(isa, s.rtlXml, out);
  checkHlsTop(isa, s.hlsTop, out);
  std::vector<fs::path> cfgs;
  for (const auto& e : fs::directory_iterator(s.bitstreamsDir))
    if (e.path().extension() == ".cfg") cfgs.push_back(e.path());
  std::sort(cfgs.begin(), cfgs.end());
  for (const auto& [card, facts] : cards())
    if (!fs::exists(s.bitstreamsDir / (card + ".cfg"))) out.push_back("bitstreams/" + card + ".cfg missing");
  for (const auto& cfg : cfgs) checkCfg(isa, cfg, out);
  checkConstraints(isa, s.constraintsDir, out);
  return out;
}

}  // namespace nnfab::deploy
