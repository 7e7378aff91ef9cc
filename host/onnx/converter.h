// The ONNX -> nnfab converter's internals, shared by the files that map one
// family of ONNX operators each (map_*.cpp). Not installed, not used outside
// host/onnx/.
//
// A Scope is one nnfab subgraph being built from one ONNX graph: it maps ONNX
// value names to nnfab operands (or to constants, which are materialised as
// CONSTANT_COPY operands in whichever subgraph reads them, so constants never
// cost an IF/WHILE input). A name defined in an enclosing graph reaches a
// nested subgraph as an explicit input ("capture"), wired before the nested
// graph's nodes are translated.
#pragma once

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "model/model.h"
#include "model/status.h"

namespace nnfab::onnx_import {

// ONNX dimensions: -1 = unknown size; nullopt = unknown rank. Rank 0 is an
// ONNX scalar (nnfab dimensions [1]).
using OnnxDims = std::optional<std::vector<int64_t>>;

struct Constant {
  OperandType type = OperandType::TENSOR_FLOAT32;  // TENSOR_FLOAT32 / INT32 / BOOL8
  std::vector<int64_t> dims;                       // ONNX dimensions (rank 0 allowed)
  std::vector<uint8_t> bytes;                      // Operand::value layout
  size_t count() const;
  std::vector<int32_t> int32s() const;  // type TENSOR_INT32
  std::vector<float> floats() const;    // type TENSOR_FLOAT32
};

// A translated ONNX value: an operand of the scope's subgraph, or a constant.
struct Value {
  OperandType type = OperandType::TENSOR_FLOAT32;
  OnnxDims dims;
  std::optional<Constant> constant;
  uint32_t operand = 0;  // when !constant
  bool isConstant() const { return constant.has_value(); }
};

struct Scope {
  Scope* parent = nullptr;
  size_t subgraph = 0;  // 0 = main, i + 1 = Model::referenced[i]
  std::map<std::string, Value> names;
  std::optional<uint32_t> activationNone;
};

// nnfab dimensions of ONNX ones: rank 0 -> [1], unknown size -> 0, unknown rank -> {}.
Dimensions toNnfabDims(const OnnxDims& dims);
// True when every size is known.
bool fullyKnown(const OnnxDims& dims);
// Constants the importer makes from shapes (Where/Cast widening, scan
// accumulators) hold at most this many elements, so a model that declares
// huge static shapes cannot make the import allocate without bound.
inline constexpr int64_t kMaxSynthesizedElements = int64_t{1} << 22;
// Element count of known dimensions, nullopt when one is unknown or the
// count exceeds 2^40 (no overflow on any input).
std::optional<int64_t> elementsOf(const std::vector<int64_t>& dims);
std::string dimsText(const OnnxDims& dims);

// TensorProto -> Constant (FLOAT, INT32, INT64 narrowed, BOOL).
Result<Constant> constantFromProto(const onnx::TensorProto& tensor);
// INT64 -> INT32: in range, or a sentinel (INT64_MAX / INT64_MIN clamp to INT32_MAX / INT32_MIN).
std::optional<int32_t> narrowInt64(int64_t v);
// The nnfab type of an ONNX element type, nullopt if unsupported.
std::optional<OperandType> operandTypeOf(int32_t onnxElemType);
std::string onnxTypeName(int32_t onnxElemType);

// The operators the converter maps (default domain).
bool isMappedOperator(const std::string& opType);
// "node 'name' (Op): why" (or "the node computing 'out' (Op): why"), INVALID_ARGUMENT.
Status refuseNode(const onnx::NodeProto& node, const std::string& why);

class Converter {
 public:
  Converter(Model* model, int64_t opset) : model_(model), opset_(opset) {}

  // Records the element types and shapes of every value of g and its nested
  // graphs (after shape inference).
  void collectInfo(const onnx::GraphProto& g);
  // Translates g's initializers and nodes into scope.
  Status translateNodes(Scope& scope, const onnx::GraphProto& g);
  // Operand to use as a subgraph output for value v (an operation must write
  // it and it may not repeat: inputs, constants and repeats get an identity CAST).
  uint32_t finishOutput(Scope& scope, const Value& v);

  // --- building blocks for the mappers ---
  Subgraph& subgraph(const Scope& scope);
  uint32_t addOperand(Scope& scope, OperandType type, Dimensions dims,
                      OperandLifeTime lifetime = OperandLifeTime::TEMPORARY_VARIABLE);
  uint32_t operandOf(Scope& scope, const Value& v);  // materialises constants
  uint32_t constantOperand(Scope& scope, const Constant& c);
  uint32_t int32s(Scope& scope, std::vector<int32_t> values, std::vector<int64_t> dims = {});
  uint32_t floats(Scope& scope, std::vector<float> values, std::vector<int64_t> dims = {});
  uint32_t bools(Scope& scope, std::vector<uint8_t> values, std::vector<int64_t> dims = {});
  uint32_t zerosOf(Scope& scope, OperandType type, const std::vector<int64_t>& dims);
  uint32_t activationNone(Scope& scope);
  // Appends an operation with one new TEMPORARY output; returns that operand.
  uint32_t emit(Scope& scope, OperationType op, std::vector<uint32_t> inputs, OperandType outType,
                Dimensions outDims);
  // emit() for the arithmetic ops (adds the NONE activation input).
  uint32_t arith(Scope& scope, OperationType op, uint32_t a, uint32_t b, OperandType type, Dimensions dims);
  size_t newSubgraph();
  uint32_t subgraphOperand(Scope& scope, size_t subgraphIndex);

  Result<Value> lookup(Scope& scope, const std::string& name) const;
  Result<Value> input(Scope& scope, const onnx::NodeProto& node, int i) const;
  bool hasInput(const onnx::NodeProto& node, int i) const { return i < node.input_size() && !node.input(i).empty(); }
  Result<Constant> constantInput(Scope& scope, const onnx::NodeProto& node, int i, const char* what) const;
  // Shape inference's dimensions for a value name.
  OnnxDims inferredDims(const std::string& name) const;
  void bind(Scope& scope, const std::string& name, Value v) { scope.names[name] = std::move(v); }
  Value operandValue(uint32_t operand, OperandType type, OnnxDims dims) const;
  Status refuse(const onnx::NodeProto& node, const std::string& why) const;
  int64_t opset() const { return opset_; }
  const onnx::AttributeProto* attribute(const onnx::NodeProto& node, const char* name) const;
  int64_t intAttribute(const onnx::NodeProto& node, const char* name, int64_t fallback) const;

  // Reinterprets v with ONNX dimensions `to` (same element count): an alias
  // when nnfab's dimensions do not change, a constant for constants, RESHAPE
  // for TENSOR_FLOAT32, refused otherwise (NNAPI's RESHAPE takes no INT32/BOOL8).
  Result<Value> reshape(Scope& scope, const onnx::NodeProto& node, const Value& v, const std::vector<int64_t>& to);

  // Names a nested graph reads but does not define (through its own nested graphs too).
  static std::set<std::string> freeNames(const onnx::GraphProto& g);
  // The outer operands a nested graph needs as inputs (its free names that
  // are not constants), sorted by name.
  Result<std::vector<std::pair<std::string, Value>>> captures(Scope& outer, const onnx::NodeProto& node,
                                                             const std::vector<const onnx::GraphProto*>& graphs);

 private:
  Status translateNode(Scope& scope, const onnx::NodeProto& node);
  // map_elementwise.cpp, map_shapes.cpp, map_control_flow.cpp
  Result<bool> mapElementwise(Scope& scope, const onnx::NodeProto& node);
  Result<bool> mapShapes(Scope& scope, const onnx::NodeProto& node);
  Status mapIf(Scope& scope, const onnx::NodeProto& node);
  Status mapLoop(Scope& scope, const onnx::NodeProto& node);
  Status mapScan(Scope& scope, const onnx::NodeProto& node);
  Status mapCast(Scope& scope, const onnx::NodeProto& node);
  Status mapMatMul(Scope& scope, const onnx::NodeProto& node, bool gemm);
  Status mapSlice(Scope& scope, const onnx::NodeProto& node);
  Status mapIntDiv(Scope& scope, const onnx::NodeProto& node, const Value& a, const Value& b);
  // The shared core of Scan-8/9+: returns the final states then the stacked scan outputs.
  Result<std::vector<Value>> scanLoop(Scope& scope, const onnx::NodeProto& node, const onnx::GraphProto& body,
                                      const std::vector<Value>& states, const std::vector<Value>& scans);

  Model* model_;
  int64_t opset_;
  std::map<std::string, std::pair<int32_t, OnnxDims>> info_;  // name -> (ONNX elem type, dims)
  std::set<uint64_t> outputsUsed_;  // (subgraph << 32 | operand) already a subgraph output
};

}  // namespace nnfab::onnx_import
