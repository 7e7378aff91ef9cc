#include "runtime/compilation_cache.h"

#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <thread>

#include "nnfab_isa.h"

namespace nnfab::runtime {
namespace {

constexpr char kMagic[8] = {'N', 'N', 'F', 'A', 'B', 'C', 'C', '\n'};
// A cache file larger than this is not ours (and is not read whole).
constexpr uint64_t kMaxEntryBytes = uint64_t{1} << 30;

struct Counters {
  std::atomic<uint64_t> loaded{0}, rejected{0}, missing{0}, stored{0}, storeFailures{0};
};
Counters& counters() {
  static Counters c;
  return c;
}

// A 64-bit hash over bytes, 8 at a time (a multiply-rotate mix with a
// final avalanche, in the spirit of MurmurHash's fmix64): it detects
// accidental damage, which is all the cache asks of it, several times
// faster than byte-wise FNV-1a over entries of hundreds of KiB.
class Hasher {
 public:
  void update(const void* data, size_t size) {
    const auto* p = static_cast<const uint8_t*>(data);
    length_ += size;
    while (size > 0 && pending_ > 0) {  // finish a partial word first
      word_ |= uint64_t{*p++} << (8 * pending_);
      --size;
      if (++pending_ == 8) mix();
    }
    for (; size >= 8; size -= 8, p += 8) {
      uint64_t w = 0;
      for (int k = 7; k >= 0; --k) w = (w << 8) | p[k];  // little-endian on every host
      word_ = w;
      mix();
    }
    while (size-- > 0) {
      word_ |= uint64_t{*p++} << (8 * pending_);
      ++pending_;
    }
  }
  uint64_t digest() const {
    uint64_t h = state_ ^ (word_ * kMul1) ^ length_;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 33;
    return h;
  }

 private:
  static constexpr uint64_t kMul1 = 0x9e3779b97f4a7c15ull;
  static constexpr uint64_t kMul2 = 0xbf58476d1ce4e5b9ull;
  void mix() {
    state_ ^= (word_ * kMul1);
    state_ = ((state_ << 31) | (state_ >> 33)) * kMul2;
    word_ = 0;
    pending_ = 0;
  }
  uint64_t state_ = 0x243f6a8885a308d3ull;
  uint64_t word_ = 0;
  size_t pending_ = 0;
  uint64_t length_ = 0;
};

uint64_t hashOf(const uint8_t* a, size_t aSize, const uint8_t* b, size_t bSize) {
  Hasher h;
  h.update(a, aSize);
  h.update(b, bSize);
  return h.digest();
}

// Little-endian writer and a bounds-checked reader: a reader that runs out
// of bytes stays failed, so decoding code checks once at the end.
class Writer {
 public:
  void u8(uint8_t v) { bytes.push_back(v); }
  void u32(uint32_t v) {
    for (int k = 0; k < 4; ++k) bytes.push_back(static_cast<uint8_t>(v >> (8 * k)));
  }
  void u64(uint64_t v) {
    for (int k = 0; k < 8; ++k) bytes.push_back(static_cast<uint8_t>(v >> (8 * k)));
  }
  void raw(const void* data, size_t size) {
    const auto* p = static_cast<const uint8_t*>(data);
    bytes.insert(bytes.end(), p, p + size);
  }
  void str(std::string_view s) {
    u32(static_cast<uint32_t>(s.size()));
    raw(s.data(), s.size());
  }
  void u32s(const std::vector<uint32_t>& v) {
    u32(static_cast<uint32_t>(v.size()));
    for (uint32_t x : v) u32(x);
  }
  std::vector<uint8_t> bytes;
};

class Reader {
 public:
  Reader(const uint8_t* data, size_t size) : p_(data), end_(data + size) {}
  bool ok() const { return ok_; }
  size_t left() const { return static_cast<size_t>(end_ - p_); }
  const uint8_t* position() const { return p_; }
  bool take(void* out, size_t size) {
    if (!ok_ || left() < size) return ok_ = false;
    std::memcpy(out, p_, size);
    p_ += size;
    return true;
  }
  uint8_t u8() {
    uint8_t v = 0;
    take(&v, 1);
    return v;
  }
  uint32_t u32() {
    uint8_t b[4] = {};
    take(b, 4);
    uint32_t v = 0;
    for (int k = 3; k >= 0; --k) v = (v << 8) | b[k];
    return v;
  }
  uint64_t u64() {
    uint8_t b[8] = {};
    take(b, 8);
    uint64_t v = 0;
    for (int k = 7; k >= 0; --k) v = (v << 8) | b[k];
    return v;
  }
  // A count of items of at least `itemBytes` each: never more than the
  // bytes left could hold (no huge allocation from a bad count).
  uint32_t count(size_t itemBytes) {
    const uint32_t n = u32();
    if (ok_ && itemBytes > 0 && n > left() / itemBytes) ok_ = false;
    return ok_ ? n : 0;
  }
  std::string str() {
    const uint32_t n = count(1);
    std::string s(n, '\0');
    if (n > 0) take(s.data(), n);
    return s;
  }
  std::vector<uint32_t> u32s() {
    const uint32_t n = count(4);
    std::vector<uint32_t> v(n);
    for (uint32_t& x : v) x = u32();
    return v;
  }

 private:
  const uint8_t* p_;
  const uint8_t* end_;
  bool ok_ = true;
};

void writePlan(Writer& w, const Plan& plan) {
  w.u32(static_cast<uint32_t>(plan.subgraphs.size()));
  for (const SubgraphPlan& sp : plan.subgraphs) {
    w.u8(sp.planned ? 1 : 0);
    w.u32(sp.height);
    w.u8(sp.usesFabric ? 1 : 0);
    w.u32(static_cast<uint32_t>(sp.steps.size()));
    for (const Step& step : sp.steps) {
      w.u8(static_cast<uint8_t>(step.kind));
      w.u32(step.subgraph);
      w.u32s(step.operations);
      w.u32s(step.inputs);
      w.u32s(step.outputs);
      w.u32(step.children[0]);
      w.u32(step.children[1]);
      w.u32(static_cast<uint32_t>(step.reasons.size()));
      for (const std::string& reason : step.reasons) w.str(reason);
      w.u32(static_cast<uint32_t>(step.codes.size()));
      for (ReasonCode code : step.codes) w.u8(static_cast<uint8_t>(code));
    }
  }
}

Plan readPlan(Reader& r) {
  Plan plan;
  plan.subgraphs.resize(r.count(10));
  for (SubgraphPlan& sp : plan.subgraphs) {
    sp.planned = r.u8() != 0;
    sp.height = r.u32();
    sp.usesFabric = r.u8() != 0;
    sp.steps.resize(r.count(29));
    for (Step& step : sp.steps) {
      step.kind = static_cast<StepKind>(r.u8());
      step.subgraph = r.u32();
      step.operations = r.u32s();
      step.inputs = r.u32s();
      step.outputs = r.u32s();
      step.children[0] = r.u32();
      step.children[1] = r.u32();
      step.reasons.resize(r.count(4));
      for (std::string& reason : step.reasons) reason = r.str();
      step.codes.resize(r.count(1));
      for (ReasonCode& code : step.codes) code = static_cast<ReasonCode>(r.u8());
    }
  }
  return plan;
}

void writeSlots(Writer& w, const std::vector<compiler::IoSlot>& slots) {
  w.u32(static_cast<uint32_t>(slots.size()));
  for (const compiler::IoSlot& slot : slots) {
    w.u32(slot.operand);
    w.u32(static_cast<uint32_t>(slot.type));
    w.u32s(slot.dimensions);
    w.u64(slot.offset);
    w.u64(slot.bytes);
  }
}

std::vector<compiler::IoSlot> readSlots(Reader& r) {
  std::vector<compiler::IoSlot> slots(r.count(28));
  for (compiler::IoSlot& slot : slots) {
    slot.operand = r.u32();
    slot.type = static_cast<OperandType>(r.u32());
    slot.dimensions = r.u32s();
    slot.offset = r.u64();
    slot.bytes = r.u64();
  }
  return slots;
}

void writePrograms(Writer& w, const std::vector<PlanExecutor::StepProgram>& programs) {
  w.u32(static_cast<uint32_t>(programs.size()));
  for (const PlanExecutor::StepProgram& p : programs) {
    w.u32(p.subgraph);
    w.u32(p.step);
    w.u32s(p.key);
    w.u32(static_cast<uint32_t>(p.program.code.size()));
    for (uint64_t insn : p.program.code) w.u64(insn);
    w.u32(static_cast<uint32_t>(p.program.dataImage.size()));
    w.raw(p.program.dataImage.data(), p.program.dataImage.size());
    w.u64(p.program.dataBytes);
    w.u32(p.program.srcbStart);
    w.u32(p.program.dstStart);
    writeSlots(w, p.program.inputs);
    writeSlots(w, p.program.outputs);
  }
}

std::vector<PlanExecutor::StepProgram> readPrograms(Reader& r) {
  std::vector<PlanExecutor::StepProgram> programs(r.count(40));
  for (PlanExecutor::StepProgram& p : programs) {
    p.subgraph = r.u32();
    p.step = r.u32();
    p.key = r.u32s();
    p.program.code.resize(r.count(8));
    for (uint64_t& insn : p.program.code) insn = r.u64();
    p.program.dataImage.resize(r.count(1));
    if (!p.program.dataImage.empty()) r.take(p.program.dataImage.data(), p.program.dataImage.size());
    p.program.dataBytes = r.u64();
    p.program.srcbStart = r.u32();
    p.program.dstStart = r.u32();
    p.program.inputs = readSlots(r);
    p.program.outputs = readSlots(r);
  }
  return programs;
}

bool indexesBelow(const std::vector<uint32_t>& indexes, size_t bound) {
  for (uint32_t i : indexes) {
    if (i >= bound) return false;
  }
  return true;
}

// Whether a decoded plan and its programs only name what the model has (a
// valid checksum proves the bytes are ours, this that they are for it).
bool fitsModel(const CacheEntry& entry, const Model& model) {
  const size_t subgraphs = model.subgraphCount();
  if (entry.plan.subgraphs.size() != subgraphs) return false;
  for (const SubgraphPlan& sp : entry.plan.subgraphs) {
    for (const Step& step : sp.steps) {
      if (step.kind > StepKind::WHILE || step.subgraph >= subgraphs) return false;
      const Subgraph& sg = model.subgraph(step.subgraph);
      if (!indexesBelow(step.operations, sg.operations.size()) || !indexesBelow(step.inputs, sg.operands.size()) ||
          !indexesBelow(step.outputs, sg.operands.size()) || step.children[0] >= subgraphs ||
          step.children[1] >= subgraphs) {
        return false;
      }
      for (ReasonCode code : step.codes) {
        if (code > ReasonCode::NO_FABRIC) return false;
      }
    }
  }
  for (const PlanExecutor::StepProgram& p : entry.programs) {
    if (p.subgraph >= subgraphs || p.step >= entry.plan.subgraphs[p.subgraph].steps.size()) return false;
    if (entry.plan.subgraphs[p.subgraph].steps[p.step].kind != StepKind::FABRIC) return false;
    if (p.program.dataImage.size() > p.program.dataBytes) return false;
  }
  return true;
}

CacheLoad reject(CacheVerdict verdict) {
  ++counters().rejected;
  return {verdict, std::nullopt};
}

}  // namespace

CacheVersions CacheVersions::current() {
  CacheVersions v;
  v.isa = isa::kIsaVersion;
  v.build = NNFAB_BUILD_VERSION;
  return v;
}

std::string_view toString(CacheVerdict verdict) {
  switch (verdict) {
    case CacheVerdict::LOADED: return "loaded";
    case CacheVerdict::MISSING: return "missing";
    case CacheVerdict::TRUNCATED: return "truncated";
    case CacheVerdict::CORRUPTED: return "corrupted";
    case CacheVerdict::FOREIGN: return "foreign";
    case CacheVerdict::VERSION_MISMATCH: return "version mismatch";
    case CacheVerdict::INVALID_PLAN: return "invalid plan";
  }
  return "?";
}

uint64_t modelDigest(const Model& model) {
  // Every field of the model, in a fixed order with counts before lists, so
  // that two different models do not feed the hash the same bytes.
  Hasher h;
  auto u32 = [&h](uint32_t v) {
    const uint8_t b[4] = {static_cast<uint8_t>(v), static_cast<uint8_t>(v >> 8), static_cast<uint8_t>(v >> 16),
                          static_cast<uint8_t>(v >> 24)};
    h.update(b, 4);
  };
  auto u32s = [&u32](const std::vector<uint32_t>& v) {
    u32(static_cast<uint32_t>(v.size()));
    for (uint32_t x : v) u32(x);
  };
  u32(model.relaxComputationFloat32toFloat16 ? 1 : 0);
  u32(static_cast<uint32_t>(model.subgraphCount()));
  for (size_t s = 0; s < model.subgraphCount(); ++s) {
    const Subgraph& sg = model.subgraph(s);
    u32(static_cast<uint32_t>(sg.operands.size()));
    for (const Operand& o : sg.operands) {
      u32(static_cast<uint32_t>(o.type));
      u32s(o.dimensions);
      uint32_t scaleBits = 0;
      std::memcpy(&scaleBits, &o.scale, sizeof scaleBits);
      u32(scaleBits);
      u32(static_cast<uint32_t>(o.zeroPoint));
      u32(static_cast<uint32_t>(o.lifetime));
      u32(static_cast<uint32_t>(o.value.size()));
      h.update(o.value.data(), o.value.size());
      u32(o.subgraph);
      u32(o.channelQuant ? 1 : 0);
      if (o.channelQuant) {
        u32(o.channelQuant->channelDim);
        u32(static_cast<uint32_t>(o.channelQuant->scales.size()));
        h.update(o.channelQuant->scales.data(), o.channelQuant->scales.size() * sizeof(float));
      }
    }
    u32(static_cast<uint32_t>(sg.operations.size()));
    for (const Operation& op : sg.operations) {
      u32(static_cast<uint32_t>(op.type));
      u32s(op.inputs);
      u32s(op.outputs);
    }
    u32s(sg.inputIndexes);
    u32s(sg.outputIndexes);
  }
  return h.digest();
}

std::string cacheFilePath(const CacheLocation& location) {
  std::string name;
  for (uint8_t b : location.token) name += fmt::format("{:02x}", b);
  return (std::filesystem::path(location.directory) / (name + ".nnfab-cache")).string();
}

std::vector<uint8_t> encodeCacheEntry(const CacheEntry& entry, const std::array<uint8_t, 32>& token,
                                      const CacheVersions& versions) {
  Writer payload;
  writePlan(payload, entry.plan);
  writePrograms(payload, entry.programs);

  Writer w;
  w.raw(kMagic, sizeof kMagic);
  w.u32(versions.format);
  w.u32(versions.isa);
  w.str(versions.build);
  w.str(entry.identity.device);
  w.u32(static_cast<uint32_t>(entry.identity.priority));
  w.u64(entry.identity.modelDigest);
  w.raw(token.data(), token.size());
  w.u64(payload.bytes.size());
  const uint64_t checksum = hashOf(w.bytes.data(), w.bytes.size(), payload.bytes.data(), payload.bytes.size());
  w.u64(checksum);
  w.raw(payload.bytes.data(), payload.bytes.size());
  return std::move(w.bytes);
}

CacheLoad decodeCacheEntry(const std::vector<uint8_t>& bytes, const std::array<uint8_t, 32>& token,
                           const CacheIdentity& expected, const Model& model) {
  Reader r(bytes.data(), bytes.size());
  char magic[sizeof kMagic] = {};
  if (!r.take(magic, sizeof magic)) return reject(CacheVerdict::TRUNCATED);
  if (std::memcmp(magic, kMagic, sizeof kMagic) != 0) return reject(CacheVerdict::FOREIGN);
  CacheVersions versions;
  versions.format = r.u32();
  versions.isa = r.u32();
  versions.build = r.str();
  CacheEntry entry;
  entry.identity.device = r.str();
  entry.identity.priority = static_cast<Priority>(r.u32());
  entry.identity.modelDigest = r.u64();
  std::array<uint8_t, 32> entryToken{};
  r.take(entryToken.data(), entryToken.size());
  const uint64_t payloadBytes = r.u64();
  const size_t headerBytes = bytes.size() - r.left();
  const uint64_t checksum = r.u64();
  if (!r.ok() || payloadBytes > r.left()) return reject(CacheVerdict::TRUNCATED);
  if (payloadBytes < r.left()) return reject(CacheVerdict::CORRUPTED);  // trailing bytes
  if (hashOf(bytes.data(), headerBytes, r.position(), r.left()) != checksum) {
    return reject(CacheVerdict::CORRUPTED);
  }
  const CacheVersions current = CacheVersions::current();
  if (versions.format != current.format || versions.isa != current.isa || versions.build != current.build) {
    return reject(CacheVerdict::VERSION_MISMATCH);
  }
  if (entryToken != token || entry.identity.device != expected.device ||
      entry.identity.priority != expected.priority || entry.identity.modelDigest != expected.modelDigest) {
    return reject(CacheVerdict::FOREIGN);
  }
  entry.plan = readPlan(r);
  entry.programs = readPrograms(r);
  if (!r.ok() || r.left() != 0) return reject(CacheVerdict::CORRUPTED);
  if (!fitsModel(entry, model)) return reject(CacheVerdict::INVALID_PLAN);
  ++counters().loaded;
  return {CacheVerdict::LOADED, std::move(entry)};
}

CacheLoad loadCacheEntry(const CacheLocation& location, const CacheIdentity& expected, const Model& model) {
  std::error_code error;
  const std::string path = cacheFilePath(location);
  const auto size = std::filesystem::file_size(path, error);
  if (error) {
    ++counters().missing;
    return {CacheVerdict::MISSING, std::nullopt};
  }
  if (size > kMaxEntryBytes) return reject(CacheVerdict::FOREIGN);
  std::ifstream in(path, std::ios::binary);
  std::vector<uint8_t> bytes(size);
  in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(size));
  bytes.resize(static_cast<size_t>(in.gcount()));  // a file that shrank meanwhile reads as truncated
  if (!in.good() && !in.eof()) {
    ++counters().missing;
    return {CacheVerdict::MISSING, std::nullopt};
  }
  return decodeCacheEntry(bytes, location.token, expected, model);
}

Status storeCacheEntry(const CacheLocation& location, const CacheEntry& entry) {
  const std::vector<uint8_t> bytes = encodeCacheEntry(entry, location.token);
  const std::string path = cacheFilePath(location);
  // A name no other writer uses: process, thread and a random number.
  static std::atomic<uint64_t> sequence{0};
  const std::string temporary =
      fmt::format("{}.tmp.{}.{}.{}", path, getpid(), std::hash<std::thread::id>{}(std::this_thread::get_id()),
                  sequence.fetch_add(1) ^ std::random_device{}());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    out.flush();
    if (!out) {
      std::remove(temporary.c_str());
      ++counters().storeFailures;
      return generalFailure(fmt::format("compilation cache: cannot write {}", temporary));
    }
  }
  // rename() replaces atomically: readers see the old entry or the new one.
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    std::remove(temporary.c_str());
    ++counters().storeFailures;
    return generalFailure(fmt::format("compilation cache: cannot rename {} to {}", temporary, path));
  }
  ++counters().stored;
  return Status::ok();
}

CacheCounters cacheCounters() {
  const Counters& c = counters();
  return {c.loaded.load(), c.rejected.load(), c.missing.load(), c.stored.load(), c.storeFailures.load()};
}

}  // namespace nnfab::runtime
