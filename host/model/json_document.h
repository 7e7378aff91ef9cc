// A parsed JSON document, stored flat: every value is one node in a
// pre-order array, and a container records where its subtree ends. Nothing
// here recurses (not building, walking or destroying), so no input can
// exhaust the stack. The parser (json_document.cpp) rejects what plain
// nlohmann would let through: duplicate keys, nesting deeper than
// kMaxJsonDepth, NUL bytes, inputs larger than kMaxJsonBytes. Numbers keep
// their source token so that they can later be converted exactly to the
// element type that the schema decides (see json_numbers.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/status.h"

namespace nnfab::json {

inline constexpr size_t kMaxJsonDepth = 64;
// Offsets in the document are 32-bit; this keeps every one of them in range.
inline constexpr size_t kMaxJsonBytes = size_t{512} << 20;  // also the CLI's file limit

enum class JsonKind : uint8_t { Null, Bool, Integer, Float, String, Array, Object };

struct JsonNode {
  // Integer: magnitude (with `negative`); Float: the nearest double's bits;
  // Bool: 0/1.
  uint64_t payload = 0;
  // String/Float: a = offset, b = length of the text (for a Float, its
  // source token) in the pool. Array/Object: a = number of children,
  // b = index one past the last node of the subtree.
  uint32_t a = 0;
  uint32_t b = 0;
  // Members of an object: the key (in the text pool).
  uint32_t keyOffset = 0;
  uint32_t keyLength = 0;
  JsonKind kind = JsonKind::Null;
  bool negative = false;
};

class JsonDocument;

// A light handle on one node; valid while its document lives.
class JsonValue {
 public:
  JsonValue(const JsonDocument& doc, uint32_t index) : doc_(&doc), index_(index) {}

  JsonKind kind() const { return node().kind; }
  bool isObject() const { return kind() == JsonKind::Object; }
  bool isArray() const { return kind() == JsonKind::Array; }
  bool isString() const { return kind() == JsonKind::String; }
  bool isBool() const { return kind() == JsonKind::Bool; }
  bool isInteger() const { return kind() == JsonKind::Integer; }
  bool isFloat() const { return kind() == JsonKind::Float; }

  bool boolean() const { return node().payload != 0; }
  // Integer: a JSON integer token that fits 64 bits (signed or unsigned).
  bool negative() const { return node().negative; }
  uint64_t magnitude() const { return node().payload; }
  // Float: the double nearest to the token (every other number token,
  // including integers beyond 64 bits), and the token itself.
  double number() const;
  std::string_view token() const { return text(); }
  std::string_view string() const { return text(); }
  // The member key when this value sits in an object.
  std::string_view key() const;
  // Array/Object: number of elements or members.
  uint32_t size() const { return node().a; }

  class Iterator {
   public:
    Iterator(const JsonDocument& doc, uint32_t index) : doc_(&doc), index_(index) {}
    JsonValue operator*() const { return JsonValue(*doc_, index_); }
    Iterator& operator++();
    bool operator==(const Iterator& other) const { return index_ == other.index_; }

   private:
    const JsonDocument* doc_;
    uint32_t index_;
  };
  // Elements of an array or members of an object, in document order.
  Iterator begin() const { return Iterator(*doc_, index_ + 1); }
  Iterator end() const { return Iterator(*doc_, node().b); }

  // A short spelling of the value for messages ("1.5", "a string", "null").
  std::string describe() const;

 private:
  const JsonNode& node() const;
  std::string_view text() const;

  const JsonDocument* doc_;
  uint32_t index_;
};

class JsonDocument {
 public:
  JsonValue root() const { return JsonValue(*this, 0); }

 private:
  friend class JsonValue;
  friend class JsonValue::Iterator;
  friend class JsonDocumentBuilder;
  std::vector<JsonNode> nodes_;
  std::string pool_;  // keys, strings and number tokens
};

// Syntax errors say where (byte offset, line, column) and what; duplicate
// keys and too deep nesting name the JSON path. All are INVALID_ARGUMENT.
Result<JsonDocument> parseJsonDocument(std::string_view text);

}  // namespace nnfab::json
