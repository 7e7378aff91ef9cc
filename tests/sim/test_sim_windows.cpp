// The data region's windows on the RTL core (docs/isa.md "Memory model",
// docs/rtl.md "Data region windows"): a region split over three buffers at
// unrelated device addresses (window B's and D's below window A's, with
// other allocations between them, so that neither SRCB_ADDR -
// SRCB_START nor DST_ADDR - DST_START is DATA_ADDR), programs whose
// operands lie in every window, checked against values computed here, and
// the window bounds' faults checked against the same access beyond
// DATA_SIZE in one region (ISA version 2's layout), STATUS, FAULT_INFO,
// HALT_PC and CYCLES alike. The registers are written here directly, so
// that the test depends on the core alone, not on how a host places data.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <string>
#include <vector>

#include "fabric/registers.h"
#include "sim/sim_test_util.h"

namespace nnfab::fabric::test {
namespace {

// The windows used throughout: A [0, 16 KiB), B [16 KiB, 32 KiB),
// D [32 KiB, 48 KiB).
constexpr uint32_t kSrcbStart = 0x4000, kDstStart = 0x8000, kDataSize = 0xC000;
constexpr uint32_t kNoWindow = 0xFFFFFFFFu;  // the registers' reset value

struct CoreResult {
  uint32_t status = 0, haltPc = 0, faultInfo = 0;
  uint64_t cycles = 0;
};

// A data region as bytes by offset, and where each window's buffer is.
struct Region {
  std::vector<uint8_t> bytes = std::vector<uint8_t>(kDataSize, 0);
  uint32_t srcbStart = kNoWindow, dstStart = kNoWindow, dataSize = kDataSize;
};

class WindowRig {
 public:
  WindowRig() : backend_(smallSim()) {}

  // `bytes` at a 4 KiB-aligned device address inside an allocation of its
  // own (so that bursts split at the same offsets whatever the layout).
  DeviceAddress allocate(uint64_t bytes) {
    Result<DeviceAddress> a = backend_.allocate(bytes + 4096);
    EXPECT_TRUE(a.isOk());
    return a.isOk() ? (*a + 4095) & ~DeviceAddress{4095} : 0;
  }

  // Runs `code` over `region`: with `split`, each window in a buffer of its
  // own (D first, then B, then A, with allocations between them); without,
  // the whole region in one buffer and the window registers as given.
  CoreResult run(const Asm& a, Region& region, bool split) {
    const uint32_t aEnd = std::min({region.srcbStart, region.dstStart, region.dataSize});
    const uint32_t bEnd = std::min(region.dstStart, region.dataSize);
    DeviceAddress addrA = 0, addrB = 0, addrD = 0;
    if (split) {
      addrD = allocate(region.dataSize - std::min(region.dstStart, region.dataSize) + 64);
      allocate(8192);  // a gap
      addrB = allocate(bEnd > region.srcbStart ? bEnd - region.srcbStart : 64);
      allocate(12288);
      addrA = allocate(aEnd);
    } else {
      addrA = allocate(region.dataSize);
    }
    const DeviceAddress program = allocate(a.code.size() * sizeof(uint64_t));
    const DeviceAddress context = allocate(isa::kCONTEXT_BYTES);
    EXPECT_TRUE(backend_.copyToDevice(program, a.code.data(), a.code.size() * sizeof(uint64_t)).isOk());
    // The windows' contents, each in its own buffer.
    auto copy = [&](DeviceAddress at, uint32_t from, uint32_t to, bool in) {
      if (to > from) {
        if (in) EXPECT_TRUE(backend_.copyToDevice(at, region.bytes.data() + from, to - from).isOk());
        else EXPECT_TRUE(backend_.copyFromDevice(region.bytes.data() + from, at, to - from).isOk());
      }
    };
    auto each = [&](bool in) {
      if (!split) return copy(addrA, 0, region.dataSize, in);
      copy(addrA, 0, aEnd, in);
      copy(addrB, region.srcbStart, bEnd, in);
      copy(addrD, region.dstStart, region.dataSize, in);
    };
    each(true);
    writeRegister64(backend_, isa::kRegPROG_ADDR, program);
    backend_.writeRegister(isa::kRegPROG_SIZE, static_cast<uint32_t>(a.code.size() * sizeof(uint64_t)));
    writeRegister64(backend_, isa::kRegDATA_ADDR, addrA);
    backend_.writeRegister(isa::kRegDATA_SIZE, region.dataSize);
    writeRegister64(backend_, isa::kRegCTX_ADDR, context);
    writeRegister64(backend_, isa::kRegSRCB_ADDR, addrB);
    writeRegister64(backend_, isa::kRegDST_ADDR, addrD);
    backend_.writeRegister(isa::kRegSRCB_START, region.srcbStart);
    backend_.writeRegister(isa::kRegDST_START, region.dstStart);
    backend_.writeRegister(isa::kRegMODE, 0);
    backend_.writeRegister(isa::kRegINSN_LIMIT, 0);
    writeRegister64(backend_, isa::kRegLOOP_BUDGET, 0);
    writeRegister64(backend_, isa::kRegEXEC_BUDGET, 0);
    backend_.writeRegister(isa::kRegPREEMPT, 0);
    (void)backend_.readRegister(isa::kRegAP_CTRL);  // clears an old AP_DONE
    backend_.writeRegister(isa::kRegAP_CTRL, isa::kAP_START);
    CoreResult r;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (backend_.waitDone(std::chrono::milliseconds(100)) != WaitOutcome::DONE) {
      if (std::chrono::steady_clock::now() > deadline) {
        ADD_FAILURE() << "the core did not stop within 60 s";
        return r;
      }
    }
    (void)backend_.readRegister(isa::kRegAP_CTRL);
    r.status = backend_.readRegister(isa::kRegSTATUS);
    r.haltPc = backend_.readRegister(isa::kRegHALT_PC);
    r.faultInfo = backend_.readRegister(isa::kRegFAULT_INFO);
    r.cycles = readRegister64(backend_, isa::kRegCYCLES);
    each(false);
    return r;
  }

 private:
  SimBackend backend_;
};

// A fresh device per run: the window registers keep what the last run wrote.
CoreResult runWindows(const Asm& a, Region& region) { return WindowRig().run(a, region, true); }
CoreResult runOneBuffer(const Asm& a, Region& region) { return WindowRig().run(a, region, false); }

Region threeWindows() {
  Region r;
  r.srcbStart = kSrcbStart;
  r.dstStart = kDstStart;
  return r;
}

void putDescriptor(Region& r, uint32_t at, std::vector<uint32_t> words) {
  words.resize(16, 0);
  put<uint32_t>(r.bytes, at, words);
}

std::vector<int32_t> ramp(uint32_t n, int32_t from, int32_t step) {
  std::vector<int32_t> v(n);
  for (uint32_t i = 0; i < n; ++i) v[i] = from + static_cast<int32_t>(i * static_cast<uint32_t>(step));
  return v;
}

int32_t wrapMul(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) * static_cast<uint32_t>(b));
}

// The vector engine (A on m_axi_data, B on m_axi_srcb, the result on
// m_axi_dst): A in window A, B in window B, the results in window D.
TEST(SimWindows, VectorAddAndMulReadAandBFromTheirWindowsAndWriteD) {
  constexpr uint32_t n = 1000;
  constexpr uint32_t kA = 0x40, kB = kSrcbStart + 0x80, kSum = kDstStart + 0x40, kProd = kDstStart + 0x1000;
  Region r = threeWindows();
  putDescriptor(r, 0, {1, 1, 1, n, 0, 0, 0, 1, 0, 0, 0, 1});
  const std::vector<int32_t> a = ramp(n, -7000, 13), b = ramp(n, 123456, -977);
  put(r.bytes, kA, a);
  put(r.bytes, kB, b);
  Asm p;
  p.emit(insn::li(1, kSum));
  p.emit(insn::li(2, kA));
  p.emit(insn::li(3, kB));
  p.emit(insn::li(4, kProd));
  p.emit(insn::tensor(isa::kFnADD, isa::kTypeINT32, 1, 2, 3, 0, 0));
  p.emit(insn::tensor(isa::kFnMUL, isa::kTypeINT32, 4, 2, 3, 0, 0));
  // A scalar load and store at the last word of window A.
  p.emit(insn::ldw(5, 0, kSrcbStart - 4));
  p.emit(insn::stw(5, 0, kSrcbStart - 8));
  p.emit(insn::halt());
  put<int32_t>(r.bytes, kSrcbStart - 4, {-424242});
  Region one = r;
  const CoreResult w = runWindows(p, r);
  EXPECT_EQ(w.status, isa::kStatusDONE) << "FAULT_INFO 0x" << std::hex << w.faultInfo;
  const std::vector<int32_t> sum = get<int32_t>(r.bytes, kSum, n), prod = get<int32_t>(r.bytes, kProd, n);
  for (uint32_t i = 0; i < n; ++i) {
    ASSERT_EQ(sum[i], a[i] + b[i]) << "element " << i;
    ASSERT_EQ(prod[i], wrapMul(a[i], b[i])) << "element " << i;
  }
  EXPECT_EQ(word(r.bytes, kSrcbStart - 8), -424242);
  EXPECT_EQ(get<int32_t>(r.bytes, kA, n), a);
  EXPECT_EQ(get<int32_t>(r.bytes, kB, n), b);
  // The same program over one buffer (no window registers set) computes
  // the same and takes exactly as many cycles: the windows add none.
  one.srcbStart = one.dstStart = kNoWindow;
  const CoreResult o = runOneBuffer(p, one);
  EXPECT_EQ(o.status, isa::kStatusDONE);
  EXPECT_EQ(o.cycles, w.cycles);
  EXPECT_TRUE(one.bytes == r.bytes) << "one buffer and three windows differ";
}

// The element engine (strided and broadcast operands, one element at a
// time through m_axi_data): A [rows, cols] in window D, a row broadcast over
// it from window A, the result in window B; then a DIV (element engine
// always) of the result by a column broadcast from window B into window D.
TEST(SimWindows, ElementEngineBroadcastReadsAndWritesEveryWindow) {
  constexpr uint32_t rows = 9, cols = 21;
  constexpr uint32_t kA = kDstStart + 0x200, kRow = 0x100, kOut = kSrcbStart + 0x300, kCol = kSrcbStart + 0x40,
                     kQuot = kDstStart + 0x2000;
  Region r = threeWindows();
  putDescriptor(r, 0, {1, 1, rows, cols, 0, 0, cols, 1, 0, 0, 0, 1});      // A + row
  putDescriptor(r, 64, {1, 1, rows, cols, 0, 0, cols, 1, 0, 0, 1, 0});     // out / column
  const std::vector<int32_t> a = ramp(rows * cols, -500, 7), row = ramp(cols, 1000, -33), col = ramp(rows, -9, 2);
  put(r.bytes, kA, a);
  put(r.bytes, kRow, row);
  put(r.bytes, kCol, col);
  Asm p;
  p.emit(insn::li(1, kOut));
  p.emit(insn::li(2, kA));
  p.emit(insn::li(3, kRow));
  p.emit(insn::tensor(isa::kFnADD, isa::kTypeINT32, 1, 2, 3, 0, 0));
  p.emit(insn::li(4, kQuot));
  p.emit(insn::li(5, kCol));
  p.emit(insn::tensor(isa::kFnDIV, isa::kTypeINT32, 4, 1, 5, 0, 64));
  p.emit(insn::halt());
  Region one = r;
  const CoreResult w = runWindows(p, r);
  EXPECT_EQ(w.status, isa::kStatusDONE) << "FAULT_INFO 0x" << std::hex << w.faultInfo;
  const std::vector<int32_t> out = get<int32_t>(r.bytes, kOut, rows * cols);
  const std::vector<int32_t> quot = get<int32_t>(r.bytes, kQuot, rows * cols);
  for (uint32_t i = 0; i < rows; ++i)
    for (uint32_t j = 0; j < cols; ++j) {
      const int32_t s = a[i * cols + j] + row[j];
      ASSERT_EQ(out[i * cols + j], s) << i << "," << j;
      // docs/isa.md: DIV rounds toward negative infinity (no divisor is 0).
      const int32_t q = s / col[i] - ((s % col[i] != 0 && (s < 0) != (col[i] < 0)) ? 1 : 0);
      ASSERT_EQ(quot[i * cols + j], q) << i << "," << j;
    }
  one.srcbStart = one.dstStart = kNoWindow;
  const CoreResult o = runOneBuffer(p, one);
  EXPECT_EQ(o.status, isa::kStatusDONE);
  EXPECT_EQ(o.cycles, w.cycles);
  EXPECT_TRUE(one.bytes == r.bytes);
}

// FC (the FC engine, on m_axi_data): x in window D, the weights in window
// B, the bias in window A, the output in window D. Small integers as
// FLOAT32, so every sum is exact whatever the order.
TEST(SimWindows, FullyConnectedReadsOperandsFromWindowsBAndD) {
  constexpr uint32_t batch = 3, units = 5, in = 19;
  constexpr uint32_t kX = kDstStart + 0x100, kW = kSrcbStart + 0x44, kBias = 0x200, kOut = kDstStart + 0x1008;
  Region r = threeWindows();
  putDescriptor(r, 0, {batch, units, in, 0});
  std::vector<float> x(batch * in), w(units * in), bias(units);
  for (uint32_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(static_cast<int>(i % 7) - 3);
  for (uint32_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(static_cast<int>(i % 5) - 2);
  for (uint32_t i = 0; i < units; ++i) bias[i] = static_cast<float>(10 * i) - 20.0f;
  put(r.bytes, kX, x);
  put(r.bytes, kW, w);
  put(r.bytes, kBias, bias);
  Asm p;
  p.emit(insn::li(1, kOut));
  p.emit(insn::li(2, kX));
  p.emit(insn::li(3, kW));
  p.emit(insn::li(4, kBias));
  p.emit(insn::tensor(isa::kFnFC, isa::kTypeFLOAT32, 1, 2, 3, 4, 0));
  p.emit(insn::halt());
  Region one = r;
  const CoreResult res = runWindows(p, r);
  EXPECT_EQ(res.status, isa::kStatusDONE) << "FAULT_INFO 0x" << std::hex << res.faultInfo;
  const std::vector<float> out = get<float>(r.bytes, kOut, batch * units);
  for (uint32_t b = 0; b < batch; ++b)
    for (uint32_t u = 0; u < units; ++u) {
      float acc = 0.0f;
      for (uint32_t i = 0; i < in; ++i) acc += x[b * in + i] * w[u * in + i];
      ASSERT_EQ(out[b * units + u], acc + bias[u]) << b << "," << u;
    }
  one.srcbStart = one.dstStart = kNoWindow;
  const CoreResult o = runOneBuffer(p, one);
  EXPECT_EQ(o.status, isa::kStatusDONE);
  EXPECT_EQ(o.cycles, res.cycles);
  EXPECT_TRUE(one.bytes == r.bytes);
}

// A fault of the windows equals the same access beyond DATA_SIZE in one
// region whose DATA_SIZE is the crossed window's end: STATUS, FAULT_INFO,
// HALT_PC and CYCLES.
void expectFaultAsBeyondDataSize(const Asm& p, const Region& windows, uint32_t end, uint32_t faultInfo,
                                 const std::string& what) {
  Region w = windows;
  const CoreResult got = runWindows(p, w);
  Region one = windows;
  one.srcbStart = one.dstStart = kNoWindow;
  one.dataSize = end;
  one.bytes.resize(end);
  const CoreResult ref = runOneBuffer(p, one);
  EXPECT_EQ(ref.status, isa::kStatusACCESS_FAULT) << what << " (reference)";
  EXPECT_EQ(ref.faultInfo, faultInfo) << what << " (reference)";
  EXPECT_EQ(got.status, ref.status) << what;
  EXPECT_EQ(got.faultInfo, ref.faultInfo) << what;
  EXPECT_EQ(got.haltPc, ref.haltPc) << what;
  EXPECT_EQ(got.cycles, ref.cycles) << what;
}

// Scalars reach window A only: a load or store at or across A's end is an
// ACCESS_FAULT even though the offset is inside DATA_SIZE (window B's first
// bytes, or D's where B is empty).
TEST(SimWindows, ScalarAccessBeyondWindowAFaults) {
  struct Case {
    const char* name;
    uint64_t insn;
    uint32_t offset;
  };
  const Case cases[] = {
      {"LDW at A's end", insn::ldw(2, 1, kSrcbStart - 0x100), kSrcbStart},
      {"LDB at A's end", insn::ldb(2, 1, kSrcbStart - 0x100), kSrcbStart},
      {"STW at A's end", insn::stw(1, 1, kSrcbStart - 0x100), kSrcbStart},
      {"STB at A's end", insn::stb(1, 1, kSrcbStart - 0x100), kSrcbStart},
      {"LDW deep in D", insn::ldw(2, 1, kDstStart - 0x100 + 0x40), kDstStart + 0x40},
  };
  for (const Case& c : cases) {
    Asm p;
    p.emit(insn::li(1, 0x100));
    p.emit(insn::ldw(3, 1, kSrcbStart - 0x104));  // A's last word: fine
    p.emit(insn::stw(3, 0, 0x40));
    p.emit(c.insn);
    p.emit(insn::halt());
    Region r = threeWindows();
    expectFaultAsBeyondDataSize(p, r, kSrcbStart, c.offset, c.name);
  }
  // Window B empty (SRCB_START above DST_START): A ends at DST_START.
  Asm p;
  p.emit(insn::ldw(2, 0, kDstStart - 4));
  p.emit(insn::ldw(2, 0, kDstStart));
  p.emit(insn::halt());
  Region r = threeWindows();
  r.srcbStart = kDstStart + 0x1000;
  expectFaultAsBeyondDataSize(p, r, kDstStart, kDstStart, "LDW at D's start, B empty");
}

// Each tensor operand must end within the window of its first byte.
TEST(SimWindows, TensorOperandCrossingItsWindowsEndFaults) {
  struct Case {
    const char* name;
    uint32_t dst, a, b;
    std::vector<uint32_t> desc;
    uint32_t end, faultInfo;
  };
  const std::vector<uint32_t> vec16 = {1, 1, 1, 16, 0, 0, 0, 1, 0, 0, 0, 1};
  const std::vector<uint32_t> bcast = {1, 1, 4, 16, 0, 0, 16, 1, 0, 0, 0, 1};  // B a broadcast row
  const Case cases[] = {
      {"vector: B across B's end", 0x1000, 0x40, kDstStart - 32, vec16, kDstStart, kDstStart - 32},
      {"vector: A across A's end", 0x1000, kSrcbStart - 32, 0x2000, vec16, kSrcbStart, kSrcbStart - 32},
      {"vector: result across A's end", kSrcbStart - 60, 0x40, 0x2000, vec16, kSrcbStart, kSrcbStart - 60},
      {"element: A across B's end", kSrcbStart + 0x40, kDstStart - 0xFC, 0x2000, bcast, kDstStart,
       kDstStart - 0xFC},
      {"element: result across B's end", kDstStart - 0xFC, 0x80, kSrcbStart, bcast, kDstStart,
       kDstStart - 0xFC},
  };
  for (const Case& c : cases) {
    Region r = threeWindows();
    putDescriptor(r, 0, c.desc);
    Asm p;
    p.emit(insn::li(1, static_cast<int32_t>(c.dst)));
    p.emit(insn::li(2, static_cast<int32_t>(c.a)));
    p.emit(insn::li(3, static_cast<int32_t>(c.b)));
    p.emit(insn::tensor(isa::kFnADD, isa::kTypeINT32, 1, 2, 3, 0, 0));
    p.emit(insn::halt());
    expectFaultAsBeyondDataSize(p, r, c.end, c.faultInfo, c.name);
  }
  // An operand in window D crossing DATA_SIZE (D's end) and one wholly
  // inside D: the first faults as in one region, the second runs.
  Region r = threeWindows();
  putDescriptor(r, 0, vec16);
  Asm p;
  p.emit(insn::li(1, static_cast<int32_t>(kDataSize - 32)));
  p.emit(insn::li(2, 0x40));
  p.emit(insn::li(3, static_cast<int32_t>(kDataSize - 64)));
  p.emit(insn::tensor(isa::kFnADD, isa::kTypeINT32, 3, 2, 3, 0, 0));  // inside D: fine
  p.emit(insn::tensor(isa::kFnADD, isa::kTypeINT32, 1, 2, 3, 0, 0));  // result across D's end
  p.emit(insn::halt());
  expectFaultAsBeyondDataSize(p, r, kDataSize, kDataSize - 32, "vector: result across D's end");
}

// A TENSOR descriptor lies in window A: one in window B (a valid one, at a
// 64-byte aligned offset) is an ACCESS_FAULT with FAULT_INFO its offset.
TEST(SimWindows, DescriptorInWindowBFaults) {
  Region r = threeWindows();
  putDescriptor(r, kSrcbStart + 0x40, {1, 1, 1, 16, 0, 0, 0, 1, 0, 0, 0, 1});
  Asm p;
  p.emit(insn::li(1, 0x1000));
  p.emit(insn::li(2, 0x40));
  p.emit(insn::tensor(isa::kFnADD, isa::kTypeINT32, 1, 2, 2, 0, kSrcbStart + 0x40));
  p.emit(insn::halt());
  expectFaultAsBeyondDataSize(p, r, kSrcbStart, kSrcbStart + 0x40, "descriptor in B");
  // Window B empty: a descriptor in D faults the same way.
  putDescriptor(r, kDstStart, {1, 1, 1, 16, 0, 0, 0, 1, 0, 0, 0, 1});
  r.srcbStart = kNoWindow;
  Asm q;
  q.emit(insn::li(1, 0x1000));
  q.emit(insn::li(2, 0x40));
  q.emit(insn::tensor(isa::kFnADD, isa::kTypeINT32, 1, 2, 2, 0, kDstStart));
  q.emit(insn::halt());
  expectFaultAsBeyondDataSize(q, r, kDstStart, kDstStart, "descriptor in D, B empty");
}

}  // namespace
}  // namespace nnfab::fabric::test
