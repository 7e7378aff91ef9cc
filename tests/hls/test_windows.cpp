// The data region's windows on the HLS core (docs/isa.md "Memory model: one
// data region, three windows, three data ports"): offsets in windows B and
// D reach their own buffers (which the hls device places apart from window
// A), every access is bounded by the end of its first byte's window, and
// scalar loads, stores and TENSOR descriptors reach window A only, with the
// FAULT_INFO of an access beyond DATA_SIZE. CYCLES does not depend on the
// windows.
#include <gtest/gtest.h>

#include "fabric/core_status.h"
#include "fabric/data_region.h"
#include "hls/tensor_test_util.h"

namespace nnfab::fabric::test {
namespace {

// Window A [0, 256): the descriptor at 0, A operands; B [256, 512); D
// [512, 640).
constexpr uint32_t kSrcbStart = 256;
constexpr uint32_t kDstStart = 512;
constexpr uint64_t kDataBytes = 640;
constexpr WindowStarts kWindows{kSrcbStart, kDstStart};
constexpr uint32_t kN = 16;  // INT32 elements of each operand

std::vector<uint8_t> imageWithDescriptor(uint32_t n = kN) {
  std::vector<uint8_t> image(kDataBytes, kPoison);
  Descriptor d;
  d.dim = {1, 1, 1, n};
  d.stride[0] = {0, 0, 0, 1};
  d.stride[1] = {0, 0, 0, 1};
  put(image, 0, d.words());
  return image;
}


std::vector<int32_t> iota(int32_t from, uint32_t n) {
  std::vector<int32_t> v(n);
  for (uint32_t i = 0; i < n; ++i) v[i] = from + static_cast<int32_t>(i);
  return v;
}

void expectFault(const Asm& a, const std::vector<uint8_t>& image, uint32_t offset, const char* what) {
  SCOPED_TRACE(what);
  const Outcome out = run(a, image, kDataBytes, {}, smallDevice(), kWindows);
  EXPECT_CORE_STATUS(out, isa::kStatusACCESS_FAULT);
  EXPECT_EQ(out.report.faultInfo, offset);
  EXPECT_EQ(out.data, image) << "a faulting instruction wrote to the data region";
}

TEST(HlsWindows, VectorOperandsAndResultLiveInTheirWindowsBuffers) {
  std::vector<uint8_t> image = imageWithDescriptor();
  put(image, 64, iota(1, kN));           // A operand, window A
  put(image, kSrcbStart, iota(100, kN)); // B operand, window B
  HlsBackend backend(smallDevice());
  Result<DeviceProgram> program =
      DeviceProgram::load(backend, tensorAdd(kDstStart, 64, kSrcbStart).code, image, kDataBytes, {}, kWindows);
  ASSERT_TRUE(program.isOk()) << program.status().message();
  const LoadedProgram& l = program->loaded();
  // Windows B and D have buffers of their own, not where one region would
  // put them: the core has to translate.
  EXPECT_NE(l.srcbData, l.data + kSrcbStart);
  EXPECT_NE(l.dstData, l.data + kDstStart);
  CoreDriver driver(backend);
  Result<RunReport> r = driver.run(l, {});
  ASSERT_TRUE(r.isOk()) << r.status().message();
  ASSERT_EQ(r->coreStatus, isa::kStatusDONE) << r->status.message();
  std::vector<int32_t> expected(kN);
  for (uint32_t i = 0; i < kN; ++i) expected[i] = 101 + 2 * static_cast<int32_t>(i);
  // By offset (the translation) and in D's own buffer.
  std::vector<int32_t> result(kN);
  ASSERT_TRUE(program->readData(kDstStart, result.data(), kN * 4).isOk());
  EXPECT_EQ(result, expected);
  std::vector<int32_t> inBuffer(kN);
  ASSERT_TRUE(backend.copyFromDevice(inBuffer.data(), l.dstData, kN * 4).isOk());
  EXPECT_EQ(inBuffer, expected);
}

TEST(HlsWindows, CyclesDoNotDependOnTheWindows) {
  std::vector<uint8_t> image = imageWithDescriptor();
  put(image, 64, iota(1, kN));
  put(image, kSrcbStart, iota(100, kN));
  const Asm a = tensorAdd(kDstStart, 64, kSrcbStart);
  const Outcome windowed = run(a, image, kDataBytes, {}, smallDevice(), kWindows);
  const Outcome single = run(a, image, kDataBytes);  // one region: ISA version 2
  EXPECT_CORE_STATUS(windowed, isa::kStatusDONE);
  EXPECT_CORE_STATUS(single, isa::kStatusDONE);
  EXPECT_EQ(windowed.report.cycles, single.report.cycles);
  EXPECT_EQ(windowed.data, single.data);
}

TEST(HlsWindows, ScalarLoadsAndStoresReachWindowAOnly) {
  const std::vector<uint8_t> image(kDataBytes, kPoison);
  Asm ok;
  ok.emit(insn::li(2, 0x12345678));
  ok.emit(insn::stw(2, 0, kSrcbStart - 4));  // A's last word
  ok.emit(insn::ldw(3, 0, kSrcbStart - 4));
  ok.emit(insn::stw(3, 0, 0));
  ok.emit(insn::halt());
  const Outcome last = run(ok, image, kDataBytes, {}, smallDevice(), kWindows);
  EXPECT_CORE_STATUS(last, isa::kStatusDONE);
  EXPECT_EQ(word(last.data, 0), 0x12345678);
  for (const uint32_t at : {kSrcbStart, kSrcbStart + 8, kDstStart, kDstStart + 60}) {
    Asm ld;
    ld.emit(insn::ldw(3, 0, at));
    ld.emit(insn::halt());
    expectFault(ld, image, at, "LDW beyond window A");
    Asm stb;
    stb.emit(insn::li(2, 1));
    stb.emit(insn::stb(2, 0, at + 1));
    stb.emit(insn::halt());
    expectFault(stb, image, at + 1, "STB beyond window A");
  }
  Asm crossing;
  crossing.emit(insn::ldb(3, 0, kSrcbStart - 1));  // A's last byte: inside
  crossing.emit(insn::halt());
  EXPECT_CORE_STATUS(run(crossing, image, kDataBytes, {}, smallDevice(), kWindows), isa::kStatusDONE);
}

TEST(HlsWindows, AnOperandMustEndInTheWindowOfItsFirstByte) {
  const std::vector<uint8_t> image = imageWithDescriptor();
  // 16 INT32 from 224 cross from A into B; from 480, from B into D.
  expectFault(tensorAdd(kDstStart, kSrcbStart - 32, kSrcbStart), image, kSrcbStart - 32, "A operand A -> B");
  expectFault(tensorAdd(kDstStart, 64, kDstStart - 32), image, kDstStart - 32, "B operand B -> D");
  expectFault(tensorAdd(kSrcbStart - 32, 64, kSrcbStart), image, kSrcbStart - 32, "result A -> B");
  expectFault(tensorAdd(kDstStart - 32, 64, kSrcbStart), image, kDstStart - 32, "result B -> D");
  // ... and each window's last bytes are its own.
  const Outcome fits = run(tensorAdd(kDstStart - 64, kSrcbStart - 64, kSrcbStart), image, kDataBytes, {},
                           smallDevice(), kWindows);
  EXPECT_CORE_STATUS(fits, isa::kStatusDONE);
}

TEST(HlsWindows, DescriptorsReachWindowAOnly) {
  std::vector<uint8_t> image = imageWithDescriptor();
  // The same descriptor in window B and in D.
  put(image, kSrcbStart + 64, get<uint8_t>(image, 0, isa::kDESCRIPTOR_BYTES));
  put(image, kDstStart + 64, get<uint8_t>(image, 0, isa::kDESCRIPTOR_BYTES));
  expectFault(tensorAdd(kDstStart, 64, kSrcbStart, kSrcbStart + 64), image, kSrcbStart + 64, "descriptor in B");
  expectFault(tensorAdd(kDstStart, 64, kSrcbStart, kDstStart + 64), image, kDstStart + 64, "descriptor in D");
}

TEST(HlsWindows, FcReadsAndWritesEveryWindowThroughTheDataPort) {
  // out[1][2] = x[1][4] . w[2][4] + bias[2]: x in A, weights in B, bias and
  // output in D.
  std::vector<uint8_t> image(kDataBytes, 0);
  const uint32_t desc[16] = {1, 2, 4, 0};
  put(image, 0, std::vector<uint32_t>(desc, desc + 16));
  put(image, 64, std::vector<float>{1, 2, 3, 4});
  put(image, kSrcbStart, std::vector<float>{1, 0, 0, 0, 0, 1, 1, 0});
  put(image, kDstStart, std::vector<float>{10, 20});
  Asm a;
  a.emit(insn::li(1, kDstStart + 64));
  a.emit(insn::li(2, 64));
  a.emit(insn::li(3, kSrcbStart));
  a.emit(insn::li(4, kDstStart));
  a.emit(insn::tensor(isa::kFnFC, isa::kTypeFLOAT32, 1, 2, 3, 4, 0));
  a.emit(insn::halt());
  const Outcome out = run(a, image, kDataBytes, {}, smallDevice(), kWindows);
  EXPECT_CORE_STATUS(out, isa::kStatusDONE);
  EXPECT_EQ(get<float>(out.data, kDstStart + 64, 2), (std::vector<float>{11, 25}));
}

TEST(HlsWindows, StartsResetToNoWindow) {
  HlsBackend backend(smallDevice());
  EXPECT_EQ(backend.readRegister(isa::kRegSRCB_START), isa::kNoWindowStart);
  EXPECT_EQ(backend.readRegister(isa::kRegDST_START), isa::kNoWindowStart);
  backend.writeRegister(isa::kRegSRCB_START, 128);
  EXPECT_EQ(backend.readRegister(isa::kRegSRCB_START), 128u);
  backend.reset();
  EXPECT_EQ(backend.readRegister(isa::kRegSRCB_START), isa::kNoWindowStart);
}

}  // namespace
}  // namespace nnfab::fabric::test
