// SLICE (docs/nnapi-semantics.md §2.12) on TENSOR_FLOAT32 / TENSOR_INT32: copies the box
// [begin, begin + size) of the input. begin and size are 1-D TENSOR_INT32 of the input's
// rank, read at prepare time (they are parameter inputs: the executor re-prepares when
// their values change, e.g. every WHILE iteration). A size of -1 means "to the end".
// Like NNAPI's reference, 0 <= begin <= dim and begin + size <= dim; a size of 0 gives
// a zero-sized output, and a zero-sized input is accepted (§2.1).
#include <cstring>
#include <string>
#include <vector>

#include "cpu/kernels/kernel_util.h"

namespace nnfab::cpu {
namespace {

// Copies rows of the innermost sliced box: walks the outer dimensions with an
// index vector computed once (no allocation in run()).
class SliceKernel final : public PreparedKernel {
 public:
  SliceKernel(std::vector<size_t> inStrides, std::vector<size_t> begin, std::vector<size_t> size,
              size_t elementSize)
      : inStrides_(std::move(inStrides)), begin_(std::move(begin)), size_(std::move(size)),
        elementSize_(elementSize) {}

  void run(const uint8_t* const* in, uint8_t* const* out) const override {
    uint8_t* o = out[0];
    copy(0, in[0], &o);
  }

 private:
  void copy(size_t d, const uint8_t* base, uint8_t** o) const {
    const uint8_t* start = base + begin_[d] * inStrides_[d] * elementSize_;
    if (d + 1 == size_.size()) {
      const size_t bytes = size_[d] * elementSize_;
      std::memcpy(*o, start, bytes);
      *o += bytes;
      return;
    }
    for (size_t i = 0; i < size_[d]; ++i) copy(d + 1, start + i * inStrides_[d] * elementSize_, o);
  }

  std::vector<size_t> inStrides_, begin_, size_;
  size_t elementSize_;
};

}  // namespace

Status prepareSlice(std::span<const TensorArg> inputs, std::span<OutputShape> outputs,
                    std::unique_ptr<PreparedKernel>* kernel) {
  constexpr OperationType kOp = OperationType::SLICE;
  if (Status s = checkInputs(kOp, inputs, 3, outputs, /*allowZeroSized=*/true); !s) return s;
  const TensorArg& in = inputs[0];
  if (in.type != OperandType::TENSOR_FLOAT32 && in.type != OperandType::TENSOR_INT32) {
    return generalFailure("SLICE on " + std::string(toString(in.type)) + " is not supported");
  }
  const size_t rank = in.dims.size();
  if (rank == 0 || rank > 4) {
    return generalFailure("SLICE supports inputs of rank 1 to 4, got " + dimsToString(in.dims));
  }
  for (size_t k = 1; k <= 2; ++k) {
    const TensorArg& v = inputs[k];
    if (v.type != OperandType::TENSOR_INT32 || v.dims.size() != 1 || v.dims[0] != rank) {
      return generalFailure(std::string("SLICE ") + (k == 1 ? "begin" : "size") +
                            " must be a 1-D TENSOR_INT32 of the input's rank " + std::to_string(rank) +
                            ", got " + std::string(toString(v.type)) + " " + dimsToString(v.dims));
    }
  }
  std::vector<size_t> begin(rank), size(rank), strides(rank);
  Dimensions outDims(rank);
  size_t stride = 1;
  for (size_t i = rank; i-- > 0;) {
    strides[i] = stride;
    stride *= in.dims[i];
  }
  for (size_t i = 0; i < rank; ++i) {
    const int64_t dim = in.dims[i];
    const int64_t b = load<int32_t>(inputs[1].data, i);
    int64_t s = load<int32_t>(inputs[2].data, i);
    if (b < 0 || b > dim) {
      return generalFailure("SLICE begin[" + std::to_string(i) + "] = " + std::to_string(b) +
                            " is outside [0, " + std::to_string(dim) + "] for input " + dimsToString(in.dims));
    }
    if (s == -1) s = dim - b;
    if (s < 0 || b + s > dim) {
      return generalFailure("SLICE size[" + std::to_string(i) + "] = " + std::to_string(s) + " with begin " +
                            std::to_string(b) + " does not fit dimension " + std::to_string(dim) +
                            " of input " + dimsToString(in.dims));
    }
    begin[i] = static_cast<size_t>(b);
    size[i] = static_cast<size_t>(s);
    outDims[i] = static_cast<uint32_t>(s);
  }
  auto count = checkedElementCount(outDims, sizeOfElement(in.type));
  if (!count) return std::move(count).takeStatus();
  setOutput(&outputs[0], in.type, outDims);
  if (*count == 0) {
    *kernel = std::make_unique<NoopKernel>();
  } else {
    *kernel = std::make_unique<SliceKernel>(std::move(strides), std::move(begin), std::move(size),
                                            sizeOfElement(in.type));
  }
  return {};
}

}  // namespace nnfab::cpu
