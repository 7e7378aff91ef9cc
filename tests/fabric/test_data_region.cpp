// The data region's windows on the host (docs/isa.md "Memory model"):
// dataAddress, the one translation of a data offset to a device address;
// DeviceProgram allocating each non-empty window apart and copying by
// offset across windows; CoreDriver writing the window registers at every
// start.
#include <gtest/gtest.h>

#include <numeric>

#include "fabric/data_region.h"
#include "fabric/fabric_test_util.h"

namespace nnfab::fabric::test {
namespace {

LoadedProgram windowed() {
  LoadedProgram l;
  l.data = 0x10000;
  l.srcbData = 0x80000;
  l.dstData = 0x40000;
  l.dataBytes = 1024;
  l.srcbStart = 256;
  l.dstStart = 640;
  return l;
}

TEST(DataRegion, EachWindowsOffsetsLieAtItsAddress) {
  const LoadedProgram l = windowed();
  auto at = [&](uint64_t o) { return dataAddress(l, o); };
  ASSERT_TRUE(at(0) && at(255) && at(256) && at(639) && at(640) && at(1023));
  EXPECT_EQ(at(0)->address, 0x10000u);
  EXPECT_EQ(at(0)->contiguous, 256u);
  EXPECT_EQ(at(255)->address, 0x10000u + 255);
  EXPECT_EQ(at(255)->contiguous, 1u);
  EXPECT_EQ(at(256)->address, 0x80000u);
  EXPECT_EQ(at(256)->contiguous, 384u);
  EXPECT_EQ(at(639)->address, 0x80000u + 383);
  EXPECT_EQ(at(640)->address, 0x40000u);
  EXPECT_EQ(at(1023)->address, 0x40000u + 383);
  EXPECT_EQ(at(1023)->contiguous, 1u);
  EXPECT_FALSE(at(1024));
}

TEST(DataRegion, StartsTakeBits5To0AsZeroAndEmptyWindowsHoldNothing) {
  LoadedProgram l = windowed();
  l.srcbStart = 256 + 17;  // taken as 256
  EXPECT_EQ(dataAddress(l, 256)->address, 0x80000u);
  EXPECT_EQ(dataAddress(l, 255)->address, 0x10000u + 255);
  // No window B: A runs up to D.
  l.srcbStart = isa::kNoWindowStart;
  EXPECT_EQ(dataAddress(l, 639)->address, 0x10000u + 639);
  EXPECT_EQ(dataAddress(l, 640)->address, 0x40000u);
  // B beginning after D is empty: D's offsets are D's.
  l.srcbStart = 768;
  EXPECT_EQ(dataAddress(l, 800)->address, 0x40000u + 160);
  // Neither: one region at DATA_ADDR (ISA version 2).
  l.srcbStart = isa::kNoWindowStart;
  l.dstStart = isa::kNoWindowStart;
  EXPECT_EQ(dataAddress(l, 1000)->address, 0x10000u + 1000);
}

TEST(DataRegion, DeviceProgramPutsEachWindowInABufferOfItsOwn) {
  HlsBackend backend(smallDevice());
  std::vector<uint8_t> image(700);
  std::iota(image.begin(), image.end(), uint8_t{1});
  const WindowStarts windows{256, 640};
  Result<DeviceProgram> p = DeviceProgram::load(backend, counterLoop(3).code, image, 1024, {}, windows);
  ASSERT_TRUE(p.isOk()) << p.status().message();
  const LoadedProgram& l = p->loaded();
  EXPECT_EQ(l.srcbStart, 256u);
  EXPECT_EQ(l.dstStart, 640u);
  // Apart from A and from where one region would put them.
  EXPECT_NE(l.srcbData, l.data + 256);
  EXPECT_NE(l.dstData, l.data + 640);
  EXPECT_NE(l.srcbData, l.dstData);
  // The image went window by window: each buffer holds its part.
  std::vector<uint8_t> b(384), d(384);
  ASSERT_TRUE(backend.copyFromDevice(b.data(), l.srcbData, b.size()).isOk());
  ASSERT_TRUE(backend.copyFromDevice(d.data(), l.dstData, d.size()).isOk());
  EXPECT_TRUE(std::equal(b.begin(), b.end(), image.begin() + 256));
  EXPECT_TRUE(std::equal(d.begin(), d.begin() + 60, image.begin() + 640));
  EXPECT_EQ(d[60], 0u);  // zeros after the image
  // Reads and writes by offset across all three windows.
  std::vector<uint8_t> all(1024);
  ASSERT_TRUE(p->readData(0, all.data(), all.size()).isOk());
  EXPECT_TRUE(std::equal(image.begin(), image.end(), all.begin()));
  std::vector<uint8_t> span(600, 0xEE);
  ASSERT_TRUE(p->writeData(200, span.data(), span.size()).isOk());
  ASSERT_TRUE(backend.copyFromDevice(d.data(), l.dstData, d.size()).isOk());
  EXPECT_EQ(d[159], 0xEE);
  EXPECT_EQ(d[160], 0u);
  EXPECT_FALSE(p->readData(1000, all.data(), 25).isOk());
}

TEST(DataRegion, EmptyWindowsGetNoBuffer) {
  HlsBackend backend(smallDevice());
  Result<DeviceProgram> p = DeviceProgram::load(backend, counterLoop(3).code, {}, 256);
  ASSERT_TRUE(p.isOk()) << p.status().message();
  EXPECT_EQ(p->loaded().srcbStart, isa::kNoWindowStart);
  EXPECT_EQ(p->loaded().dstStart, isa::kNoWindowStart);
  EXPECT_EQ(p->loaded().srcbData, p->loaded().data);
  EXPECT_EQ(p->loaded().dstData, p->loaded().data);
}

TEST(DataRegion, TheDriverWritesTheWindowRegistersAtEveryStart) {
  HlsBackend backend(smallDevice());
  Result<DeviceProgram> w = DeviceProgram::load(backend, counterLoop(3).code, {}, 1024, {}, WindowStarts{256, 640});
  ASSERT_TRUE(w.isOk()) << w.status().message();
  CoreDriver driver(backend);
  ASSERT_TRUE(driver.run(w->loaded(), {}).isOk());
  EXPECT_EQ(readRegister64(backend, isa::kRegSRCB_ADDR), w->loaded().srcbData);
  EXPECT_EQ(readRegister64(backend, isa::kRegDST_ADDR), w->loaded().dstData);
  EXPECT_EQ(backend.readRegister(isa::kRegSRCB_START), 256u);
  EXPECT_EQ(backend.readRegister(isa::kRegDST_START), 640u);
  // The next program has no windows: nothing of the last one's stays.
  Result<DeviceProgram> one = DeviceProgram::load(backend, counterLoop(3).code, {}, 1024);
  ASSERT_TRUE(one.isOk()) << one.status().message();
  Result<RunReport> r = driver.run(one->loaded(), {});
  ASSERT_TRUE(r.isOk());
  EXPECT_EQ(r->coreStatus, isa::kStatusDONE);
  EXPECT_EQ(backend.readRegister(isa::kRegSRCB_START), isa::kNoWindowStart);
  EXPECT_EQ(backend.readRegister(isa::kRegDST_START), isa::kNoWindowStart);
  EXPECT_EQ(readRegister64(backend, isa::kRegSRCB_ADDR), one->loaded().data);
}

}  // namespace
}  // namespace nnfab::fabric::test
