// The protobuf wire encoding between XRT's hw_emu shim and nnfab's device
// process (sim/xrt_emu/hwemu_wire.h): round trips, the exact framing bytes
// the shim reads, and malformed input refused.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

#include "hwemu_wire.h"

namespace nnfab::hwemu {
namespace {

TEST(HwEmuWire, ScalarAndBytesFieldsRoundTrip) {
  const std::string blob("\0\x01\xff payload", 11);
  Encoder e;
  e.varint(1, 0)
      .varint(2, 127)
      .varint(3, 128)
      .varint(4, std::numeric_limits<uint64_t>::max())
      .boolean(5, true)
      .fixed32(6, 0xDEADBEEF)
      .fixed64(7, 0x0123456789ABCDEFull)
      .bytes(8, blob)
      .bytes(300, "");
  std::string error;
  const auto m = decode(e.data(), &error);
  ASSERT_TRUE(m) << error;
  EXPECT_EQ(m->number(1, 99), 0u);
  EXPECT_EQ(m->number(2), 127u);
  EXPECT_EQ(m->number(3), 128u);
  EXPECT_EQ(m->number(4), std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(m->number(5), 1u);
  EXPECT_EQ(m->number(6), 0xDEADBEEFu);
  EXPECT_EQ(m->number(7), 0x0123456789ABCDEFull);
  EXPECT_EQ(m->data(8), blob);
  EXPECT_TRUE(m->has(300));
  EXPECT_EQ(m->data(300), "");
  EXPECT_FALSE(m->has(9));
  EXPECT_EQ(m->number(9, 42), 42u);
}

TEST(HwEmuWire, VarintsUseTheShortestEncoding) {
  EXPECT_EQ(Encoder().varint(1, 1).data(), std::string("\x08\x01", 2));
  EXPECT_EQ(Encoder().varint(1, 300).data(), std::string("\x08\xac\x02", 3));
  EXPECT_EQ(Encoder().varint(16, 1).data(), std::string("\x80\x01\x01", 3));  // two-byte key
}

TEST(HwEmuWire, CallHeaderIsTheFourteenBytesTheShimWrites) {
  const std::string h = encodeCallHeader({0x1122, 9});
  ASSERT_EQ(h.size(), kCallHeaderBytes);
  EXPECT_EQ(h, std::string("\x09\x22\x11\0\0\0\0\0\0\x15\x09\0\0\0", 14));
  std::string error;
  const auto back = decodeCallHeader(h, &error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(back->size, 0x1122u);
  EXPECT_EQ(back->api, 9u);
}

TEST(HwEmuWire, ResponseHeaderIsNineBytesWithoutAnApiField) {
  const std::string h = encodeResponseHeader(5);
  EXPECT_EQ(h, std::string("\x09\x05\0\0\0\0\0\0\0", 9));
  std::string error;
  EXPECT_EQ(decodeResponseHeader(h, &error).value_or(0), 5u);
}

TEST(HwEmuWire, MalformedMessagesAreRefusedWithAReason) {
  std::string error;
  EXPECT_FALSE(decode(std::string("\x08", 1), &error));          // varint missing
  EXPECT_NE(error.find("truncated"), std::string::npos);
  EXPECT_FALSE(decode(std::string("\x08\xff\xff", 3), &error));  // varint never ends
  EXPECT_FALSE(decode(std::string("\x12\x05" "abc", 5), &error));  // bytes longer than the message
  EXPECT_FALSE(decode(std::string("\x09\x01\x02", 3), &error));  // fixed64 cut short
  EXPECT_FALSE(decode(std::string("\x0b", 1), &error));          // wire type 3 (group)
  EXPECT_NE(error.find("wire type"), std::string::npos);
  EXPECT_FALSE(decode(std::string("\x00\x01", 2), &error));      // field 0
  EXPECT_FALSE(decode(std::string(12, '\xff'), &error));         // a key of 12 continuation bytes
}

TEST(HwEmuWire, CallHeadersWithoutApiOrWithAnAbsurdSizeAreRefused) {
  std::string error;
  EXPECT_FALSE(decodeCallHeader(Encoder().fixed64(1, 10).data(), &error));
  EXPECT_FALSE(decodeCallHeader(encodeCallHeader({kMaxMessageBytes + 1, 6}), &error));
  EXPECT_NE(error.find("corrupt"), std::string::npos);
  EXPECT_FALSE(decodeResponseHeader(Encoder().fixed32(2, 1).data(), &error));
}

}  // namespace
}  // namespace nnfab::hwemu
