// Shape rules the lowering shares with NNAPI's reference (docs/nnapi-semantics.md §2.1): the
// broadcast shape, the declared-shape merge, the size limits, and the
// descriptor of a tensor instruction (dimensions and element strides,
// collapsed to the core's rank 4).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/model.h"

namespace nnfab::compiler {

std::string dimsString(const Dimensions& dims);

// Trailing-aligned NNAPI broadcast; nullopt when the shapes are incompatible.
std::optional<Dimensions> broadcastShape(const Dimensions& a, const Dimensions& b);

// A computed shape against a declared one: unknown rank (empty) matches
// anything, otherwise the rank and every known (non-zero) size must agree.
bool matchesDeclared(const Dimensions& actual, const Dimensions& declared);

// Elements of a fully known shape, nullopt when the count or its bytes at
// elementBytes exceed NNAPI's uint32 size limit.
std::optional<uint64_t> checkedCount(const Dimensions& dims, uint32_t elementBytes);

bool hasZeroDimension(const Dimensions& dims);

// The 16 words of a tensor descriptor (docs/isa.md): output dimensions and
// one stride vector per source, in elements.
using Descriptor = std::array<uint32_t, 16>;

// Builds the descriptor of out = f(sources...) where every source is
// broadcast (trailing-aligned) to `out`; a source with one element gets
// stride 0 everywhere. Dimensions of size 1 are dropped and neighbours that
// every source walks alike are merged; nullopt when more than 4 remain.
std::optional<Descriptor> makeDescriptor(const Dimensions& out, const std::vector<const Dimensions*>& sources);

}  // namespace nnfab::compiler
