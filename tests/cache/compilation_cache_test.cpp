// The compilation cache (runtime/compilation_cache.h): an entry written by
// one preparation is loaded by the next with the same token and model, and
// every kind of bad entry — truncated, corrupted, foreign, another version,
// another priority — is rejected and the model prepared from scratch with the
// same results. Concurrent preparations with one token leave a sound entry.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>

#include "api/client.h"
#include "api/prepared_model.h"
#include "model/json_io.h"
#include "runtime/compilation_cache.h"
#include "runtime/device.h"

namespace nnfab {
namespace {

namespace fs = std::filesystem;

std::string readText(const std::string& relative) {
  const char* root = std::getenv("NNFAB_SOURCE_DIR");
  std::ifstream in(std::string(root ? root : ".") + "/" + relative);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<uint8_t> readBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeBytes(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

class CompilationCache : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    device_ = findDevice(GetParam());
    if (device_ == nullptr) GTEST_SKIP() << GetParam() << " is not built";
    auto model = parseModel(readText("examples/while_sum.json"));
    ASSERT_TRUE(model.isOk()) << model.status().message();
    model_ = std::move(model).value();
    auto other = parseModel(readText("examples/while_fib.json"));
    ASSERT_TRUE(other.isOk()) << other.status().message();
    other_ = std::move(other).value();
    auto inputs = parseInputs(readText("examples/while_sum.inputs.json"), model_);
    ASSERT_TRUE(inputs.isOk()) << inputs.status().message();
    inputs_ = std::move(inputs).value();
    std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::replace(test.begin(), test.end(), '/', '_');
    dir_ = fs::temp_directory_path() / ("nnfab-cache-test-" + std::to_string(::getpid()) + "-" + test);
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    location_.directory = dir_.string();
    for (size_t i = 0; i < location_.token.size(); ++i) location_.token[i] = static_cast<uint8_t>(i * 7 + 1);
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }

  // Prepares with the cache and runs while_sum; the outputs' bytes.
  std::vector<std::vector<uint8_t>> prepareAndRun(const Model& model, Priority priority = Priority::MEDIUM) {
    api::PrepareRequest request;
    request.priority = priority;
    request.cache = location_;
    auto prepared = client_->prepare(*device_, model, request);
    EXPECT_TRUE(prepared.isOk()) << prepared.status().message();
    if (!prepared.isOk() || &model != &model_) return {};
    const ExecutionResult result = prepared.value()->execute(inputs_);
    EXPECT_TRUE(result.status.isOk()) << result.status.message();
    std::vector<std::vector<uint8_t>> out;
    for (const TensorValue& v : result.outputs) out.push_back(v.data);
    return out;
  }

  std::string entryPath() const { return runtime::cacheFilePath(location_); }

  const Device* device_ = nullptr;
  Model model_, other_;
  std::vector<TensorValue> inputs_;
  fs::path dir_;
  CacheLocation location_;
  std::shared_ptr<api::Client> client_ = api::Client::create("cache test");
};

TEST_P(CompilationCache, SecondPreparationLoadsWhatTheFirstStored) {
  const runtime::CacheCounters before = runtime::cacheCounters();
  const auto first = prepareAndRun(model_);
  const runtime::CacheCounters stored = runtime::cacheCounters();
  EXPECT_EQ(stored.missing, before.missing + 1);
  EXPECT_EQ(stored.stored, before.stored + 1);
  ASSERT_TRUE(fs::exists(entryPath()));

  const auto second = prepareAndRun(model_);
  const runtime::CacheCounters loaded = runtime::cacheCounters();
  EXPECT_EQ(loaded.loaded, stored.loaded + 1);
  EXPECT_EQ(loaded.stored, stored.stored);  // nothing rewritten
  EXPECT_EQ(second, first);
  ASSERT_EQ(first.size(), 2u);

  // The entry holds the plan and, where the fabric runs, its programs.
  auto decoded = runtime::decodeCacheEntry(
      readBytes(entryPath()), location_.token,
      runtime::CacheIdentity{std::string(device_->name()), Priority::MEDIUM, runtime::modelDigest(model_)}, model_);
  ASSERT_EQ(decoded.verdict, runtime::CacheVerdict::LOADED);
  EXPECT_EQ(decoded.entry->plan.subgraphs.size(), model_.subgraphCount());
  EXPECT_EQ(!decoded.entry->programs.empty(), decoded.entry->plan.usesFabric());
}

// A program's data windows (docs/compiler.md "Data windows") are part of
// it: while_fib's loop writes its result with the vector engine, into
// window D, and the entry keeps where D begins.
TEST_P(CompilationCache, ProgramsKeepTheirWindowStarts) {
  api::PrepareRequest request;
  request.cache = location_;
  ASSERT_TRUE(client_->prepare(*device_, other_, request).isOk());
  auto decoded = runtime::decodeCacheEntry(
      readBytes(entryPath()), location_.token,
      runtime::CacheIdentity{std::string(device_->name()), Priority::MEDIUM, runtime::modelDigest(other_)}, other_);
  ASSERT_EQ(decoded.verdict, runtime::CacheVerdict::LOADED);
  ASSERT_FALSE(decoded.entry->programs.empty());
  for (const auto& p : decoded.entry->programs) {
    EXPECT_NE(p.program.dstStart, isa::kNoWindowStart);
    EXPECT_EQ(p.program.dstStart % 64, 0u);
    EXPECT_LT(p.program.dstStart, p.program.dataBytes);
  }
}

// Each way an entry goes bad: rejected, prepared from scratch with the same
// outputs, and the entry rewritten so that the next preparation loads it.
TEST_P(CompilationCache, BadEntriesAreRejectedAndReplaced) {
  const auto reference = prepareAndRun(model_);
  const std::vector<uint8_t> good = readBytes(entryPath());
  ASSERT_GT(good.size(), 100u);

  // A sound entry of another model (while_fib), under this token.
  CacheLocation elsewhere = location_;
  elsewhere.token[0] ^= 0xFF;
  {
    api::PrepareRequest request;
    request.cache = elsewhere;
    ASSERT_TRUE(client_->prepare(*device_, other_, request).isOk());
  }
  std::vector<uint8_t> foreignModel = readBytes(runtime::cacheFilePath(elsewhere));

  std::vector<uint8_t> truncated(good.begin(), good.begin() + static_cast<long>(good.size() / 2));
  std::vector<uint8_t> payloadFlip = good;
  payloadFlip[good.size() - 3] ^= 0x10;
  std::vector<uint8_t> headerFlip = good;
  headerFlip[20] ^= 0x01;  // inside the version string
  std::vector<uint8_t> trailing = good;
  trailing.push_back(0);
  std::vector<uint8_t> notOurs = {'h', 'e', 'l', 'l', 'o'};

  // Another ISA version, checksum intact: only the version check can catch it.
  runtime::CacheVersions future = runtime::CacheVersions::current();
  future.isa += 1;
  auto current = runtime::decodeCacheEntry(
      good, location_.token,
      runtime::CacheIdentity{std::string(device_->name()), Priority::MEDIUM, runtime::modelDigest(model_)}, model_);
  ASSERT_EQ(current.verdict, runtime::CacheVerdict::LOADED);
  const std::vector<uint8_t> otherIsa = runtime::encodeCacheEntry(*current.entry, location_.token, future);
  runtime::CacheVersions otherBuild = runtime::CacheVersions::current();
  otherBuild.build += "-other";
  const std::vector<uint8_t> otherNnfab = runtime::encodeCacheEntry(*current.entry, location_.token, otherBuild);
  runtime::CacheEntry highPriority = *current.entry;
  highPriority.identity.priority = Priority::HIGH;
  const std::vector<uint8_t> otherPriority = runtime::encodeCacheEntry(highPriority, location_.token);

  const std::vector<std::pair<std::string, std::vector<uint8_t>>> cases = {
      {"truncated", truncated},        {"payload byte flipped", payloadFlip}, {"header byte flipped", headerFlip},
      {"trailing byte", trailing},     {"not a cache file", notOurs},         {"another model", foreignModel},
      {"another ISA version", otherIsa}, {"another nnfab version", otherNnfab}, {"another priority", otherPriority},
      {"empty", {}}};
  for (const auto& [what, bytes] : cases) {
    SCOPED_TRACE(what);
    writeBytes(entryPath(), bytes);
    const runtime::CacheCounters before = runtime::cacheCounters();
    EXPECT_EQ(prepareAndRun(model_), reference);
    const runtime::CacheCounters after = runtime::cacheCounters();
    EXPECT_EQ(after.rejected, before.rejected + 1);
    EXPECT_EQ(after.loaded, before.loaded);
    EXPECT_EQ(after.stored, before.stored + 1);  // replaced by a sound entry
    EXPECT_EQ(readBytes(entryPath()), good);
  }
}

TEST_P(CompilationCache, ConcurrentPreparationsWithOneTokenLeaveASoundEntry) {
  constexpr int kThreads = 8;
  std::vector<std::thread> threads;
  std::vector<std::vector<std::vector<uint8_t>>> results(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([this, t, &results] { results[t] = prepareAndRun(model_); });
  }
  for (auto& thread : threads) thread.join();
  for (int t = 1; t < kThreads; ++t) EXPECT_EQ(results[t], results[0]);
  // One entry, no temporary files left, and it loads.
  size_t files = 0;
  for (const auto& file : fs::directory_iterator(dir_)) {
    ++files;
    EXPECT_EQ(file.path().string(), entryPath());
  }
  EXPECT_EQ(files, 1u);
  const runtime::CacheCounters before = runtime::cacheCounters();
  EXPECT_EQ(prepareAndRun(model_), results[0]);
  EXPECT_EQ(runtime::cacheCounters().loaded, before.loaded + 1);
}

TEST_P(CompilationCache, AnUnusableDirectoryOnlyMeansNoCache) {
  location_.directory = (dir_ / "does" / "not" / "exist").string();
  const runtime::CacheCounters before = runtime::cacheCounters();
  EXPECT_EQ(prepareAndRun(model_).size(), 2u);
  EXPECT_EQ(runtime::cacheCounters().storeFailures, before.storeFailures + 1);
}

INSTANTIATE_TEST_SUITE_P(Devices, CompilationCache, ::testing::Values("hls", "sim"));

}  // namespace
}  // namespace nnfab
