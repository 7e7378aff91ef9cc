#include "model/json_document.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <bit>
#include <optional>
#include <unordered_set>

#include "model/json_path.h"

namespace nnfab::json {

// Builds the flat node array from nlohmann's SAX events. nlohmann's SAX
// parser is iterative, and returning false from any event stops it at once,
// so a document nested a million levels deep costs kMaxJsonDepth steps.
class JsonDocumentBuilder final : public nlohmann::json_sax<nlohmann::json> {
 public:
  explicit JsonDocumentBuilder(JsonDocument& doc) : doc_(doc) {}

  const std::optional<std::string>& error() const { return error_; }

  // Growing by doubling copies the node array about twice over; numeric
  // arrays, the bulk of large files, take several bytes of text per node.
  // Capped so that a huge input of whitespace does not reserve gigabytes.
  void reserveFor(size_t textBytes) {
    constexpr size_t kMaxReservedNodes = size_t{1} << 22;  // 128 MiB of nodes
    doc_.nodes_.reserve(std::min(textBytes / 8, kMaxReservedNodes));
    doc_.pool_.reserve(std::min(textBytes / 2, kMaxReservedNodes * 8));
  }
  // One whole value was read.
  bool complete() const { return !doc_.nodes_.empty() && depth_ == 0; }

  bool null() override { return add(JsonNode{}); }

  bool boolean(bool value) override {
    JsonNode node;
    node.kind = JsonKind::Bool;
    node.payload = value ? 1 : 0;
    return add(node);
  }

  bool number_integer(number_integer_t value) override {
    JsonNode node;
    node.kind = JsonKind::Integer;
    node.negative = value < 0;
    // Unsigned negation is defined for INT64_MIN too.
    node.payload = value < 0 ? 0 - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
    return add(node);
  }

  bool number_unsigned(number_unsigned_t value) override {
    JsonNode node;
    node.kind = JsonKind::Integer;
    node.payload = value;
    return add(node);
  }

  bool number_float(number_float_t value, const string_t& token) override {
    JsonNode node;
    node.kind = JsonKind::Float;
    node.payload = std::bit_cast<uint64_t>(value);
    storeText(node, token);
    return add(node);
  }

  bool string(string_t& value) override {
    JsonNode node;
    node.kind = JsonKind::String;
    storeText(node, value);
    return add(node);
  }

  // Only binary formats (CBOR, ...) produce these.
  bool binary(binary_t& /*value*/) override { return fail("binary values are not JSON"); }

  bool start_object(std::size_t /*elements*/) override { return open(JsonKind::Object); }
  bool start_array(std::size_t /*elements*/) override { return open(JsonKind::Array); }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }

  bool key(string_t& key) override {
    Level& level = levels_[depth_ - 1];
    if (!level.keys.insert(key).second) {
      return fail(fmt::format("{}: duplicate key {}", path(), quoteForMessage(key)));
    }
    level.currentKey = key;
    pendingKeyOffset_ = static_cast<uint32_t>(doc_.pool_.size());
    pendingKeyLength_ = static_cast<uint32_t>(key.size());
    doc_.pool_ += key;
    return true;
  }

  bool parse_error(std::size_t position, const std::string& /*lastToken*/,
                   const nlohmann::detail::exception& ex) override {
    errorPosition_ = position;
    errorWhat_ = ex.what();
    if (depth_ > 0) errorContainer_ = path();
    return false;
  }

  std::optional<size_t> errorPosition() const { return errorPosition_; }
  const std::string& errorWhat() const { return errorWhat_; }
  // The innermost array or object open when the syntax error struck.
  const std::string& errorContainer() const { return errorContainer_; }

 private:
  struct Level {
    uint32_t node = 0;
    std::string currentKey;                // objects: key of the member being parsed
    std::unordered_set<std::string> keys;  // objects: keys seen so far
  };

  void storeText(JsonNode& node, std::string_view text) {
    node.a = static_cast<uint32_t>(doc_.pool_.size());
    node.b = static_cast<uint32_t>(text.size());
    doc_.pool_ += text;
  }

  bool add(JsonNode node) {
    if (depth_ > 0) {
      JsonNode& parent = doc_.nodes_[levels_[depth_ - 1].node];
      ++parent.a;
      if (parent.kind == JsonKind::Object) {
        node.keyOffset = pendingKeyOffset_;
        node.keyLength = pendingKeyLength_;
      }
    }
    doc_.nodes_.push_back(node);
    return true;
  }

  bool open(JsonKind kind) {
    JsonNode node;
    node.kind = kind;
    add(node);
    // Level objects are reused so that their hash tables keep their buckets.
    if (levels_.size() == depth_) levels_.emplace_back();
    Level& level = levels_[depth_];
    level.node = static_cast<uint32_t>(doc_.nodes_.size() - 1);
    level.keys.clear();
    ++depth_;
    if (depth_ > kMaxJsonDepth) {
      return fail(fmt::format("{}: nesting deeper than {} levels", path(), kMaxJsonDepth));
    }
    return true;
  }

  bool close() {
    doc_.nodes_[levels_[depth_ - 1].node].b = static_cast<uint32_t>(doc_.nodes_.size());
    --depth_;
    return true;
  }

  // Path of the innermost open container: each level's latest child is the
  // next level down.
  std::string path() const {
    std::string out;
    for (size_t i = 0; i + 1 < depth_; ++i) {
      const Level& level = levels_[i];
      const JsonNode& node = doc_.nodes_[level.node];
      if (node.kind == JsonKind::Object) {
        appendPathKey(out, level.currentKey);
      } else {
        appendPathIndex(out, node.a - 1);
      }
    }
    return out.empty() ? std::string(kRootPath) : out;
  }

  bool fail(std::string message) {
    error_ = std::move(message);
    return false;
  }

  JsonDocument& doc_;
  std::vector<Level> levels_;
  size_t depth_ = 0;
  uint32_t pendingKeyOffset_ = 0;
  uint32_t pendingKeyLength_ = 0;
  std::optional<std::string> error_;
  std::optional<size_t> errorPosition_;
  std::string errorWhat_;
  std::string errorContainer_;
};

namespace {

Status syntaxError(std::string_view text, size_t offset, std::string_view what,
                   std::string_view container = {}) {
  offset = std::min(offset, text.size());
  size_t line = 1;
  size_t lineStart = 0;
  for (size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++line;
      lineStart = i + 1;
    }
  }
  return invalidArgument(
      fmt::format("JSON syntax error at byte offset {} (line {}, column {}){}: {}", offset, line,
                  offset - lineStart + 1, container.empty() ? "" : fmt::format(" in {}", container),
                  escapeForMessage(what, 200)));
}

// nlohmann's text without its "[json.exception.parse_error.101] parse error
// at line 1, column 5: " prefix, whose position we report ourselves.
std::string_view nlohmannDetail(std::string_view what) {
  if (what.starts_with("[json.exception.")) {
    const size_t end = what.find("] ");
    if (end != std::string_view::npos) what.remove_prefix(end + 2);
  }
  if (what.starts_with("parse error")) {
    const size_t colon = what.find(": ");
    if (colon != std::string_view::npos) what.remove_prefix(colon + 2);
  }
  return what;
}

// nlohmann's lexer keeps every byte since the last string or number in its
// "token string", and on a syntax error writes it into the message with each
// control character spelled out ("<U+000A>", eight bytes). A long run of
// whitespace before an error therefore costs many times its size. The text
// handed to nlohmann has each run longer than kMaxWhitespaceRun folded to one
// space; `toOriginal` maps its offsets back for the message.
class FoldedText {
 public:
  static constexpr size_t kMaxWhitespaceRun = 4096;

  explicit FoldedText(std::string_view text) : original_(text) {
    size_t i = 0;
    while (i < text.size()) {
      if (!isSpace(text[i])) {
        ++i;
        continue;
      }
      size_t end = i;
      while (end < text.size() && isSpace(text[end])) ++end;
      if (end - i > kMaxWhitespaceRun) {
        if (folded_.empty()) folded_.reserve(text.size() / 2);
        folded_.append(text.substr(copiedTo_, i - copiedTo_));
        folded_ += ' ';
        shift_ += end - i - 1;
        runs_.push_back({folded_.size(), shift_});
        copiedTo_ = end;
      }
      i = end;
    }
    if (!runs_.empty()) folded_.append(text.substr(copiedTo_));
  }

  std::string_view text() const { return runs_.empty() ? original_ : std::string_view(folded_); }

  size_t toOriginal(size_t offset) const {
    size_t shift = 0;
    for (const Run& run : runs_) {  // few runs: each is over 4 KiB of input
      if (run.foldedEnd > offset) break;
      shift = run.shiftAfter;
    }
    return offset + shift;
  }

 private:
  struct Run {
    size_t foldedEnd;   // offset in the folded text just past the kept space
    size_t shiftAfter;  // bytes removed up to and including this run
  };
  static bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

  std::string_view original_;
  std::string folded_;
  std::vector<Run> runs_;
  size_t copiedTo_ = 0;
  size_t shift_ = 0;
};

// A raw control character other than the whitespace ones is an error
// anywhere in JSON text, inside strings too.
size_t firstControlCharacter(std::string_view text) {
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') return i;
  }
  return std::string_view::npos;
}

}  // namespace

Result<JsonDocument> parseJsonDocument(std::string_view text) {
  if (text.size() > kMaxJsonBytes) {
    return invalidArgument(
        fmt::format("{}: JSON text of {} bytes is larger than the limit of {} bytes", kRootPath,
                    text.size(), kMaxJsonBytes));
  }
  // nlohmann takes a NUL byte for the end of the input and would accept
  // "{}\0anything"; JSON text never contains a raw NUL.
  if (const size_t nul = text.find('\0'); nul != std::string_view::npos) {
    return syntaxError(text, nul, "NUL byte");
  }
  // Only the text before the first control character is parsed: an error
  // earlier than it is reported as usual, else the control character is the
  // error (nlohmann would spell out a whole run of them in its message).
  const size_t control = firstControlCharacter(text);
  const std::string_view parsed = text.substr(0, control);
  const auto controlError = [&] {
    return syntaxError(text, control,
                       fmt::format("control character U+{:04X} must be escaped",
                                   static_cast<unsigned char>(text[control])));
  };
  try {
    const FoldedText folded(parsed);
    const std::string_view input = folded.text();
    JsonDocument doc;
    JsonDocumentBuilder builder(doc);
    builder.reserveFor(input.size());
    const bool ok = nlohmann::json::sax_parse(input.data(), input.data() + input.size(), &builder,
                                              nlohmann::json::input_format_t::json, true);
    if (builder.error()) return invalidArgument(*builder.error());
    if (builder.errorPosition()) {
      // nlohmann counts the bytes read; the last one read is where it stopped.
      const size_t position = *builder.errorPosition();
      const size_t at = position == 0 ? 0 : position - 1;
      // Stopped by the end of the parsed part: the control character is next.
      if (control != std::string_view::npos && at >= input.size()) return controlError();
      return syntaxError(text, folded.toOriginal(at), nlohmannDetail(builder.errorWhat()),
                         builder.errorContainer());
    }
    if (control != std::string_view::npos) return controlError();
    if (!ok || !builder.complete()) return syntaxError(text, text.size(), "no JSON value");
    return doc;
  } catch (const std::bad_alloc&) {
    return invalidArgument(
        fmt::format("{}: out of memory while parsing {} bytes of JSON", kRootPath, text.size()));
  } catch (const std::exception& e) {
    return invalidArgument(fmt::format("{}: {}", kRootPath, escapeForMessage(e.what(), 200)));
  }
}

// ---- JsonValue --------------------------------------------------------------

const JsonNode& JsonValue::node() const { return doc_->nodes_[index_]; }

std::string_view JsonValue::text() const {
  const JsonNode& n = node();
  return std::string_view(doc_->pool_).substr(n.a, n.b);
}

double JsonValue::number() const { return std::bit_cast<double>(node().payload); }

std::string_view JsonValue::key() const {
  const JsonNode& n = node();
  return std::string_view(doc_->pool_).substr(n.keyOffset, n.keyLength);
}

JsonValue::Iterator& JsonValue::Iterator::operator++() {
  const JsonNode& n = doc_->nodes_[index_];
  const bool container = n.kind == JsonKind::Array || n.kind == JsonKind::Object;
  index_ = container ? n.b : index_ + 1;
  return *this;
}

std::string JsonValue::describe() const {
  switch (kind()) {
    case JsonKind::Null:
      return "null";
    case JsonKind::Bool:
      return boolean() ? "true" : "false";
    case JsonKind::Integer:
      return fmt::format("{}{}", negative() ? "-" : "", magnitude());
    case JsonKind::Float:
      return escapeForMessage(token(), 40);
    case JsonKind::String:
      return "the string " + quoteForMessage(string(), 40);
    case JsonKind::Array:
      return "an array";
    case JsonKind::Object:
      return "an object";
  }
  return "?";
}

}  // namespace nnfab::json
