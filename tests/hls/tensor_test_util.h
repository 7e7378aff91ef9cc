// Tensor instructions under test: descriptors, a data-region layout with a
// poisoned background (so that any byte written outside the destination is
// caught), and the ISA's own definition of a TENSOR instruction as the
// straightforward reference.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <vector>

#include "fabric/fabric_test_util.h"
#include "isa/int32_semantics.h"
#include "model/model.h"

namespace nnfab::fabric::test {

constexpr uint8_t kPoison = 0xA5;

struct Descriptor {
  std::array<uint32_t, 4> dim{1, 1, 1, 1};
  std::array<std::array<uint32_t, 4>, 3> stride{};  // A, B, C

  std::vector<uint32_t> words() const {
    std::vector<uint32_t> w;
    for (uint32_t d : dim) w.push_back(d);
    for (const auto& s : stride)
      for (uint32_t v : s) w.push_back(v);
    return w;
  }
  uint64_t elements() const { return uint64_t{dim[0]} * dim[1] * dim[2] * dim[3]; }
  // Elements source s must hold: 1 + its highest index.
  uint64_t extent(int s) const {
    uint64_t last = 0;
    for (int k = 0; k < 4; ++k) last += uint64_t{dim[k] ? dim[k] - 1 : 0} * stride[s][k];
    return last + 1;
  }
};

// NNAPI broadcasting of `inputs` (trailing-aligned) to the output `out`:
// stride 0 where an input has extent 1 along an output dimension.
inline Descriptor broadcastDescriptor(const Dimensions& out, const std::vector<Dimensions>& inputs) {
  Descriptor d;
  const size_t pad = 4 - out.size();
  for (size_t k = 0; k < out.size(); ++k) d.dim[pad + k] = out[k];
  for (size_t s = 0; s < inputs.size(); ++s) {
    std::array<uint32_t, 4> in{1, 1, 1, 1};
    const size_t inPad = 4 - inputs[s].size();
    for (size_t k = 0; k < inputs[s].size(); ++k) in[inPad + k] = inputs[s][k];
    uint32_t contiguous = 1;
    for (int k = 3; k >= 0; --k) {
      d.stride[s][k] = in[k] == 1 ? 0 : contiguous;
      contiguous *= in[k];
    }
  }
  return d;
}

inline Dimensions broadcastShape(const Dimensions& a, const Dimensions& b) {
  const size_t rank = std::max(a.size(), b.size());
  Dimensions out(rank);
  for (size_t i = 0; i < rank; ++i) {
    const uint32_t x = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const uint32_t y = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    out[i] = std::max(x, y);
  }
  return out;
}

inline uint32_t sourceBytes(uint32_t fn, uint32_t type, int s) {
  return (fn == isa::kFnSEL && s == 0) ? 1 : isa::typeBytes(type);
}
inline uint32_t resultBytes(uint32_t fn, uint32_t type) {
  return isa::fnResultIsBool(fn) ? 1 : isa::typeBytes(type);
}

inline uint32_t readElement(const std::vector<uint8_t>& src, uint64_t index, uint32_t bytes) {
  if (bytes == 1) return src[index];
  uint32_t v;
  std::memcpy(&v, src.data() + index * 4, 4);
  return v;
}

// docs/isa.md: fn on values (INT32 signed, BOOL8 as unsigned bytes), with
// BOOL8 results 0 or 1.
inline uint32_t isaFunction(uint32_t fn, uint32_t a, uint32_t b, uint32_t c) {
  namespace m = int32_math;
  const auto sa = static_cast<int32_t>(a);
  const auto sb = static_cast<int32_t>(b);
  switch (fn) {
    case isa::kFnADD: return static_cast<uint32_t>(m::wrapAdd(sa, sb));
    case isa::kFnSUB: return static_cast<uint32_t>(m::wrapSub(sa, sb));
    case isa::kFnMUL: return static_cast<uint32_t>(m::wrapMul(sa, sb));
    case isa::kFnDIV: return static_cast<uint32_t>(m::floorDiv(sa, sb));
    case isa::kFnMAX: return static_cast<uint32_t>(std::max(sa, sb));
    case isa::kFnMIN: return static_cast<uint32_t>(std::min(sa, sb));
    case isa::kFnABS: return static_cast<uint32_t>(m::wrapAbs(sa));
    case isa::kFnNEG: return static_cast<uint32_t>(m::wrapNeg(sa));
    case isa::kFnEQ: return a == b;
    case isa::kFnNE: return a != b;
    case isa::kFnLT: return sa < sb;
    case isa::kFnLE: return sa <= sb;
    case isa::kFnGT: return sa > sb;
    case isa::kFnGE: return sa >= sb;
    case isa::kFnAND: return a != 0 && b != 0;
    case isa::kFnOR: return a != 0 || b != 0;
    case isa::kFnNOT: return a == 0;
    case isa::kFnSEL: return a != 0 ? b : c;
    case isa::kFnMOV: return a;
  }
  ADD_FAILURE() << "no reference for fn " << fn;
  return 0;
}

// For every output index (row-major), source s supplies element
// sum(i_k * stride_s[k]); the destination is contiguous.
inline std::vector<uint8_t> isaReference(uint32_t fn, uint32_t type, const Descriptor& d,
                                         const std::vector<std::vector<uint8_t>>& sources) {
  const uint32_t rb = resultBytes(fn, type);
  std::vector<uint8_t> out(d.elements() * rb);
  uint64_t e = 0;
  for (uint32_t i0 = 0; i0 < d.dim[0]; ++i0)
    for (uint32_t i1 = 0; i1 < d.dim[1]; ++i1)
      for (uint32_t i2 = 0; i2 < d.dim[2]; ++i2)
        for (uint32_t i3 = 0; i3 < d.dim[3]; ++i3, ++e) {
          uint32_t v[3] = {0, 0, 0};
          for (size_t s = 0; s < sources.size(); ++s) {
            const auto& st = d.stride[s];
            const uint64_t index = uint64_t{i0} * st[0] + uint64_t{i1} * st[1] + uint64_t{i2} * st[2] +
                                   uint64_t{i3} * st[3];
            v[s] = readElement(sources[s], index, sourceBytes(fn, type, static_cast<int>(s)));
          }
          const uint32_t r = isaFunction(fn, v[0], v[1], v[2]);
          if (rb == 1) {
            out[e] = static_cast<uint8_t>(r);
          } else {
            std::memcpy(out.data() + e * 4, &r, 4);
          }
        }
  return out;
}

struct TensorOutcome {
  Outcome run;
  std::vector<uint8_t> result;  // the destination region
  bool untouchedElsewhere = true;
};

inline uint64_t align64(uint64_t v) { return (v + 63) / 64 * 64; }

// Lays out descriptor (offset 0), sources and destination (at dstShift
// bytes past a 64-byte boundary) over a poisoned region, runs one TENSOR
// instruction and reads the destination back.
// rcField >= 0 replaces the RC field (FLOAT32's fused activation code).
inline TensorOutcome runTensor(uint32_t fn, uint32_t type, const Descriptor& d,
                               const std::vector<std::vector<uint8_t>>& sources, uint32_t dstShift = 0,
                               HlsBackendOptions options = smallDevice(), int rcField = -1) {
  uint64_t at = isa::kDESCRIPTOR_BYTES;
  uint32_t srcOffset[3] = {0, 0, 0};
  for (size_t s = 0; s < sources.size(); ++s) {
    srcOffset[s] = static_cast<uint32_t>(at);
    at = align64(at + sources[s].size() + 1);
  }
  const uint32_t dst = static_cast<uint32_t>(at + dstShift);
  const uint64_t dstBytes = d.elements() * isa::typeBytes(isa::fnResultType(fn, type));
  const uint64_t total = align64(dst + dstBytes + 64);
  std::vector<uint8_t> image(total, kPoison);
  put(image, 0, d.words());
  for (size_t s = 0; s < sources.size(); ++s) put(image, srcOffset[s], sources[s]);

  Asm a;
  a.emit(insn::li(1, static_cast<int32_t>(dst)));
  a.emit(insn::li(2, static_cast<int32_t>(srcOffset[0])));
  a.emit(insn::li(3, static_cast<int32_t>(srcOffset[1])));
  a.emit(insn::li(4, static_cast<int32_t>(srcOffset[2])));
  const uint32_t ops = isa::fnOperands(fn);
  a.emit(insn::tensor(fn, type, 1, 2, ops >= 2 ? 3 : 0,
                      rcField >= 0 ? static_cast<uint32_t>(rcField) : ops >= 3 ? 4 : 0, 0));
  a.emit(insn::halt());
  TensorOutcome out;
  out.run = run(a, image, total, {}, options);
  if (out.run.data.size() != total) return out;
  out.result.assign(out.run.data.begin() + dst, out.run.data.begin() + dst + dstBytes);
  for (uint64_t i = 0; i < total; ++i) {
    if ((i < dst || i >= dst + dstBytes) && out.run.data[i] != image[i]) {
      out.untouchedElsewhere = false;
      ADD_FAILURE() << "byte " << i << " outside the destination changed";
      break;
    }
  }
  return out;
}

// One TENSOR ADD.INT32 with registers r1 = dst, r2 = A, r3 = B and the
// descriptor at `desc`.
inline Asm tensorAdd(int32_t dst, int32_t a, int32_t b, uint32_t desc = 0) {
  Asm p;
  p.emit(insn::li(1, dst));
  p.emit(insn::li(2, a));
  p.emit(insn::li(3, b));
  p.emit(insn::tensor(isa::kFnADD, isa::kTypeINT32, 1, 2, 3, 0, desc));
  p.emit(insn::halt());
  return p;
}

}  // namespace nnfab::fabric::test
