#include "model/types.h"

#include <array>
#include <cctype>
#include <string>

#include "model/model.h"

namespace nnfab {
namespace {

constexpr std::array<std::string_view, 16> kOperandTypeNames = {
    "FLOAT32", "INT32", "UINT32", "TENSOR_FLOAT32", "TENSOR_INT32", "TENSOR_QUANT8_ASYMM",
    "BOOL", "TENSOR_QUANT16_SYMM", "TENSOR_FLOAT16", "TENSOR_BOOL8", "FLOAT16",
    "TENSOR_QUANT8_SYMM_PER_CHANNEL", "TENSOR_QUANT16_ASYMM", "TENSOR_QUANT8_SYMM",
    "TENSOR_QUANT8_ASYMM_SIGNED", "SUBGRAPH"};

constexpr std::array<std::string_view, 7> kLifetimeNames = {
    "TEMPORARY_VARIABLE", "SUBGRAPH_INPUT", "SUBGRAPH_OUTPUT", "CONSTANT_COPY",
    "CONSTANT_REFERENCE", "NO_VALUE", "SUBGRAPH"};

constexpr std::array<std::string_view, kNumberOfOperationTypes> kOperationNames = {
    "ADD", "AVERAGE_POOL_2D", "CONCATENATION", "CONV_2D", "DEPTHWISE_CONV_2D",
    "DEPTH_TO_SPACE", "DEQUANTIZE", "EMBEDDING_LOOKUP", "FLOOR", "FULLY_CONNECTED",
    "HASHTABLE_LOOKUP", "L2_NORMALIZATION", "L2_POOL_2D", "LOCAL_RESPONSE_NORMALIZATION",
    "LOGISTIC", "LSH_PROJECTION", "LSTM", "MAX_POOL_2D", "MUL", "RELU", "RELU1", "RELU6",
    "RESHAPE", "RESIZE_BILINEAR", "RNN", "SOFTMAX", "SPACE_TO_DEPTH", "SVDF", "TANH",
    "BATCH_TO_SPACE_ND", "DIV", "MEAN", "PAD", "SPACE_TO_BATCH_ND", "SQUEEZE",
    "STRIDED_SLICE", "SUB", "TRANSPOSE", "ABS", "ARGMAX", "ARGMIN",
    "AXIS_ALIGNED_BBOX_TRANSFORM", "BIDIRECTIONAL_SEQUENCE_LSTM",
    "BIDIRECTIONAL_SEQUENCE_RNN", "BOX_WITH_NMS_LIMIT", "CAST", "CHANNEL_SHUFFLE",
    "DETECTION_POSTPROCESSING", "EQUAL", "EXP", "EXPAND_DIMS", "GATHER",
    "GENERATE_PROPOSALS", "GREATER", "GREATER_EQUAL", "GROUPED_CONV_2D",
    "HEATMAP_MAX_KEYPOINT", "INSTANCE_NORMALIZATION", "LESS", "LESS_EQUAL", "LOG",
    "LOGICAL_AND", "LOGICAL_NOT", "LOGICAL_OR", "LOG_SOFTMAX", "MAXIMUM", "MINIMUM", "NEG",
    "NOT_EQUAL", "PAD_V2", "POW", "PRELU", "QUANTIZE", "QUANTIZED_16BIT_LSTM",
    "RANDOM_MULTINOMIAL", "REDUCE_ALL", "REDUCE_ANY", "REDUCE_MAX", "REDUCE_MIN",
    "REDUCE_PROD", "REDUCE_SUM", "ROI_ALIGN", "ROI_POOLING", "RSQRT", "SELECT", "SIN",
    "SLICE", "SPLIT", "SQRT", "TILE", "TOPK_V2", "TRANSPOSE_CONV_2D",
    "UNIDIRECTIONAL_SEQUENCE_LSTM", "UNIDIRECTIONAL_SEQUENCE_RNN",
    "RESIZE_NEAREST_NEIGHBOR", "QUANTIZED_LSTM", "IF", "WHILE", "ELU", "HARD_SWISH",
    "FILL", "RANK"};

constexpr std::array<std::string_view, 9> kErrorStatusNames = {
    "NO_ERROR", "DEVICE_UNAVAILABLE", "GENERAL_FAILURE", "OUTPUT_INSUFFICIENT_SIZE",
    "INVALID_ARGUMENT", "MISSED_DEADLINE_TRANSIENT", "MISSED_DEADLINE_PERSISTENT",
    "RESOURCE_EXHAUSTED_TRANSIENT", "RESOURCE_EXHAUSTED_PERSISTENT"};

constexpr std::array<std::string_view, 3> kPriorityNames = {"LOW", "MEDIUM", "HIGH"};

template <typename Enum, size_t N>
std::string_view nameOf(const std::array<std::string_view, N>& names, Enum e) {
  const auto i = static_cast<size_t>(static_cast<int32_t>(e));
  return i < N ? names[i] : std::string_view("<invalid>");
}

template <typename Enum, size_t N>
std::optional<Enum> fromName(const std::array<std::string_view, N>& names, std::string_view s) {
  for (size_t i = 0; i < N; ++i) {
    if (names[i] == s) return static_cast<Enum>(static_cast<int32_t>(i));
  }
  return std::nullopt;
}

}  // namespace

std::string_view toString(OperandType t) { return nameOf(kOperandTypeNames, t); }
std::string_view toString(OperandLifeTime l) { return nameOf(kLifetimeNames, l); }
std::string_view toString(OperationType t) { return nameOf(kOperationNames, t); }
std::string_view toString(ErrorStatus s) { return nameOf(kErrorStatusNames, s); }
std::string_view toString(Priority p) { return nameOf(kPriorityNames, p); }

std::optional<OperandType> operandTypeFromString(std::string_view s) {
  return fromName<OperandType>(kOperandTypeNames, s);
}
std::optional<OperandLifeTime> lifetimeFromString(std::string_view s) {
  return fromName<OperandLifeTime>(kLifetimeNames, s);
}
std::optional<OperationType> operationTypeFromString(std::string_view s) {
  return fromName<OperationType>(kOperationNames, s);
}
std::optional<ErrorStatus> errorStatusFromString(std::string_view s) {
  if (s == "NONE") return ErrorStatus::NONE;
  return fromName<ErrorStatus>(kErrorStatusNames, s);
}
std::optional<Priority> priorityFromString(std::string_view s) {
  std::string upper(s);
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return fromName<Priority>(kPriorityNames, upper);
}

size_t sizeOfElement(OperandType t) {
  switch (t) {
    case OperandType::FLOAT32:
    case OperandType::INT32:
    case OperandType::UINT32:
    case OperandType::TENSOR_FLOAT32:
    case OperandType::TENSOR_INT32:
      return 4;
    case OperandType::TENSOR_QUANT16_SYMM:
    case OperandType::TENSOR_QUANT16_ASYMM:
    case OperandType::TENSOR_FLOAT16:
    case OperandType::FLOAT16:
      return 2;
    case OperandType::TENSOR_QUANT8_ASYMM:
    case OperandType::BOOL:
    case OperandType::TENSOR_BOOL8:
    case OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL:
    case OperandType::TENSOR_QUANT8_SYMM:
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
      return 1;
    case OperandType::SUBGRAPH:
      return 0;
  }
  return 0;
}

bool isScalarType(OperandType t) {
  switch (t) {
    case OperandType::FLOAT32:
    case OperandType::INT32:
    case OperandType::UINT32:
    case OperandType::BOOL:
    case OperandType::FLOAT16:
    case OperandType::SUBGRAPH:
      return true;
    default:
      return false;
  }
}

bool isTensorType(OperandType t) { return !isScalarType(t); }

bool isFloatType(OperandType t) {
  return t == OperandType::FLOAT32 || t == OperandType::FLOAT16 ||
         t == OperandType::TENSOR_FLOAT32 || t == OperandType::TENSOR_FLOAT16;
}

bool isQuantizedType(OperandType t) {
  switch (t) {
    case OperandType::TENSOR_QUANT8_ASYMM:
    case OperandType::TENSOR_QUANT16_SYMM:
    case OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL:
    case OperandType::TENSOR_QUANT16_ASYMM:
    case OperandType::TENSOR_QUANT8_SYMM:
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
      return true;
    default:
      return false;
  }
}

bool isValidOperandType(int32_t raw) { return raw >= 0 && raw <= 15; }

std::optional<uint64_t> elementCount(const Dimensions& dims) {
  uint64_t count = 1;
  for (uint32_t d : dims) {
    if (d != 0 && count > UINT32_MAX / d) return std::nullopt;
    count *= d;
  }
  return count;
}

bool isFullySpecified(const Operand& operand) {
  if (isScalarType(operand.type)) return true;
  if (operand.dimensions.empty()) return false;
  for (uint32_t d : operand.dimensions) {
    if (d == 0) return false;
  }
  return true;
}

}  // namespace nnfab
