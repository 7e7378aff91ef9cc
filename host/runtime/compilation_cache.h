// The compilation cache (NNAPI's setCaching; HAL prepareModelFromCache_1_3):
// what a fabric device's preparation produced — the partition plan and the
// compiled programs with their memory plans (data image and I/O slots) — kept
// in one file per token under the caller's directory, so that preparing the
// same model again with the same token loads instead of partitioning and
// compiling. docs/c-api.md ("Compilation cache") describes the format.
//
// An entry is only used when everything matches: magic, format, ISA version
// and nnfab version, checksum over header and content (64-bit), token,
// device, priority and a digest of the model. Anything else — a truncated,
// corrupted, foreign or version-mismatched file — is rejected with its
// reason and the model is prepared from scratch (and the entry rewritten).
// Entries are written to a temporary file and renamed into place, so
// concurrent preparations with one token never leave a torn entry.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/model.h"
#include "model/status.h"
#include "runtime/device.h"
#include "runtime/plan.h"
#include "runtime/plan_executor.h"

namespace nnfab::runtime {

// What an entry must have been made for.
struct CacheIdentity {
  std::string device;
  Priority priority = Priority::MEDIUM;
  uint64_t modelDigest = 0;
};

struct CacheEntry {
  CacheIdentity identity;
  Plan plan;
  std::vector<PlanExecutor::StepProgram> programs;
};

// The versions an entry records; a mismatch rejects it.
struct CacheVersions {
  uint32_t format = 2;  // 2: programs record their window starts (ISA version 3)
  uint32_t isa = 0;            // isa::kIsaVersion of this build
  std::string build;           // nnfab's version
  static CacheVersions current();
};

enum class CacheVerdict {
  LOADED,
  MISSING,           // no entry for the token (or unreadable)
  TRUNCATED,         // shorter than its header says
  CORRUPTED,         // checksum mismatch, trailing bytes, undecodable content
  FOREIGN,           // another format, token, device, priority or model
  VERSION_MISMATCH,  // another cache format, ISA or nnfab version
  INVALID_PLAN,      // decodes, but does not fit the model
};
std::string_view toString(CacheVerdict verdict);

struct CacheLoad {
  CacheVerdict verdict = CacheVerdict::MISSING;
  std::optional<CacheEntry> entry;  // only when LOADED
};

// A 64-bit hash over every field of the model (operands with their values,
// operations, inputs and outputs of every subgraph, the relax flag).
uint64_t modelDigest(const Model& model);
// <directory>/<token as 64 hex digits>.nnfab-cache
std::string cacheFilePath(const CacheLocation& location);

std::vector<uint8_t> encodeCacheEntry(const CacheEntry& entry, const std::array<uint8_t, 32>& token,
                                      const CacheVersions& versions = CacheVersions::current());
CacheLoad decodeCacheEntry(const std::vector<uint8_t>& bytes, const std::array<uint8_t, 32>& token,
                           const CacheIdentity& expected, const Model& model);

CacheLoad loadCacheEntry(const CacheLocation& location, const CacheIdentity& expected, const Model& model);
// Writes to a temporary file beside the entry and renames it into place.
Status storeCacheEntry(const CacheLocation& location, const CacheEntry& entry);

// Process-wide counts, for tests and `nnfab bench`.
struct CacheCounters {
  uint64_t loaded = 0;
  uint64_t rejected = 0;  // present but unusable
  uint64_t missing = 0;
  uint64_t stored = 0;
  uint64_t storeFailures = 0;
};
CacheCounters cacheCounters();

}  // namespace nnfab::runtime
