// The data region's windows (docs/isa.md "Memory model: one data region,
// three windows, three data ports"): which window a byte offset lies in and
// where each window ends, from SRCB_START, DST_START and DATA_SIZE. One
// definition for everyone: the HLS core bounds its accesses with it, the
// host translates offsets to device addresses with it, the compiler's tests
// check placement against it. C++14 without vendor headers, like
// cycle_model.h: Vitis HLS compiles it as part of the kernel.
#pragma once

#include <stdint.h>

namespace nnfab {
namespace isa {

// The reset value of SRCB_START and DST_START: the window is empty, and a
// host that writes neither sees ISA version 2's one region at DATA_ADDR.
static constexpr uint32_t kNoWindowStart = 0xFFFFFFFFu;
// Bits 5:0 of the starts (and of SRCB_ADDR, DST_ADDR) are taken as zero.
static constexpr uint32_t kWindowStartMask = ~uint32_t{63};

// Window indexes, in region order; fabric::DataWindow takes its values from these.
static constexpr uint32_t kWindowA = 0;  // at DATA_ADDR
static constexpr uint32_t kWindowB = 1;  // at SRCB_ADDR
static constexpr uint32_t kWindowD = 2;  // at DST_ADDR
static constexpr uint32_t kNumWindows = 3;

// Window k holds offsets start[k] <= o < end[k]; end[k] <= start[k]: empty.
struct WindowBounds {
  uint32_t start[kNumWindows];
  uint32_t end[kNumWindows];
};

static inline uint32_t minU32(uint32_t x, uint32_t y) { return x < y ? x : y; }

static inline WindowBounds windowBounds(uint32_t srcbStart, uint32_t dstStart, uint32_t dataSize) {
  const uint32_t b = srcbStart & kWindowStartMask;
  const uint32_t d = dstStart & kWindowStartMask;
  WindowBounds w;
  w.start[kWindowA] = 0;
  w.end[kWindowA] = minU32(minU32(b, d), dataSize);
  w.start[kWindowB] = b;
  w.end[kWindowB] = minU32(d, dataSize);
  w.start[kWindowD] = d;
  w.end[kWindowD] = dataSize;
  return w;
}

// The window of offset o: D if o >= DST_START, else B if o >= SRCB_START,
// else A. (An offset at or beyond DATA_SIZE gets a window too; every access
// there fails its bound, the window's end.)
static inline uint32_t windowOf(const WindowBounds& w, uint64_t o) {
  return o >= w.start[kWindowD] ? kWindowD : o >= w.start[kWindowB] ? kWindowB : kWindowA;
}

static inline uint32_t windowBytes(const WindowBounds& w, uint32_t k) {
  return w.end[k] > w.start[k] ? w.end[k] - w.start[k] : 0u;
}

}  // namespace isa
}  // namespace nnfab
