#include "xclbin/kernel_xml.h"

#include <expat.h>

#include <charconv>
#include <map>
#include <memory>

#include <fmt/format.h>

namespace nnfab::xclbin {
namespace {

using Attributes = std::map<std::string, std::string>;

// The parse state expat's callbacks fill in.
struct Reader {
  KernelDescription kernel;
  int kernels = 0;
  bool inKernel = false;
  std::string error;

  static void start(void* self, const XML_Char* name, const XML_Char** atts) {
    static_cast<Reader*>(self)->onStart(name, atts);
  }
  static void end(void* self, const XML_Char* name) {
    if (std::string(name) == "kernel") static_cast<Reader*>(self)->inKernel = false;
  }

  void onStart(const std::string& name, const XML_Char** atts) {
    if (!error.empty()) return;
    Attributes a;
    for (int i = 0; atts[i] != nullptr && atts[i + 1] != nullptr; i += 2) a[atts[i]] = atts[i + 1];
    if (name == "kernel") {
      ++kernels;
      inKernel = true;
      kernel.name = get(a, "kernel", "name");
      kernel.hwControlProtocol = a.count("hwControlProtocol") ? a["hwControlProtocol"] : "ap_ctrl_hs";
      kernel.interrupt = a.count("interrupt") && a["interrupt"] == "true";
    } else if (name == "port" && inKernel) {
      KernelPort p;
      p.name = get(a, "port", "name");
      p.mode = get(a, "port", "mode");
      p.range = number(a, "port", "range");
      p.dataWidth = static_cast<uint32_t>(number(a, "port", "dataWidth"));
      p.portType = a.count("portType") ? a["portType"] : "addressable";
      kernel.ports.push_back(p);
    } else if (name == "arg" && inKernel) {
      KernelArg g;
      g.name = get(a, "arg", "name");
      g.addressQualifier = static_cast<uint32_t>(number(a, "arg", "addressQualifier"));
      g.id = static_cast<uint32_t>(number(a, "arg", "id"));
      g.port = get(a, "arg", "port");
      g.size = number(a, "arg", "size");
      g.offset = number(a, "arg", "offset");
      g.hostSize = a.count("hostSize") ? parse(a["hostSize"], "arg", "hostSize") : g.size;
      g.type = a.count("type") ? a["type"] : "";
      kernel.args.push_back(g);
    }
  }

  std::string get(Attributes& a, const char* element, const char* attribute) {
    auto it = a.find(attribute);
    if (it == a.end() || it->second.empty()) {
      if (error.empty()) error = fmt::format("<{}> without {}", element, attribute);
      return {};
    }
    return it->second;
  }

  uint64_t number(Attributes& a, const char* element, const char* attribute) {
    const std::string text = get(a, element, attribute);
    return text.empty() ? 0 : parse(text, element, attribute);
  }

  // Decimal or 0x-prefixed hexadecimal, as kernel.xml writes offsets and sizes.
  uint64_t parse(const std::string& text, const char* element, const char* attribute) {
    uint64_t value = 0;
    const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
    const char* first = text.data() + (hex ? 2 : 0);
    const char* last = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(first, last, value, hex ? 16 : 10);
    if (ec != std::errc{} || ptr != last) {
      if (error.empty()) error = fmt::format("<{}> {}=\"{}\" is not a number", element, attribute, text);
    }
    return value;
  }
};

std::string hex(uint64_t v) { return fmt::format("0x{:X}", v); }

// An attribute value as XML text (expat gave it back unescaped).
std::string esc(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace

const KernelPort* KernelDescription::port(const std::string& portName) const {
  for (const auto& p : ports) {
    if (p.name == portName) return &p;
  }
  return nullptr;
}

const KernelArg* KernelDescription::arg(const std::string& argName) const {
  for (const auto& a : args) {
    if (a.name == argName) return &a;
  }
  return nullptr;
}

Result<KernelDescription> parseKernelXml(const std::string& xml) {
  std::unique_ptr<XML_ParserStruct, decltype(&XML_ParserFree)> parser(XML_ParserCreate(nullptr), &XML_ParserFree);
  if (!parser) return generalFailure("kernel.xml: cannot create an XML parser");
  Reader reader;
  XML_SetUserData(parser.get(), &reader);
  XML_SetElementHandler(parser.get(), &Reader::start, &Reader::end);
  if (XML_Parse(parser.get(), xml.data(), static_cast<int>(xml.size()), /*isFinal=*/1) == XML_STATUS_ERROR) {
    return invalidArgument(fmt::format("kernel.xml: not XML: {} at line {}",
                                       XML_ErrorString(XML_GetErrorCode(parser.get())),
                                       XML_GetCurrentLineNumber(parser.get())));
  }
  if (!reader.error.empty()) return invalidArgument("kernel.xml: " + reader.error);
  if (reader.kernels != 1) {
    return invalidArgument(fmt::format("kernel.xml: expected one <kernel>, found {}", reader.kernels));
  }
  const KernelDescription& k = reader.kernel;
  for (const auto& a : k.args) {
    if (!k.port(a.port)) {
      return invalidArgument(fmt::format("kernel.xml: argument {} names port {}, which is not declared", a.name, a.port));
    }
  }
  return reader.kernel;
}

std::string embeddedMetadata(const KernelDescription& kernel, const std::string& instance,
                             uint64_t baseAddress, const std::string& platform) {
  // XRT reads: project.platform.device.core.kernel with <port>/<arg>
  // children and <instance><addrRemap base=.../></instance>.
  std::string x;
  x += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  x += fmt::format("<project name=\"{}\">\n <platform vendor=\"xilinx\" boardid=\"\" name=\"{}\" featureRomTime=\"0\">\n",
                   esc(kernel.name), esc(platform));
  x += "  <version major=\"1\" minor=\"0\"/>\n  <description/>\n";
  x += "  <device name=\"fpga0\" fpgaDevice=\"\" addrWidth=\"0\">\n   <core name=\"OCL_REGION_0\" target=\"bitstream\" type=\"clc_region\">\n";
  x += fmt::format("    <kernel name=\"{}\" language=\"ip_c\" vlnv=\"\" preferredWorkGroupSizeMultiple=\"0\" workGroupSize=\"1\" "
                   "interrupt=\"{}\" hwControlProtocol=\"{}\">\n",
                   esc(kernel.name), kernel.interrupt ? "true" : "false", esc(kernel.hwControlProtocol));
  for (const auto& p : kernel.ports) {
    x += fmt::format("     <port name=\"{}\" mode=\"{}\" range=\"{}\" dataWidth=\"{}\" portType=\"{}\" base=\"0x0\"/>\n",
                     esc(p.name), esc(p.mode), hex(p.range), p.dataWidth, esc(p.portType));
  }
  for (const auto& a : kernel.args) {
    x += fmt::format("     <arg name=\"{}\" addressQualifier=\"{}\" id=\"{}\" port=\"{}\" size=\"{}\" offset=\"{}\" "
                     "hostOffset=\"0x0\" hostSize=\"{}\" type=\"{}\"/>\n",
                     esc(a.name), a.addressQualifier, a.id, esc(a.port), hex(a.size), hex(a.offset), hex(a.hostSize),
                     esc(a.type));
  }
  x += fmt::format("     <instance name=\"{}\">\n      <addrRemap base=\"{}\" port=\"s_axi_control\"/>\n     </instance>\n",
                   esc(instance), hex(baseAddress));
  x += "    </kernel>\n   </core>\n  </device>\n </platform>\n</project>\n";
  return x;
}

}  // namespace nnfab::xclbin
