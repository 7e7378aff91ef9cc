// ONNX tensors as nnfab values: TensorProto -> Constant (constants, test
// data), element types, INT64 narrowing and rank-0 promotion (docs/onnx.md).
#include <fmt/format.h>

#include <cstring>
#include <limits>

#include "onnx/converter.h"
#include "onnx/onnx_import.h"

namespace nnfab::onnx_import {
namespace {

// Largest constant or test tensor accepted, in elements: far above any model
// the importer can express, far below what would exhaust memory.
constexpr uint64_t kMaxElements = uint64_t{1} << 28;

template <typename T>
void put(std::vector<uint8_t>* bytes, size_t i, T v) {
  std::memcpy(bytes->data() + i * sizeof(T), &v, sizeof(T));
}

}  // namespace

size_t Constant::count() const { return bytes.size() / sizeOfElement(type); }

std::vector<int32_t> Constant::int32s() const {
  std::vector<int32_t> v(bytes.size() / 4);
  if (!v.empty()) std::memcpy(v.data(), bytes.data(), v.size() * 4);
  return v;
}

std::vector<float> Constant::floats() const {
  std::vector<float> v(bytes.size() / 4);
  if (!v.empty()) std::memcpy(v.data(), bytes.data(), v.size() * 4);
  return v;
}

Dimensions toNnfabDims(const OnnxDims& dims) {
  if (!dims) return {};
  if (dims->empty()) return {1};
  Dimensions out;
  for (int64_t d : *dims) out.push_back(d < 0 || d > UINT32_MAX ? 0 : static_cast<uint32_t>(d));
  return out;
}

std::optional<int64_t> elementsOf(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) {
    if (d < 0 || (d > 0 && n > (int64_t{1} << 40) / d)) return std::nullopt;
    n *= d;
  }
  return n;
}

bool fullyKnown(const OnnxDims& dims) {
  if (!dims) return false;
  for (int64_t d : *dims) {
    if (d < 0) return false;
  }
  return true;
}

std::string dimsText(const OnnxDims& dims) {
  if (!dims) return "[unknown rank]";
  std::string s = "[";
  for (size_t i = 0; i < dims->size(); ++i) {
    if (i) s += ",";
    s += (*dims)[i] < 0 ? std::string("?") : std::to_string((*dims)[i]);
  }
  return s + "]";
}

std::optional<int32_t> narrowInt64(int64_t v) {
  if (v == std::numeric_limits<int64_t>::max()) return std::numeric_limits<int32_t>::max();
  if (v == std::numeric_limits<int64_t>::min()) return std::numeric_limits<int32_t>::min();
  if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max()) return std::nullopt;
  return static_cast<int32_t>(v);
}

std::optional<OperandType> operandTypeOf(int32_t elem) {
  switch (elem) {
    case onnx::TensorProto::FLOAT: return OperandType::TENSOR_FLOAT32;
    case onnx::TensorProto::INT32:
    case onnx::TensorProto::INT64: return OperandType::TENSOR_INT32;
    case onnx::TensorProto::BOOL: return OperandType::TENSOR_BOOL8;
    default: return std::nullopt;
  }
}

std::string onnxTypeName(int32_t elem) {
  if (onnx::TensorProto_DataType_IsValid(elem)) {
    return onnx::TensorProto_DataType_Name(static_cast<onnx::TensorProto_DataType>(elem));
  }
  return "data type " + std::to_string(elem);
}

Result<Constant> constantFromProto(const onnx::TensorProto& t) {
  const std::string what = t.name().empty() ? std::string("tensor") : "tensor '" + t.name() + "'";
  auto type = operandTypeOf(t.data_type());
  if (!type) {
    return invalidArgument(fmt::format("{} has element type {}; nnfab imports FLOAT, INT32, INT64 (narrowed) "
                                       "and BOOL only",
                                       what, onnxTypeName(t.data_type())));
  }
  if (t.data_location() == onnx::TensorProto::EXTERNAL) {
    return invalidArgument(what + " keeps its data in an external file, which nnfab does not read");
  }
  if (t.has_segment()) return invalidArgument(what + " is segmented, which nnfab does not read");
  Constant c;
  c.type = *type;
  uint64_t count = 1;
  for (int64_t d : t.dims()) {
    if (d < 0) return invalidArgument(fmt::format("{} has a negative dimension {}", what, d));
    c.dims.push_back(d);
    count *= static_cast<uint64_t>(d);
    if (count > kMaxElements) return invalidArgument(what + " is too large (over 2^28 elements)");
  }
  const int32_t elem = t.data_type();
  const bool raw = t.has_raw_data();
  size_t onnxSize = elem == onnx::TensorProto::INT64 ? 8 : elem == onnx::TensorProto::BOOL ? 1 : 4;
  size_t given = 0;
  if (raw) {
    given = t.raw_data().size() / onnxSize;
    if (t.raw_data().size() % onnxSize != 0) given = SIZE_MAX;
  } else if (elem == onnx::TensorProto::FLOAT) {
    given = static_cast<size_t>(t.float_data_size());
  } else if (elem == onnx::TensorProto::INT64) {
    given = static_cast<size_t>(t.int64_data_size());
  } else {
    given = static_cast<size_t>(t.int32_data_size());  // INT32 and BOOL
  }
  if (given != count) {
    return invalidArgument(fmt::format("{} of dimensions {} needs {} values, has {}", what, dimsText(c.dims),
                                       count, given == SIZE_MAX ? std::string("a partial one")
                                                                : std::to_string(given)));
  }
  c.bytes.resize(count * sizeOfElement(c.type));
  const char* rawData = t.raw_data().data();  // little-endian, as on every host nnfab runs on
  for (size_t i = 0; i < count; ++i) {
    switch (elem) {
      case onnx::TensorProto::FLOAT: {
        float v;
        if (raw) std::memcpy(&v, rawData + 4 * i, 4); else v = t.float_data(static_cast<int>(i));
        put(&c.bytes, i, v);
        break;
      }
      case onnx::TensorProto::INT32: {
        int32_t v;
        if (raw) std::memcpy(&v, rawData + 4 * i, 4); else v = t.int32_data(static_cast<int>(i));
        put(&c.bytes, i, v);
        break;
      }
      case onnx::TensorProto::INT64: {
        int64_t v;
        if (raw) std::memcpy(&v, rawData + 8 * i, 8); else v = t.int64_data(static_cast<int>(i));
        auto n = narrowInt64(v);
        if (!n) {
          return invalidArgument(fmt::format("{}: INT64 value {} at index {} does not fit in INT32 (nnfab "
                                             "narrows INT64 to TENSOR_INT32)",
                                             what, v, i));
        }
        put(&c.bytes, i, *n);
        break;
      }
      default: {  // BOOL
        const int32_t v = raw ? static_cast<uint8_t>(rawData[i]) : t.int32_data(static_cast<int>(i));
        put(&c.bytes, i, static_cast<uint8_t>(v != 0));
        break;
      }
    }
  }
  return c;
}

Result<TensorValue> readTensor(std::string_view bytes) {
  onnx::TensorProto t;
  if (bytes.size() > static_cast<size_t>(std::numeric_limits<int>::max()) ||
      !t.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return invalidArgument("not a serialized ONNX TensorProto (truncated or corrupt)");
  }
  auto c = constantFromProto(t);
  if (!c) return std::move(c).takeStatus();
  TensorValue v;
  v.type = c->type;
  v.dimensions = toNnfabDims(c->dims);
  v.data = std::move(c->bytes);
  return v;
}

}  // namespace nnfab::onnx_import
