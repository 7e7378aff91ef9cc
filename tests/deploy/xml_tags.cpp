#include "xml_tags.h"

#include <cctype>
#include <stdexcept>

namespace nnfab::deploy {
namespace {

std::string unescape(const std::string& s) {
  static const std::pair<const char*, char> kEntities[] = {
      {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&apos;", '\''}};
  std::string out;
  for (size_t i = 0; i < s.size();) {
    bool replaced = false;
    if (s[i] == '&') {
      for (const auto& [entity, c] : kEntities) {
        const std::string e(entity);
        if (s.compare(i, e.size(), e) == 0) {
          out += c;
          i += e.size();
          replaced = true;
          break;
        }
      }
    }
    if (!replaced) out += s[i++];
  }
  return out;
}

bool isNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':' || c == '-' || c == '.';
}

}  // namespace

std::vector<XmlTag> scanXml(const std::string& text) {
  std::vector<XmlTag> tags;
  size_t i = 0;
  while ((i = text.find('<', i)) != std::string::npos) {
    if (text.compare(i, 4, "<!--") == 0) {
      const size_t end = text.find("-->", i);
      if (end == std::string::npos) throw std::runtime_error("unterminated XML comment");
      i = end + 3;
      continue;
    }
    if (text.compare(i, 2, "<?") == 0 || text.compare(i, 2, "<!") == 0) {
      const size_t end = text.find('>', i);
      if (end == std::string::npos) throw std::runtime_error("unterminated XML declaration");
      i = end + 1;
      continue;
    }
    XmlTag tag;
    size_t p = i + 1;
    if (p < text.size() && text[p] == '/') {
      tag.closing = true;
      ++p;
    }
    while (p < text.size() && isNameChar(text[p])) tag.name += text[p++];
    if (tag.name.empty()) throw std::runtime_error("XML tag without a name at byte " + std::to_string(i));
    for (;;) {
      while (p < text.size() && std::isspace(static_cast<unsigned char>(text[p]))) ++p;
      if (p >= text.size()) throw std::runtime_error("unterminated XML tag <" + tag.name);
      if (text[p] == '>') {
        ++p;
        break;
      }
      if (text[p] == '/' && p + 1 < text.size() && text[p + 1] == '>') {
        tag.selfClosing = true;
        p += 2;
        break;
      }
      std::string key;
      while (p < text.size() && isNameChar(text[p])) key += text[p++];
      if (key.empty() || p + 1 >= text.size() || text[p] != '=' || (text[p + 1] != '"' && text[p + 1] != '\''))
        throw std::runtime_error("malformed attribute in XML tag <" + tag.name);
      const char quote = text[p + 1];
      const size_t end = text.find(quote, p + 2);
      if (end == std::string::npos) throw std::runtime_error("unterminated attribute in XML tag <" + tag.name);
      tag.attrs[key] = unescape(text.substr(p + 2, end - p - 2));
      p = end + 1;
    }
    tags.push_back(std::move(tag));
    i = p;
  }
  return tags;
}

}  // namespace nnfab::deploy
