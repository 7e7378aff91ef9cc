#include "model/json_path.h"

#include <fmt/format.h>

#include <vector>

namespace nnfab::json {
namespace {

bool isIdentifier(std::string_view key) {
  if (key.empty() || key.size() > 64) return false;
  for (size_t i = 0; i < key.size(); ++i) {
    const char c = key[i];
    const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    const bool digit = c >= '0' && c <= '9';
    if (!letter && !(digit && i > 0)) return false;
  }
  return true;
}

std::string escape(std::string_view text, size_t maxChars, bool escapeQuotes) {
  std::string out;
  size_t shown = 0;
  for (const char c : text) {
    if (shown == maxChars) {
      out += "...";
      break;
    }
    const auto byte = static_cast<unsigned char>(c);
    // Escaping every non-ASCII byte keeps a cut message valid UTF-8 and
    // keeps NULs and terminal controls out of logs.
    if (escapeQuotes && (c == '"' || c == '\\')) {
      out += '\\';
      out += c;
    } else if (byte < 0x20 || byte >= 0x7f) {
      out += fmt::format("\\x{:02x}", byte);
    } else {
      out += c;
    }
    ++shown;
  }
  return out;
}

}  // namespace

std::string escapeForMessage(std::string_view text, size_t maxChars) {
  return escape(text, maxChars, false);
}

std::string quoteForMessage(std::string_view text, size_t maxChars) {
  std::string out = "\"";
  out += escape(text, maxChars, true);
  out += '"';
  return out;
}

void appendPathKey(std::string& path, std::string_view key) {
  if (isIdentifier(key)) {
    if (!path.empty()) path += '.';
    path += key;
  } else {
    path += '[';
    path += quoteForMessage(key);
    path += ']';
  }
}

void appendPathIndex(std::string& path, size_t index) { path += fmt::format("[{}]", index); }

std::string JsonPath::str() const {
  std::vector<const JsonPath*> frames;
  for (const JsonPath* p = this; p->parent_ != nullptr; p = p->parent_) frames.push_back(p);
  if (frames.empty()) return std::string(kRootPath);
  std::string out;
  for (auto it = frames.rbegin(); it != frames.rend(); ++it) {
    if ((*it)->isIndex_) {
      appendPathIndex(out, (*it)->index_);
    } else {
      appendPathKey(out, (*it)->key_);
    }
  }
  return out;
}

}  // namespace nnfab::json
