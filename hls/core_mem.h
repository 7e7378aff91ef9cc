// Accesses to the data region: its windows, the three ports that reach
// them, and byte offsets to words. An m_axi port is word-addressed in C (the
// ISA's byte offsets are converted here); BOOL8 bytes are packed
// little-endian in words, so a byte store reads, modifies and writes its word.
#pragma once

#include <stdint.h>

#include "isa/data_windows.h"

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

// The core's three data masters (docs/isa.md "Memory model"), each the
// pointer of its m_axi argument: `data` (m_axi_data, DATA_ADDR) for every
// access but these two, `srcb` (m_axi_srcb, SRCB_ADDR) for an elementwise
// TENSOR's B operand, `dst` (m_axi_dst, DST_ADDR) for its result.
struct DataPorts {
  uint32_t* data;
  const uint32_t* srcb;
  uint32_t* dst;
};

static constexpr uint32_t kPortData = 0;
static constexpr uint32_t kPortSrcb = 1;
static constexpr uint32_t kPortDst = 2;
static constexpr uint32_t kNumPorts = 3;

// One start's data region: its windows (isa/data_windows.h) and how each
// port reaches each of them. Window w lies at the pointer of the argument
// that names its address (A: data, B: srcb, D: dst), so byte offset o of
// window w is word bias[p][w] + o / 4 from port p's pointer: the distance
// between the two pointers, less the window's start. Every port reaches
// every window (on a card each master is connected to every bank); which
// port carries an access depends only on what the access is.
struct DataRegion {
  DataPorts ports;
  uint32_t dataSize;
  isa::WindowBounds windows;
  int64_t bias[kNumPorts][isa::kNumWindows];
};

// Words from `from` to `to`: in the C-simulation both point into the one
// device memory image; in the kernel, the difference of the two m_axi base
// addresses. A null pointer (an empty region) reaches nothing: 0.
static inline int64_t wordsBetween(const uint32_t* from, const uint32_t* to) {
  return (from == 0 || to == 0) ? 0 : static_cast<int64_t>(to - from);
}

static inline DataRegion dataRegion(const DataPorts& ports, uint32_t srcbStart, uint32_t dstStart,
                                    uint32_t dataSize) {
  DataRegion r;
  r.ports = ports;
  r.dataSize = dataSize;
  r.windows = isa::windowBounds(srcbStart, dstStart, dataSize);
  const uint32_t* port[kNumPorts] = {ports.data, ports.srcb, ports.dst};
  const uint32_t* window[isa::kNumWindows] = {ports.data, ports.srcb, ports.dst};
  for (uint32_t p = 0; p < kNumPorts; ++p) {
    for (uint32_t w = 0; w < isa::kNumWindows; ++w) {
      // An empty window is never accessed; its start may be beyond 2^31 words.
      const int64_t start = isa::windowBytes(r.windows, w) != 0 ? r.windows.start[w] >> kWordShift : 0;
      r.bias[p][w] = wordsBetween(port[p], window[w]) - start;
    }
  }
  return r;
}

// A port's view of one window: byte offset o is word base[bias + o / 4].
// The window starts on a 64-byte boundary, so o's byte lane is its own.
struct ReadView {
  const uint32_t* base;
  int64_t bias;
};
struct WriteView {
  uint32_t* base;
  int64_t bias;
};

static inline ReadView readView(const DataRegion& r, uint32_t port, uint32_t window) {
  const uint32_t* base = port == kPortSrcb ? r.ports.srcb : port == kPortDst ? r.ports.dst : r.ports.data;
  ReadView v = {base, r.bias[port][window]};
  return v;
}
static inline WriteView writeView(const DataRegion& r, uint32_t port, uint32_t window) {
  WriteView v = {port == kPortDst ? r.ports.dst : r.ports.data, r.bias[port][window]};
  return v;
}

static inline int64_t wordAt(int64_t bias, uint64_t offset) {
  return bias + static_cast<int64_t>(offset >> kWordShift);
}
static inline uint32_t loadElement(const ReadView& v, uint64_t offset, uint32_t bytes) {
  const uint32_t word = v.base[wordAt(v.bias, offset)];
  return bytes == kWordBytes ? word : (word >> byteShift(offset)) & kByteMask;
}
static inline void storeElement(const WriteView& v, uint64_t offset, uint32_t bytes, uint32_t value) {
  uint32_t* word = v.base + wordAt(v.bias, offset);
  if (bytes == kWordBytes) {
    *word = value;
  } else {
    const uint32_t shift = byteShift(offset);
    *word = (*word & ~(kByteMask << shift)) | ((value & kByteMask) << shift);
  }
}

}  // namespace hls
}  // namespace nnfab
