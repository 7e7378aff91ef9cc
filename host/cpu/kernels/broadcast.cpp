#include "cpu/kernels/broadcast.h"

#include <algorithm>

#include "cpu/kernels/kernel_util.h"

namespace nnfab::cpu {
namespace {

// Size of dimension i (0 = outermost) of `dims` padded with leading 1s to `rank`.
uint32_t paddedDim(std::span<const uint32_t> dims, size_t rank, size_t i) {
  const size_t pad = rank - dims.size();
  return i < pad ? 1 : dims[i - pad];
}

size_t product(std::span<const uint32_t> dims) {
  size_t n = 1;
  for (uint32_t d : dims) n *= d;
  return n;
}

}  // namespace

Status broadcastShape(std::span<const uint32_t> a, std::span<const uint32_t> b, Dimensions* out) {
  const size_t rank = std::max(a.size(), b.size());
  out->assign(rank, 0);
  for (size_t i = 0; i < rank; ++i) {
    const uint32_t da = paddedDim(a, rank, i);
    const uint32_t db = paddedDim(b, rank, i);
    if (da == db || db == 1) {
      (*out)[i] = da;
    } else if (da == 1) {
      (*out)[i] = db;
    } else {
      return generalFailure("cannot broadcast shapes " + dimsToString(a) + " and " +
                            dimsToString(b));
    }
  }
  return {};
}

BroadcastPlan makeBroadcastPlan(std::span<const uint32_t> a, std::span<const uint32_t> b,
                                std::span<const uint32_t> out, bool forceGeneral) {
  BroadcastPlan plan;
  plan.count = product(out);
  if (plan.count == 0) {
    plan.kind = BroadcastKind::Empty;
    return plan;
  }
  const size_t rank = out.size();

  if (forceGeneral) {
    // Every output dimension as it is, strides 0 where an input has size 1.
    plan.kind = BroadcastKind::General;
    plan.inner = InnerKind::Strided;
    plan.dims.assign(out.begin(), out.end());
    plan.strideA.assign(rank, 0);
    plan.strideB.assign(rank, 0);
    size_t accA = 1, accB = 1;
    for (size_t i = rank; i-- > 0;) {
      const uint32_t da = paddedDim(a, rank, i), db = paddedDim(b, rank, i);
      plan.strideA[i] = da == 1 ? 0 : accA;
      plan.strideB[i] = db == 1 ? 0 : accB;
      accA *= da;
      accB *= db;
    }
    if (rank == 0) {  // a scalar-shaped output: one loop of one element
      plan.dims = {1};
      plan.strideA = {0};
      plan.strideB = {0};
    }
    return plan;
  }

  const size_t countA = product(a), countB = product(b);
  if (plan.count == 1) {
    plan.kind = BroadcastKind::Single;
    return plan;
  }
  // Equal element counts imply equal sizes wherever the output size is not 1,
  // i.e. the same row-major layout as the output.
  if (countA == plan.count && countB == plan.count) {
    plan.kind = BroadcastKind::Flat;
    return plan;
  }
  if (countA == 1 && countB == plan.count) {
    plan.kind = BroadcastKind::ScalarA;
    return plan;
  }
  if (countB == 1 && countA == plan.count) {
    plan.kind = BroadcastKind::ScalarB;
    return plan;
  }

  // Drop size-1 output dimensions and merge runs of dimensions where each
  // input is either fully present or fully broadcast, outermost first.
  struct Run {
    size_t size;
    bool aFull, bFull;
  };
  std::vector<Run> runs;
  for (size_t i = 0; i < rank; ++i) {
    if (out[i] == 1) continue;
    const bool aFull = paddedDim(a, rank, i) == out[i];
    const bool bFull = paddedDim(b, rank, i) == out[i];
    if (!runs.empty() && runs.back().aFull == aFull && runs.back().bFull == bFull) {
      runs.back().size *= out[i];
    } else {
      runs.push_back({out[i], aFull, bFull});
    }
  }
  plan.kind = BroadcastKind::General;
  plan.dims.resize(runs.size());
  plan.strideA.resize(runs.size());
  plan.strideB.resize(runs.size());
  size_t accA = 1, accB = 1;
  for (size_t i = runs.size(); i-- > 0;) {
    plan.dims[i] = runs[i].size;
    plan.strideA[i] = runs[i].aFull ? accA : 0;
    plan.strideB[i] = runs[i].bFull ? accB : 0;
    if (runs[i].aFull) accA *= runs[i].size;
    if (runs[i].bFull) accB *= runs[i].size;
  }
  const Run& last = runs.back();
  plan.inner = last.aFull && last.bFull ? InnerKind::Contiguous
               : last.bFull            ? InnerKind::ScalarA
                                       : InnerKind::ScalarB;
  return plan;
}

Status prepareBroadcastOutput(const TensorArg& a, const TensorArg& b, OperandType outType,
                              OutputShape* out, BroadcastPlan* plan) {
  Dimensions dims;
  if (Status s = broadcastShape(a.dims, b.dims, &dims); !s) return s;
  auto count = checkedElementCount(dims, sizeOfElement(outType));
  if (!count) return std::move(count).takeStatus();
  *plan = makeBroadcastPlan(a.dims, b.dims, dims);
  setOutput(out, outType, dims);
  return {};
}

}  // namespace nnfab::cpu
