#include "capi/memory.h"

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

#include "capi/compilation.h"
#include "capi/operand_type.h"

namespace nnfab::capi {
namespace {

// Two shapes are compatible when the ranks agree (or one is unknown) and
// every axis known on both sides agrees; the merge keeps what is known.
std::optional<Dimensions> merge(const Dimensions& a, const Dimensions& b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  if (a.size() != b.size()) return std::nullopt;
  Dimensions out = a;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i] != 0 && b[i] != 0 && a[i] != b[i]) return std::nullopt;
    if (out[i] == 0) out[i] = b[i];
  }
  return out;
}

bool sameQuantization(const Operand& a, const Operand& b) {
  if (a.type != b.type || a.scale != b.scale || a.zeroPoint != b.zeroPoint) return false;
  if (a.channelQuant.has_value() != b.channelQuant.has_value()) return false;
  return !a.channelQuant ||
         (a.channelQuant->channelDim == b.channelQuant->channelDim && a.channelQuant->scales == b.channelQuant->scales);
}

}  // namespace

int MemoryDesc::addRole(const Compilation* compilation, bool input, uint32_t index, float frequency) {
  if (finished_) return ANEURALNETWORKS_BAD_STATE;
  const MemoryRole role{compilation, input, index};
  if (std::find(roles_.begin(), roles_.end(), role) != roles_.end()) return ANEURALNETWORKS_BAD_DATA;
  // An unfinished or failed compilation is BAD_DATA here, not BAD_STATE.
  if (!compilation->valid()) return ANEURALNETWORKS_BAD_DATA;
  const Subgraph& main = compilation->model().main;
  const auto& ios = input ? main.inputIndexes : main.outputIndexes;
  if (index >= ios.size()) return ANEURALNETWORKS_BAD_DATA;
  const Operand& operand = main.operands[ios[index]];
  if (!roles_.empty() && !sameQuantization(operand_, operand)) return ANEURALNETWORKS_BAD_DATA;
  const bool scalar = isScalarType(operand.type);
  if (scalar && !dims_.empty()) return ANEURALNETWORKS_BAD_DATA;
  auto merged = merge(dims_, operand.dimensions);
  if (!merged) return ANEURALNETWORKS_BAD_DATA;
  if (!(frequency > 0.0f && frequency <= 1.0f)) return ANEURALNETWORKS_BAD_DATA;
  if (roles_.empty()) operand_ = operand;
  hasScalarRole_ = hasScalarRole_ || scalar;
  dims_ = std::move(*merged);
  roles_.push_back(role);
  return ANEURALNETWORKS_NO_ERROR;
}

int MemoryDesc::setDimensions(uint32_t rank, const uint32_t* dimensions) {
  if (finished_) return ANEURALNETWORKS_BAD_STATE;
  if (hasScalarRole_ && rank > 0) return ANEURALNETWORKS_BAD_DATA;
  const Dimensions given = rank == 0 ? Dimensions{} : Dimensions(dimensions, dimensions + rank);
  auto merged = merge(dims_, given);
  if (!merged) return ANEURALNETWORKS_BAD_DATA;
  dims_ = std::move(*merged);
  return ANEURALNETWORKS_NO_ERROR;
}

int MemoryDesc::finish() {
  if (finished_) return ANEURALNETWORKS_BAD_STATE;
  if (roles_.empty()) return ANEURALNETWORKS_BAD_DATA;
  finished_ = true;
  return ANEURALNETWORKS_NO_ERROR;
}

Memory::~Memory() {
  if (mapBase_ != nullptr) munmap(mapBase_, mapLength_);
  if (fd_ >= 0) close(fd_);
}

int Memory::fromFd(size_t size, int protect, int fd, size_t offset, Memory** out) {
  if (size == 0 || fd < 0) return ANEURALNETWORKS_BAD_DATA;
  // A region past the end of a file (or memfd) maps, but touching it would
  // kill the process with SIGBUS: refuse it here.
  struct stat info {};
  if (fstat(fd, &info) == 0 && S_ISREG(info.st_mode) &&
      (offset > static_cast<uint64_t>(info.st_size) || size > static_cast<uint64_t>(info.st_size) - offset)) {
    return ANEURALNETWORKS_BAD_DATA;
  }
  const int dupFd = dup(fd);
  if (dupFd < 0) return ANEURALNETWORKS_UNEXPECTED_NULL;  // as Android reports a failed dup
  // Mapped now (Android maps on first use): nnfab copies inputs and
  // outputs through the host, so every use needs the mapping anyway.
  const auto page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const size_t base = offset / page * page;
  const size_t length = size + (offset - base);
  void* mapped = mmap(nullptr, length, protect, MAP_SHARED, dupFd, static_cast<off_t>(base));
  if (mapped == MAP_FAILED) {
    close(dupFd);
    return ANEURALNETWORKS_UNMAPPABLE;
  }
  auto* memory = new (std::nothrow) Memory();
  if (memory == nullptr) {
    munmap(mapped, length);
    close(dupFd);
    return ANEURALNETWORKS_OUT_OF_MEMORY;
  }
  memory->fd_ = dupFd;
  memory->protect_ = protect;
  memory->mapBase_ = mapped;
  memory->mapLength_ = length;
  memory->data_ = static_cast<uint8_t*>(mapped) + (offset - base);
  memory->size_ = size;
  *out = memory;
  return ANEURALNETWORKS_NO_ERROR;
}

int Memory::fromDesc(const MemoryDesc& desc, Memory** out) {
  if (!desc.finished()) return ANEURALNETWORKS_BAD_STATE;
  // nnfab's device memory is a host buffer of the final size: a shape that
  // is not fully known cannot be allocated (Android: OP_FAILED as well).
  Operand operand = desc.operand();
  operand.dimensions = desc.dimensions();
  const auto bytes = byteSize(operand.type, operand.dimensions);
  if (!bytes || *bytes == 0 || (!isScalarType(operand.type) && !isFullySpecified(operand))) {
    return ANEURALNETWORKS_OP_FAILED;
  }
  auto* memory = new (std::nothrow) Memory();
  if (memory == nullptr) return ANEURALNETWORKS_OUT_OF_MEMORY;
  memory->device_ = true;
  memory->buffer_.assign(*bytes, 0);
  memory->data_ = memory->buffer_.data();
  memory->size_ = memory->buffer_.size();
  memory->roles_ = desc.roles();
  memory->operand_ = operand;
  memory->dims_ = operand.dimensions;
  *out = memory;
  return ANEURALNETWORKS_NO_ERROR;
}

int Memory::copy(const Memory& src, Memory& dst) {
  if (&src == &dst) return ANEURALNETWORKS_NO_ERROR;
  if (src.device_ && !src.initialized()) {
    if (dst.device_) dst.setInitialized(false);
    return ANEURALNETWORKS_BAD_DATA;
  }
  if (src.size_ != dst.size_ || (src.device_ && dst.device_ && !merge(src.dims_, dst.dims_))) {
    if (dst.device_) dst.setInitialized(false);
    return ANEURALNETWORKS_BAD_DATA;
  }
  std::memcpy(dst.data_, src.data_, src.size_);
  if (dst.device_) dst.setInitialized(true);
  return ANEURALNETWORKS_NO_ERROR;
}

bool Memory::readable() const { return device_ || (protect_ & PROT_READ) != 0; }
bool Memory::writable() const { return device_ || (protect_ & PROT_WRITE) != 0; }

int Memory::checkRegion(size_t offset, size_t length) const {
  if (device_) return offset == 0 && length == 0 ? ANEURALNETWORKS_NO_ERROR : ANEURALNETWORKS_BAD_DATA;
  if (offset == 0 && length == 0) return ANEURALNETWORKS_BAD_DATA;
  if (offset > size_ || length > size_ - offset) return ANEURALNETWORKS_BAD_DATA;
  return ANEURALNETWORKS_NO_ERROR;
}

bool Memory::hasRole(const MemoryRole& role) const {
  return std::find(roles_.begin(), roles_.end(), role) != roles_.end();
}

bool Memory::initialized() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return initialized_;
}

void Memory::setInitialized(bool initialized) const {
  std::lock_guard<std::mutex> lock(mutex_);
  initialized_ = initialized;
}

}  // namespace nnfab::capi
