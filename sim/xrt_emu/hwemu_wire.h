// The wire format between XRT 2.13's hw_emu shim and a device process
// (docs/xrt-emu.md): every call is a 14-byte header {1: fixed64 size,
// 2: fixed32 api} and `size` bytes of a protobuf (proto2) message; every
// response is a 9-byte header {1: fixed64 size} and its message. This is
// nnfab's own encoder/decoder of the protobuf wire format (varint, fixed32,
// fixed64, length-delimited): the few messages involved only use scalar and
// bytes fields, so a generic field map is all a message needs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace nnfab::hwemu {

inline constexpr size_t kCallHeaderBytes = 14;
inline constexpr size_t kResponseHeaderBytes = 9;
// A call larger than this is not something the shim sends (it copies in
// 8 MiB chunks): treat it as a corrupt frame rather than allocate it.
inline constexpr uint64_t kMaxMessageBytes = uint64_t{64} << 20;

// Builds one message, fields in the order they are added.
class Encoder {
 public:
  Encoder& varint(uint32_t field, uint64_t value);
  Encoder& boolean(uint32_t field, bool value) { return varint(field, value ? 1 : 0); }
  Encoder& fixed32(uint32_t field, uint32_t value);
  Encoder& fixed64(uint32_t field, uint64_t value);
  Encoder& bytes(uint32_t field, std::string_view value);
  const std::string& data() const { return out_; }

 private:
  void tag(uint32_t field, uint32_t wireType);
  void rawVarint(uint64_t value);
  std::string out_;
};

// A decoded message: the last value of each scalar field (varint, fixed32
// and fixed64 alike, as an integer) and of each length-delimited field.
// Repeated fields keep their last element; nnfab's device never needs the
// others (kernelInfo, environment pairs).
struct Message {
  std::map<uint32_t, uint64_t> numbers;
  std::map<uint32_t, std::string> bytes;

  uint64_t number(uint32_t field, uint64_t otherwise = 0) const;
  bool has(uint32_t field) const { return numbers.count(field) || bytes.count(field); }
  const std::string& data(uint32_t field) const;
};

// nullopt with *error set for a message that is not valid protobuf
// (truncated varint or field, field number 0, wire type 3/4/6/7).
std::optional<Message> decode(std::string_view data, std::string* error);

struct CallHeader {
  uint64_t size = 0;
  uint32_t api = 0;
};

std::string encodeCallHeader(const CallHeader& header);
std::optional<CallHeader> decodeCallHeader(std::string_view data, std::string* error);
std::string encodeResponseHeader(uint64_t size);
std::optional<uint64_t> decodeResponseHeader(std::string_view data, std::string* error);

}  // namespace nnfab::hwemu
