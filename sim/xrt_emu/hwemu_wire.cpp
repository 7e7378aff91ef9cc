#include "hwemu_wire.h"

#include <cstring>

namespace nnfab::hwemu {
namespace {

enum WireType : uint32_t { kVarint = 0, kFixed64 = 1, kLengthDelimited = 2, kFixed32 = 5 };

template <typename T>
void appendLittleEndian(std::string& out, T value) {
  for (size_t i = 0; i < sizeof(T); ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
}

template <typename T>
T readLittleEndian(const char* p) {
  T value = 0;
  for (size_t i = 0; i < sizeof(T); ++i) value |= static_cast<T>(static_cast<uint8_t>(p[i])) << (8 * i);
  return value;
}

// Reads a varint at data[*pos]; false when it runs past the end or past 10 bytes.
bool readVarint(std::string_view data, size_t* pos, uint64_t* value) {
  *value = 0;
  for (int shift = 0; shift < 70; shift += 7) {
    if (*pos >= data.size()) return false;
    const uint8_t byte = static_cast<uint8_t>(data[(*pos)++]);
    *value |= static_cast<uint64_t>(byte & 0x7F) << shift;
    if ((byte & 0x80) == 0) return true;
  }
  return false;
}

}  // namespace

void Encoder::rawVarint(uint64_t value) {
  while (value >= 0x80) {
    out_.push_back(static_cast<char>((value & 0x7F) | 0x80));
    value >>= 7;
  }
  out_.push_back(static_cast<char>(value));
}

void Encoder::tag(uint32_t field, uint32_t wireType) { rawVarint((uint64_t{field} << 3) | wireType); }

Encoder& Encoder::varint(uint32_t field, uint64_t value) {
  tag(field, kVarint);
  rawVarint(value);
  return *this;
}

Encoder& Encoder::fixed32(uint32_t field, uint32_t value) {
  tag(field, kFixed32);
  appendLittleEndian(out_, value);
  return *this;
}

Encoder& Encoder::fixed64(uint32_t field, uint64_t value) {
  tag(field, kFixed64);
  appendLittleEndian(out_, value);
  return *this;
}

Encoder& Encoder::bytes(uint32_t field, std::string_view value) {
  tag(field, kLengthDelimited);
  rawVarint(value.size());
  out_.append(value);
  return *this;
}

uint64_t Message::number(uint32_t field, uint64_t otherwise) const {
  auto it = numbers.find(field);
  return it == numbers.end() ? otherwise : it->second;
}

const std::string& Message::data(uint32_t field) const {
  static const std::string kEmpty;
  auto it = bytes.find(field);
  return it == bytes.end() ? kEmpty : it->second;
}

std::optional<Message> decode(std::string_view data, std::string* error) {
  Message m;
  size_t pos = 0;
  while (pos < data.size()) {
    uint64_t key = 0;
    if (!readVarint(data, &pos, &key)) {
      *error = "truncated field key";
      return std::nullopt;
    }
    const uint64_t field64 = key >> 3;
    const uint32_t type = static_cast<uint32_t>(key & 7);
    if (field64 == 0 || field64 > 0x1FFFFFFF) {
      *error = "invalid field number " + std::to_string(field64);
      return std::nullopt;
    }
    const uint32_t field = static_cast<uint32_t>(field64);
    switch (type) {
      case kVarint: {
        uint64_t v = 0;
        if (!readVarint(data, &pos, &v)) {
          *error = "truncated varint in field " + std::to_string(field);
          return std::nullopt;
        }
        m.numbers[field] = v;
        break;
      }
      case kFixed64:
      case kFixed32: {
        const size_t n = type == kFixed64 ? 8 : 4;
        if (data.size() - pos < n) {
          *error = "truncated fixed field " + std::to_string(field);
          return std::nullopt;
        }
        m.numbers[field] = n == 8 ? readLittleEndian<uint64_t>(data.data() + pos) : readLittleEndian<uint32_t>(data.data() + pos);
        pos += n;
        break;
      }
      case kLengthDelimited: {
        uint64_t n = 0;
        if (!readVarint(data, &pos, &n) || n > data.size() - pos) {
          *error = "truncated length-delimited field " + std::to_string(field);
          return std::nullopt;
        }
        m.bytes[field] = std::string(data.substr(pos, n));
        pos += n;
        break;
      }
      default:
        *error = "unsupported wire type " + std::to_string(type) + " in field " + std::to_string(field);
        return std::nullopt;
    }
  }
  return m;
}

std::string encodeCallHeader(const CallHeader& header) {
  return Encoder().fixed64(1, header.size).fixed32(2, header.api).data();
}

std::optional<CallHeader> decodeCallHeader(std::string_view data, std::string* error) {
  auto m = decode(data, error);
  if (!m) return std::nullopt;
  if (!m->numbers.count(1) || !m->numbers.count(2)) {
    *error = "call header without size or api";
    return std::nullopt;
  }
  if (m->numbers[1] > kMaxMessageBytes) {
    *error = "call of " + std::to_string(m->numbers[1]) + " bytes (corrupt header?)";
    return std::nullopt;
  }
  return CallHeader{m->numbers[1], static_cast<uint32_t>(m->numbers[2])};
}

std::string encodeResponseHeader(uint64_t size) { return Encoder().fixed64(1, size).data(); }

std::optional<uint64_t> decodeResponseHeader(std::string_view data, std::string* error) {
  auto m = decode(data, error);
  if (!m) return std::nullopt;
  if (!m->numbers.count(1)) {
    *error = "response header without size";
    return std::nullopt;
  }
  return m->numbers[1];
}

}  // namespace nnfab::hwemu
