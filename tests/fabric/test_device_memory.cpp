// Device memory of the emulated devices: first-fit allocation with 64-byte
// alignment, PERSISTENT vs TRANSIENT exhaustion, coalescing, copies bounded
// by one allocation, and DeviceProgram's loading.
#include <gtest/gtest.h>

#include <thread>

#include "fabric/device_memory.h"
#include "fabric/fabric_test_util.h"

namespace nnfab::fabric::test {
namespace {

TEST(DeviceMemory, AlignedFirstFitAllocations) {
  DeviceMemory m(4096);
  const DeviceAddress a = *m.allocate(1);
  const DeviceAddress b = *m.allocate(65);
  const DeviceAddress c = *m.allocate(0);
  EXPECT_EQ(a % 64, 0u);
  EXPECT_EQ(b, a + 64);
  EXPECT_EQ(c, b + 128);
  EXPECT_NE(a, 0u);  // address 0 is never handed out
  m.release(a);
  EXPECT_EQ(*m.allocate(64), a);  // first fit reuses the hole
}

TEST(DeviceMemory, ExhaustionIsPersistentOnlyWhenTheRequestCanNeverFit) {
  DeviceMemory m(4096);
  const Result<DeviceAddress> tooBig = m.allocate(4097);
  ASSERT_FALSE(tooBig.isOk());
  EXPECT_EQ(tooBig.status().code(), ErrorStatus::RESOURCE_EXHAUSTED_PERSISTENT);
  std::vector<DeviceAddress> blocks;
  for (int i = 0; i < 64; ++i) blocks.push_back(*m.allocate(64));
  const Result<DeviceAddress> full = m.allocate(64);
  ASSERT_FALSE(full.isOk());
  EXPECT_EQ(full.status().code(), ErrorStatus::RESOURCE_EXHAUSTED_TRANSIENT);
  // Fragmented: every other block free, 2048 bytes free but no 128 in a row.
  for (size_t i = 0; i < blocks.size(); i += 2) m.release(blocks[i]);
  const Result<DeviceAddress> fragmented = m.allocate(128);
  ASSERT_FALSE(fragmented.isOk());
  EXPECT_EQ(fragmented.status().code(), ErrorStatus::RESOURCE_EXHAUSTED_TRANSIENT);
  // Releasing the rest coalesces everything back into one block.
  for (size_t i = 1; i < blocks.size(); i += 2) m.release(blocks[i]);
  EXPECT_TRUE(m.allocate(4096).isOk());
}

// allocateHigh (a driver's own buffer, the trace area) takes the top end of
// the highest free block that fits, so that first-fit allocations after it
// land where they would without it.
TEST(DeviceMemory, HighAllocationsLeaveTheBottomToFirstFit) {
  DeviceMemory m(4096);
  const DeviceAddress high = *m.allocateHigh(100);  // 128 bytes reserved
  EXPECT_EQ(high, DeviceMemory::kBase + 4096 - 128);
  const DeviceAddress low = *m.allocate(1);
  EXPECT_EQ(low, DeviceMemory::kBase);
  // Below the first high block, not in the hole first fit would take.
  EXPECT_EQ(*m.allocateHigh(64), high - 64);
  // Exactly the rest: the free block is used up, from either end.
  EXPECT_EQ(*m.allocateHigh(4096 - 128 - 64 - 64), low + 64);
  const Result<DeviceAddress> full = m.allocateHigh(64);
  ASSERT_FALSE(full.isOk());
  EXPECT_EQ(full.status().code(), ErrorStatus::RESOURCE_EXHAUSTED_TRANSIENT);
  EXPECT_EQ(m.allocateHigh(4097).status().code(), ErrorStatus::RESOURCE_EXHAUSTED_PERSISTENT);
  // Released, high blocks coalesce with the rest as any other.
  m.release(high);
  m.release(high - 64);
  m.release(low + 64);
  m.release(low);
  EXPECT_EQ(*m.allocate(4096), DeviceMemory::kBase);
}

TEST(DeviceMemory, AllocationsFromAnAddressLandAtOrAboveIt) {
  DeviceMemory m(4096);
  const DeviceAddress low = *m.allocate(64);
  // Rounded up to the alignment; the gap below stays free for first fit.
  const DeviceAddress from = *m.allocateFrom(100, DeviceMemory::kBase + 1000);
  EXPECT_EQ(from, DeviceMemory::kBase + 1024);
  EXPECT_EQ(*m.allocate(64), low + 64);
  // An address already taken: the next free block above it.
  EXPECT_EQ(*m.allocateFrom(64, from), from + 128);
  // Nothing above fits: TRANSIENT (the hole below does not count); beyond
  // the memory: PERSISTENT.
  EXPECT_EQ(m.allocateFrom(4096 - 1024, DeviceMemory::kBase + 1024).status().code(),
            ErrorStatus::RESOURCE_EXHAUSTED_TRANSIENT);
  EXPECT_EQ(m.allocateFrom(64, DeviceMemory::kBase + 4096).status().code(),
            ErrorStatus::RESOURCE_EXHAUSTED_PERSISTENT);
  // Released, the pieces coalesce: the whole memory is one block again.
  m.release(from + 128);
  m.release(from);
  m.release(low + 64);
  m.release(low);
  EXPECT_EQ(*m.allocate(4096), DeviceMemory::kBase);
}

TEST(DeviceMemory, CopiesMustStayInsideOneAllocation) {
  DeviceMemory m(4096);
  const DeviceAddress a = *m.allocate(100);  // 128 bytes reserved
  const DeviceAddress b = *m.allocate(64);
  std::vector<uint8_t> buf(256, 7);
  EXPECT_TRUE(m.copyTo(a, buf.data(), 128).isOk());
  EXPECT_EQ(m.copyTo(a + 64, buf.data(), 128).code(), ErrorStatus::INVALID_ARGUMENT);  // runs into b
  EXPECT_EQ(m.copyTo(0, buf.data(), 4).code(), ErrorStatus::INVALID_ARGUMENT);
  EXPECT_EQ(m.copyFrom(buf.data(), b + 64, 1).code(), ErrorStatus::INVALID_ARGUMENT);
  std::vector<uint8_t> back(128);
  ASSERT_TRUE(m.copyFrom(back.data(), a, 128).isOk());
  EXPECT_EQ(back, std::vector<uint8_t>(128, 7));
  m.release(b);
  EXPECT_EQ(m.copyFrom(back.data(), b, 1).code(), ErrorStatus::INVALID_ARGUMENT);  // released
}

TEST(DeviceMemory, ConcurrentAllocationsAreSafe) {
  DeviceMemory m(1 << 20);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&m] {
      for (int i = 0; i < 500; ++i) {
        Result<DeviceAddress> a = m.allocate(64 + i % 300);
        ASSERT_TRUE(a.isOk());
        const uint64_t v = *a;
        ASSERT_TRUE(m.copyTo(*a, &v, sizeof(v)).isOk());
        uint64_t back = 0;
        ASSERT_TRUE(m.copyFrom(&back, *a, sizeof(back)).isOk());
        ASSERT_EQ(back, v);
        m.release(*a);
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_TRUE(m.allocate(1 << 20).isOk());
}

TEST(HlsBackendMemory, ExhaustionThroughTheBackendAndLazyImage) {
  HlsBackendOptions o;
  o.memoryBytes = uint64_t{1} << 30;  // 1 GiB: must not be touched until used
  HlsBackend backend(o);
  EXPECT_EQ(backend.memoryBytes(), uint64_t{1} << 30);
  EXPECT_EQ(backend.allocate((uint64_t{1} << 30) + 1).status().code(), ErrorStatus::RESOURCE_EXHAUSTED_PERSISTENT);
  const Result<DeviceAddress> half = backend.allocate(uint64_t{1} << 29);
  ASSERT_TRUE(half.isOk());
  EXPECT_EQ(backend.allocate((uint64_t{1} << 29) + 64).status().code(), ErrorStatus::RESOURCE_EXHAUSTED_TRANSIENT);
}

TEST(DeviceProgramLoad, FillsZerosAfterTheImageAndReleasesOnDestruction) {
  HlsBackend backend(smallDevice());
  std::vector<uint8_t> junk(1024, 0xEE);
  {
    const DeviceAddress a = *backend.allocate(4096);
    ASSERT_TRUE(backend.copyToDevice(a, junk.data(), junk.size()).isOk());
    backend.release(a);  // leaves junk behind in device memory
  }
  {
    const std::vector<uint8_t> image = {1, 2, 3};
    Result<DeviceProgram> p = DeviceProgram::load(backend, counterLoop(3).code, image, 1000);
    ASSERT_TRUE(p.isOk()) << p.status().message();
    std::vector<uint8_t> data(1000);
    ASSERT_TRUE(p->readData(0, data.data(), data.size()).isOk());
    EXPECT_EQ(data[0], 1);
    EXPECT_EQ(data[2], 3);
    for (size_t i = 3; i < data.size(); ++i) ASSERT_EQ(data[i], 0) << i;
    EXPECT_EQ(p->readData(999, data.data(), 2).code(), ErrorStatus::INVALID_ARGUMENT);
  }
  // Everything was released: the whole memory is one free block again.
  EXPECT_TRUE(backend.allocate(backend.memoryBytes()).isOk());
}

// Ranges the caller writes next are left alone; every other byte after the
// image is zero, however the ranges lie (overlapping the image, each other,
// the end of the region).
TEST(DeviceProgramLoad, ZeroesAllButTheRangesWrittenLater) {
  HlsBackend backend(smallDevice());
  const std::vector<uint8_t> junk(4096, 0xEE);
  {
    const DeviceAddress a = *backend.allocate(4096);
    ASSERT_TRUE(backend.copyToDevice(a, junk.data(), junk.size()).isOk());
    backend.release(a);
  }
  const std::vector<uint8_t> image = {1, 2, 3, 4};
  const std::vector<DataRange> later = {{600, 100}, {2, 10}, {650, 100}, {990, 64}, {300, 8}};
  Result<DeviceProgram> p = DeviceProgram::load(backend, counterLoop(3).code, image, 1000, later);
  ASSERT_TRUE(p.isOk()) << p.status().message();
  std::vector<uint8_t> data(1000);
  ASSERT_TRUE(p->readData(0, data.data(), data.size()).isOk());
  auto skipped = [&](size_t i) {
    for (const DataRange& r : later) {
      if (i >= r.offset && i < r.offset + r.bytes) return true;
    }
    return false;
  };
  EXPECT_EQ(data[0], 1);
  EXPECT_EQ(data[1], 2);
  size_t leftAlone = 0;
  for (size_t i = image.size(); i < data.size(); ++i) {
    if (skipped(i)) {
      leftAlone += data[i] == 0xEE;
      continue;
    }
    ASSERT_EQ(data[i], 0) << i;
  }
  EXPECT_GT(leftAlone, 0u);  // the ranges were really not written (the memory was dirty)
}

TEST(DeviceProgramLoad, RejectsWhatTheCoreCannotRun) {
  HlsBackend backend(smallDevice());
  std::vector<uint64_t> tooLong(isa::kMAX_PROGRAM_INSTRUCTIONS + 1, insn::nop());
  EXPECT_EQ(DeviceProgram::load(backend, tooLong, {}, 64).status().code(), ErrorStatus::INVALID_ARGUMENT);
  EXPECT_EQ(DeviceProgram::load(backend, {}, std::vector<uint8_t>(10), 5).status().code(),
            ErrorStatus::INVALID_ARGUMENT);
  EXPECT_EQ(DeviceProgram::load(backend, {}, {}, uint64_t{1} << 33).status().code(),
            ErrorStatus::RESOURCE_EXHAUSTED_PERSISTENT);
  EXPECT_EQ(DeviceProgram::load(backend, {}, {}, backend.memoryBytes() + 64).status().code(),
            ErrorStatus::RESOURCE_EXHAUSTED_PERSISTENT);
}

}  // namespace
}  // namespace nnfab::fabric::test
