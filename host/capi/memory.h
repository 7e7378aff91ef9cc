// ANeuralNetworksMemory and ANeuralNetworksMemoryDesc. Two kinds of memory:
// a mapped file descriptor (shared memory from memfd_create, or a file), and
// "device memory" created from a descriptor of its roles. nnfab's devices
// take their inputs from host buffers, so device memory is a host buffer
// that follows NNAPI's rules: offset and length 0 in every use, only in its
// roles, uninitialized until an execution or a copy writes it.
#pragma once

#include <android/NeuralNetworks.h>

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <vector>

#include "model/model.h"

namespace nnfab::capi {

class Compilation;

// One (compilation, input or output, index) a device memory may serve.
struct MemoryRole {
  const Compilation* compilation = nullptr;
  bool input = true;
  uint32_t index = 0;
  bool operator==(const MemoryRole&) const = default;
};

class MemoryDesc {
 public:
  int addRole(const Compilation* compilation, bool input, uint32_t index, float frequency);
  int setDimensions(uint32_t rank, const uint32_t* dimensions);
  int finish();
  bool finished() const { return finished_; }

  const std::vector<MemoryRole>& roles() const { return roles_; }
  const Operand& operand() const { return operand_; }  // type and quantization of the roles
  const Dimensions& dimensions() const { return dims_; }

 private:
  bool finished_ = false;
  std::vector<MemoryRole> roles_;
  Operand operand_;
  bool hasScalarRole_ = false;
  Dimensions dims_;  // merged over roles and setDimensions; empty = rank unknown
};

class Memory {
 public:
  ~Memory();
  Memory(const Memory&) = delete;
  Memory& operator=(const Memory&) = delete;

  static int fromFd(size_t size, int protect, int fd, size_t offset, Memory** out);
  static int fromDesc(const MemoryDesc& desc, Memory** out);
  // ANeuralNetworksMemory_copy.
  static int copy(const Memory& src, Memory& dst);

  bool isDevice() const { return device_; }
  uint8_t* data() const { return data_; }
  size_t size() const { return size_; }

  // Region of an fd memory for a constant or an execution argument:
  // BAD_DATA when it leaves the memory or is empty (offset = length = 0).
  int checkRegion(size_t offset, size_t length) const;
  // What the mapping allows (device memory: both): an input or constant
  // needs to be read, an output written (else the copy would fault).
  bool readable() const;
  bool writable() const;

  // Device memory only.
  bool hasRole(const MemoryRole& role) const;
  const Operand& operand() const { return operand_; }
  const Dimensions& dimensions() const { return dims_; }
  bool initialized() const;
  void setInitialized(bool initialized) const;

 private:
  Memory() = default;
  bool device_ = false;
  uint8_t* data_ = nullptr;
  size_t size_ = 0;
  // fd memory: the mapping (from a page-aligned offset) and the duplicated fd.
  void* mapBase_ = nullptr;
  size_t mapLength_ = 0;
  int fd_ = -1;
  int protect_ = 0;
  // device memory
  std::vector<uint8_t> buffer_;
  std::vector<MemoryRole> roles_;
  Operand operand_;
  Dimensions dims_;
  mutable std::mutex mutex_;
  mutable bool initialized_ = false;
};

}  // namespace nnfab::capi
