// The start tags of an XML document with their attributes, in document order:
// all the deploy consistency check needs from kernel.xml and Verilator's
// --xml-only output (both machine-written, no DTD, no CDATA). Not a general
// XML parser: text content is skipped.
#pragma once
#include <map>
#include <string>
#include <vector>

namespace nnfab::deploy {

struct XmlTag {
  std::string name;
  bool closing = false;      // </name>
  bool selfClosing = false;  // <name .../>
  std::map<std::string, std::string> attrs;

  std::string attr(const std::string& key) const {
    const auto it = attrs.find(key);
    return it == attrs.end() ? std::string() : it->second;
  }
};

// Throws std::runtime_error on a tag that does not end or an attribute
// without a quoted value.
std::vector<XmlTag> scanXml(const std::string& text);

}  // namespace nnfab::deploy
