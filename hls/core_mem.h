// Accesses to the data region. The m_axi port is word-addressed in C (the
// ISA's byte offsets are converted here); BOOL8 bytes are packed little-endian
// in words, so a byte store reads, modifies and writes its word.
#pragma once

#include <stdint.h>

namespace nnfab {
namespace hls {

static constexpr uint32_t kWordBytes = sizeof(uint32_t);
static constexpr uint32_t kWordShift = 2;  // log2(kWordBytes)
static constexpr uint32_t kBitsPerByte = 8;
static constexpr uint32_t kByteMask = 0xFFu;
static_assert((1u << kWordShift) == kWordBytes, "word shift");

// [offset, offset + bytes) inside [0, size), computed without wrap-around.
static inline bool inRegion(uint64_t offset, uint64_t bytes, uint32_t size) {
  return offset <= size && bytes <= size - offset;
}

static inline uint32_t byteShift(uint64_t offset) {
  return static_cast<uint32_t>(offset & (kWordBytes - 1)) * kBitsPerByte;
}

static inline uint32_t loadWord(const uint32_t* data, uint64_t offset) { return data[offset >> kWordShift]; }

static inline uint32_t loadByte(const uint32_t* data, uint64_t offset) {
  return (data[offset >> kWordShift] >> byteShift(offset)) & kByteMask;
}

static inline void storeWord(uint32_t* data, uint64_t offset, uint32_t value) { data[offset >> kWordShift] = value; }

static inline void storeByte(uint32_t* data, uint64_t offset, uint32_t value) {
  const uint64_t word = offset >> kWordShift;
  const uint32_t shift = byteShift(offset);
  data[word] = (data[word] & ~(kByteMask << shift)) | ((value & kByteMask) << shift);
}

// An element of `bytes` (1 or 4) bytes, zero-extended.
static inline uint32_t loadElement(const uint32_t* data, uint64_t offset, uint32_t bytes) {
  return bytes == kWordBytes ? loadWord(data, offset) : loadByte(data, offset);
}

static inline void storeElement(uint32_t* data, uint64_t offset, uint32_t bytes, uint32_t value) {
  if (bytes == kWordBytes) {
    storeWord(data, offset, value);
  } else {
    storeByte(data, offset, value);
  }
}

// The core's three data masters (docs/isa.md "Memory model"), each the base
// of the one data region: `data` (m_axi_data) for every access but these
// two, `srcb` (m_axi_srcb) for an elementwise TENSOR's B operand, `dst`
// (m_axi_dst) for its result. The C-simulation passes one buffer three
// times; the kernel's host sets SRCB_ADDR and DST_ADDR to DATA_ADDR.
struct DataPorts {
  uint32_t* data;
  const uint32_t* srcb;
  uint32_t* dst;
};

}  // namespace hls
}  // namespace nnfab
