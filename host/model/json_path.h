// Where a value sits in a JSON document, spelled as the reader's messages
// spell it: "main.operands[3].dimensions[1]". A path is a chain of frames on
// the reader's own call stack, so descending costs nothing; the text is built
// only when an error needs it. A child frame points at its parent: name every
// intermediate path (`const JsonPath ops = path.child("operands");`) so that
// no temporary parent dies before its children.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace nnfab::json {

class JsonPath {
 public:
  JsonPath() = default;  // the document root

  JsonPath child(std::string_view key) const { return JsonPath(this, key, 0, false); }
  JsonPath child(size_t index) const { return JsonPath(this, {}, index, true); }

  // "(root)" for the root itself.
  std::string str() const;

 private:
  JsonPath(const JsonPath* parent, std::string_view key, size_t index, bool isIndex)
      : parent_(parent), key_(key), index_(index), isIndex_(isIndex) {}

  const JsonPath* parent_ = nullptr;
  std::string_view key_;
  size_t index_ = 0;
  bool isIndex_ = false;
};

// Path text building blocks, shared with the parser (which tracks its own
// path while the tree is being built). A key that is not a plain identifier
// is written as ["..."], escaped and shortened.
void appendPathKey(std::string& path, std::string_view key);
void appendPathIndex(std::string& path, size_t index);
inline constexpr std::string_view kRootPath = "(root)";

// `text` made safe and short for a message: control characters and
// non-ASCII bytes escaped as \xNN, cut after `maxChars` characters with
// "...". quoteForMessage also escapes quotes and backslashes and wraps the
// text in double quotes.
std::string escapeForMessage(std::string_view text, size_t maxChars);
std::string quoteForMessage(std::string_view text, size_t maxChars = 64);

}  // namespace nnfab::json
