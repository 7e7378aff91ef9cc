// NN HAL 1.3 enumerations with NNAPI's numeric codes, and their names as the
// JSON model format spells them. One table per enum (types.cpp) so that the
// reader, the writer and the messages can never disagree on a spelling.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace nnfab {

enum class OperandType : int32_t {
  FLOAT32 = 0,
  INT32 = 1,
  UINT32 = 2,
  TENSOR_FLOAT32 = 3,
  TENSOR_INT32 = 4,
  TENSOR_QUANT8_ASYMM = 5,
  BOOL = 6,
  TENSOR_QUANT16_SYMM = 7,
  TENSOR_FLOAT16 = 8,
  TENSOR_BOOL8 = 9,
  FLOAT16 = 10,
  TENSOR_QUANT8_SYMM_PER_CHANNEL = 11,
  TENSOR_QUANT16_ASYMM = 12,
  TENSOR_QUANT8_SYMM = 13,
  TENSOR_QUANT8_ASYMM_SIGNED = 14,
  SUBGRAPH = 15,
};

enum class OperandLifeTime : int32_t {
  TEMPORARY_VARIABLE = 0,
  SUBGRAPH_INPUT = 1,
  SUBGRAPH_OUTPUT = 2,
  CONSTANT_COPY = 3,
  CONSTANT_REFERENCE = 4,
  NO_VALUE = 5,
  SUBGRAPH = 6,
};

// Every HAL 1.3 operation (0..101). nnfab implements a subset
// (isImplemented in host/cpu); the rest still parse so that a model using
// them gets "not supported" instead of "unknown name".
enum class OperationType : int32_t {
  ADD = 0, AVERAGE_POOL_2D = 1, CONCATENATION = 2, CONV_2D = 3,
  DEPTHWISE_CONV_2D = 4, DEPTH_TO_SPACE = 5, DEQUANTIZE = 6,
  EMBEDDING_LOOKUP = 7, FLOOR = 8, FULLY_CONNECTED = 9,
  HASHTABLE_LOOKUP = 10, L2_NORMALIZATION = 11, L2_POOL_2D = 12,
  LOCAL_RESPONSE_NORMALIZATION = 13, LOGISTIC = 14, LSH_PROJECTION = 15,
  LSTM = 16, MAX_POOL_2D = 17, MUL = 18, RELU = 19, RELU1 = 20, RELU6 = 21,
  RESHAPE = 22, RESIZE_BILINEAR = 23, RNN = 24, SOFTMAX = 25,
  SPACE_TO_DEPTH = 26, SVDF = 27, TANH = 28, BATCH_TO_SPACE_ND = 29, DIV = 30,
  MEAN = 31, PAD = 32, SPACE_TO_BATCH_ND = 33, SQUEEZE = 34,
  STRIDED_SLICE = 35, SUB = 36, TRANSPOSE = 37, ABS = 38, ARGMAX = 39,
  ARGMIN = 40, AXIS_ALIGNED_BBOX_TRANSFORM = 41,
  BIDIRECTIONAL_SEQUENCE_LSTM = 42, BIDIRECTIONAL_SEQUENCE_RNN = 43,
  BOX_WITH_NMS_LIMIT = 44, CAST = 45, CHANNEL_SHUFFLE = 46,
  DETECTION_POSTPROCESSING = 47, EQUAL = 48, EXP = 49, EXPAND_DIMS = 50,
  GATHER = 51, GENERATE_PROPOSALS = 52, GREATER = 53, GREATER_EQUAL = 54,
  GROUPED_CONV_2D = 55, HEATMAP_MAX_KEYPOINT = 56,
  INSTANCE_NORMALIZATION = 57, LESS = 58, LESS_EQUAL = 59, LOG = 60,
  LOGICAL_AND = 61, LOGICAL_NOT = 62, LOGICAL_OR = 63, LOG_SOFTMAX = 64,
  MAXIMUM = 65, MINIMUM = 66, NEG = 67, NOT_EQUAL = 68, PAD_V2 = 69, POW = 70,
  PRELU = 71, QUANTIZE = 72, QUANTIZED_16BIT_LSTM = 73,
  RANDOM_MULTINOMIAL = 74, REDUCE_ALL = 75, REDUCE_ANY = 76, REDUCE_MAX = 77,
  REDUCE_MIN = 78, REDUCE_PROD = 79, REDUCE_SUM = 80, ROI_ALIGN = 81,
  ROI_POOLING = 82, RSQRT = 83, SELECT = 84, SIN = 85, SLICE = 86, SPLIT = 87,
  SQRT = 88, TILE = 89, TOPK_V2 = 90, TRANSPOSE_CONV_2D = 91,
  UNIDIRECTIONAL_SEQUENCE_LSTM = 92, UNIDIRECTIONAL_SEQUENCE_RNN = 93,
  RESIZE_NEAREST_NEIGHBOR = 94, QUANTIZED_LSTM = 95, IF = 96, WHILE = 97,
  ELU = 98, HARD_SWISH = 99, FILL = 100, RANK = 101,
};
inline constexpr int32_t kNumberOfOperationTypes = 102;

// HAL 1.3 ErrorStatus. NONE is printed as "NO_ERROR" in result files.
enum class ErrorStatus : int32_t {
  NONE = 0,
  DEVICE_UNAVAILABLE = 1,
  GENERAL_FAILURE = 2,
  OUTPUT_INSUFFICIENT_SIZE = 3,
  INVALID_ARGUMENT = 4,
  MISSED_DEADLINE_TRANSIENT = 5,
  MISSED_DEADLINE_PERSISTENT = 6,
  RESOURCE_EXHAUSTED_TRANSIENT = 7,
  RESOURCE_EXHAUSTED_PERSISTENT = 8,
};

// FusedActivationFunc.
enum class FusedActivation : int32_t { NONE = 0, RELU = 1, RELU1 = 2, RELU6 = 3 };

// HAL Priority (the prepared model's property).
enum class Priority : int32_t { LOW = 0, MEDIUM = 1, HIGH = 2 };

std::string_view toString(OperandType t);
std::string_view toString(OperandLifeTime l);
std::string_view toString(OperationType t);
// NONE is spelled "NO_ERROR", as in result files.
std::string_view toString(ErrorStatus s);
std::string_view toString(Priority p);

std::optional<OperandType> operandTypeFromString(std::string_view s);
std::optional<OperandLifeTime> lifetimeFromString(std::string_view s);
std::optional<OperationType> operationTypeFromString(std::string_view s);
// Accepts "NO_ERROR" (and "NONE") for success.
std::optional<ErrorStatus> errorStatusFromString(std::string_view s);
// Accepts "low", "medium", "high" (any case).
std::optional<Priority> priorityFromString(std::string_view s);

// Bytes per element (0 for SUBGRAPH).
size_t sizeOfElement(OperandType t);
bool isScalarType(OperandType t);  // FLOAT32, INT32, UINT32, BOOL, FLOAT16, SUBGRAPH
bool isTensorType(OperandType t);
bool isFloatType(OperandType t);   // FLOAT16/32 scalars and tensors
bool isQuantizedType(OperandType t);
bool isValidOperandType(int32_t raw);

}  // namespace nnfab
