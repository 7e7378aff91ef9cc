#include "compiler/shapes.h"

#include <algorithm>

#include "nnfab_isa.h"

namespace nnfab::compiler {

std::string dimsString(const Dimensions& dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i != 0) s += ",";
    s += std::to_string(dims[i]);
  }
  return s + "]";
}

std::optional<Dimensions> broadcastShape(const Dimensions& a, const Dimensions& b) {
  const size_t rank = std::max(a.size(), b.size());
  Dimensions out(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    const size_t fromEnd = rank - 1 - i;
    const uint32_t da = fromEnd < a.size() ? a[a.size() - 1 - fromEnd] : 1;
    const uint32_t db = fromEnd < b.size() ? b[b.size() - 1 - fromEnd] : 1;
    if (da == db || db == 1) {
      out[i] = da;
    } else if (da == 1) {
      out[i] = db;
    } else {
      return std::nullopt;
    }
  }
  return out;
}

bool matchesDeclared(const Dimensions& actual, const Dimensions& declared) {
  if (declared.empty()) return true;
  if (declared.size() != actual.size()) return false;
  for (size_t i = 0; i < declared.size(); ++i) {
    if (declared[i] != 0 && declared[i] != actual[i]) return false;
  }
  return true;
}

std::optional<uint64_t> checkedCount(const Dimensions& dims, uint32_t elementBytes) {
  // Like the CPU's checkedElementCount: an overflow before a later 0 still
  // counts as too large, so both sides fail the same shapes.
  uint64_t count = 1;
  for (uint32_t d : dims) {
    count *= d;
    if (count > UINT32_MAX) return std::nullopt;
  }
  if (count * elementBytes > UINT32_MAX) return std::nullopt;
  return count;
}

bool hasZeroDimension(const Dimensions& dims) {
  return std::find(dims.begin(), dims.end(), 0u) != dims.end();
}

std::optional<Descriptor> makeDescriptor(const Dimensions& out, const std::vector<const Dimensions*>& sources) {
  const size_t rank = out.size();
  const size_t n = sources.size();
  // Element strides of each source along the output's dimensions.
  std::vector<std::vector<uint64_t>> stride(n, std::vector<uint64_t>(rank, 0));
  for (size_t s = 0; s < n; ++s) {
    const Dimensions& d = *sources[s];
    uint64_t count = 1;
    for (uint32_t v : d) count *= v;
    if (count == 1) continue;  // a one-element source: stride 0 everywhere
    uint64_t acc = 1;
    for (size_t i = rank; i-- > 0;) {
      const size_t fromEnd = rank - 1 - i;
      const uint32_t size = fromEnd < d.size() ? d[d.size() - 1 - fromEnd] : 1;
      stride[s][i] = size == 1 ? 0 : acc;
      acc *= size;
    }
  }
  // Drop size-1 dimensions; merge a dimension into the next inner one when
  // every source steps through both as one run.
  std::vector<uint64_t> dims;
  std::vector<std::vector<uint64_t>> merged(n);
  for (size_t i = 0; i < rank; ++i) {
    if (out[i] == 1) continue;
    dims.push_back(out[i]);
    for (size_t s = 0; s < n; ++s) merged[s].push_back(stride[s][i]);
  }
  for (size_t i = dims.size(); i-- > 1;) {
    bool mergeable = true;
    for (size_t s = 0; s < n; ++s) {
      if (merged[s][i - 1] != merged[s][i] * dims[i]) mergeable = false;
    }
    if (!mergeable) continue;
    dims[i - 1] *= dims[i];
    dims.erase(dims.begin() + static_cast<std::ptrdiff_t>(i));
    for (size_t s = 0; s < n; ++s) {
      merged[s][i - 1] = merged[s][i];
      merged[s].erase(merged[s].begin() + static_cast<std::ptrdiff_t>(i));
    }
  }
  if (dims.size() > isa::kMAX_RANK) return std::nullopt;
  Descriptor desc{};
  const size_t pad = isa::kMAX_RANK - dims.size();
  for (size_t k = 0; k < isa::kMAX_RANK; ++k) desc[isa::kDescDIM + k] = 1;
  for (size_t k = 0; k < dims.size(); ++k) {
    if (dims[k] > UINT32_MAX) return std::nullopt;
    desc[isa::kDescDIM + pad + k] = static_cast<uint32_t>(dims[k]);
    for (size_t s = 0; s < n; ++s) {
      if (merged[s][k] > UINT32_MAX) return std::nullopt;
      desc[isa::kDescSTRIDE_A + 4 * s + pad + k] = static_cast<uint32_t>(merged[s][k]);
    }
  }
  return desc;
}

}  // namespace nnfab::compiler
