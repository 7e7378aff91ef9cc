// §5.2 operand validation (NNAPI's validateOperands), one subgraph at a time.
// Order of the checks follows NNAPI: type, rank, scale, zeroPoint,
// extraParams, then lifetime and location, then constant sizes.
#include <fmt/format.h>

#include <cmath>

#include "validation/validate_internal.h"

namespace nnfab::validation {
namespace {

bool isValidLifetime(OperandLifeTime lifetime) {
  const auto raw = static_cast<int32_t>(lifetime);
  return raw >= static_cast<int32_t>(OperandLifeTime::TEMPORARY_VARIABLE) &&
         raw <= static_cast<int32_t>(OperandLifeTime::SUBGRAPH);
}

bool isConstant(OperandLifeTime lifetime) {
  return lifetime == OperandLifeTime::CONSTANT_COPY ||
         lifetime == OperandLifeTime::CONSTANT_REFERENCE;
}

// Returns an error message, or "" when the rule holds.
std::string checkRank(const Operand& operand) {
  if (isScalarType(operand.type)) {
    if (!operand.dimensions.empty()) {
      return fmt::format("scalar of type {} must have no dimensions, got rank {}",
                         toString(operand.type), operand.dimensions.size());
    }
    return "";
  }
  // Unknown rank is allowed in every 1.3 subgraph, but a constant carries its
  // value, so its shape must be complete.
  if (isConstant(operand.lifetime) && operand.dimensions.empty()) {
    return fmt::format("constant tensor of type {} has unknown rank", toString(operand.type));
  }
  return "";
}

std::string checkScale(const Operand& operand) {
  const float scale = operand.scale;
  switch (operand.type) {
    case OperandType::TENSOR_INT32:
      // Used with or without a scale (bias operands carry one). NNAPI lets a
      // NaN through here; nnfab rejects non-finite scales everywhere.
      if (!(scale >= 0.0f) || !std::isfinite(scale)) {
        return fmt::format("TENSOR_INT32 operand must have a finite scale >= 0, got {}", scale);
      }
      return "";
    case OperandType::TENSOR_QUANT8_ASYMM:
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
    case OperandType::TENSOR_QUANT8_SYMM:
    case OperandType::TENSOR_QUANT16_ASYMM:
    case OperandType::TENSOR_QUANT16_SYMM:
      if (!(scale > 0.0f) || !std::isfinite(scale)) {
        return fmt::format("{} operand must have a positive finite scale, got {}",
                           toString(operand.type), scale);
      }
      return "";
    default:
      // Floats, booleans, INT32/UINT32 scalars, SUBGRAPH and per-channel
      // (whose scales live in channelQuant).
      if (scale != 0.0f) {
        return fmt::format("{} operand must have scale 0, got {}", toString(operand.type), scale);
      }
      return "";
  }
}

std::string checkZeroPoint(const Operand& operand) {
  const int32_t zp = operand.zeroPoint;
  int32_t low = 0;
  int32_t high = 0;
  switch (operand.type) {
    case OperandType::TENSOR_QUANT8_ASYMM:
      high = 255;
      break;
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
      low = -128;
      high = 127;
      break;
    case OperandType::TENSOR_QUANT16_ASYMM:
      high = 65535;
      break;
    default:
      break;  // every other type: exactly 0
  }
  if (zp < low || zp > high) {
    if (low == high) {
      return fmt::format("{} operand must have zeroPoint 0, got {}", toString(operand.type), zp);
    }
    return fmt::format("{} operand must have zeroPoint in [{}, {}], got {}", toString(operand.type),
                       low, high, zp);
  }
  return "";
}

std::string checkChannelQuant(const Operand& operand) {
  if (operand.type != OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL) {
    if (operand.channelQuant.has_value()) {
      return fmt::format("{} operand must not have channelQuant", toString(operand.type));
    }
    return "";
  }
  if (!operand.channelQuant.has_value()) {
    return "TENSOR_QUANT8_SYMM_PER_CHANNEL operand needs channelQuant";
  }
  const ChannelQuant& cq = *operand.channelQuant;
  const size_t rank = operand.dimensions.size();
  if (cq.channelDim >= rank) {
    return fmt::format("channelQuant.channelDim {} must be less than the rank {}", cq.channelDim,
                       rank);
  }
  const uint32_t channels = operand.dimensions[cq.channelDim];
  if (cq.scales.size() != channels) {
    return fmt::format("channelQuant has {} scales but dimension {} is {}", cq.scales.size(),
                       cq.channelDim, channels);
  }
  if (channels == 0) {
    return fmt::format("channelQuant dimension {} must be known (non-zero)", cq.channelDim);
  }
  for (size_t i = 0; i < cq.scales.size(); ++i) {
    if (!(cq.scales[i] > 0.0f) || !std::isfinite(cq.scales[i])) {
      return fmt::format("channelQuant.scales[{}] must be positive and finite, got {}", i,
                         cq.scales[i]);
    }
  }
  return "";
}

// nnfab's overflow rule (docs/architecture.md, "Limits"): the known dimensions of
// a tensor must not already exceed uint32 bytes, whatever the unknown ones
// turn out to be.
std::string checkSizeOverflow(const Operand& operand) {
  if (isScalarType(operand.type)) return "";
  uint64_t bytes = sizeOfElement(operand.type);
  for (uint32_t d : operand.dimensions) {
    if (d == 0) continue;
    bytes *= d;
    if (bytes > UINT32_MAX) {
      return fmt::format("byte size of {} overflows uint32", operandSummary(operand));
    }
  }
  return "";
}

// Lifetime and "location" (the value bytes and the subgraph reference).
std::string checkLifetime(const Model& model, const Operand& operand) {
  switch (operand.lifetime) {
    case OperandLifeTime::CONSTANT_COPY:
    case OperandLifeTime::CONSTANT_REFERENCE:
      if (operand.subgraph != 0) {
        return fmt::format("constant operand has a subgraph index ({})", operand.subgraph);
      }
      return "";
    case OperandLifeTime::SUBGRAPH:
      if (operand.subgraph >= model.referenced.size()) {
        return fmt::format("subgraph index {} out of range ({} referenced subgraphs)",
                           operand.subgraph, model.referenced.size());
      }
      if (!operand.value.empty()) return "SUBGRAPH operand must not carry value bytes";
      return "";
    default:
      // TEMPORARY_VARIABLE, SUBGRAPH_INPUT, SUBGRAPH_OUTPUT, NO_VALUE: no
      // location at all (NNAPI: poolIndex, offset and length all 0).
      if (!operand.value.empty()) {
        return fmt::format("operand with lifetime {} must not have a value",
                           toString(operand.lifetime));
      }
      if (operand.subgraph != 0) {
        return fmt::format("operand with lifetime {} has a subgraph index ({})",
                           toString(operand.lifetime), operand.subgraph);
      }
      return "";
  }
}

std::string checkConstantSize(const Operand& operand) {
  if (!isConstant(operand.lifetime)) return "";
  if (!isFullySpecified(operand)) {
    return fmt::format("constant operand must be fully specified, got {}", operandSummary(operand));
  }
  const auto expected = operandByteSize(operand.type, operand.dimensions);
  if (!expected.has_value()) return "constant operand size overflows uint32";
  if (operand.value.size() != *expected) {
    return fmt::format("constant {} needs {} value bytes, got {}", operandSummary(operand),
                       *expected, operand.value.size());
  }
  return "";
}

std::string checkOperand(const Model& model, const Operand& operand) {
  if (!isValidOperandType(static_cast<int32_t>(operand.type))) {
    return fmt::format("invalid operand type {}", static_cast<int32_t>(operand.type));
  }
  if (!isValidLifetime(operand.lifetime)) {
    return fmt::format("invalid lifetime {}", static_cast<int32_t>(operand.lifetime));
  }
  for (auto check : {checkRank, checkScale, checkZeroPoint, checkChannelQuant, checkSizeOverflow}) {
    std::string message = check(operand);
    if (!message.empty()) return message;
  }
  std::string message = checkLifetime(model, operand);
  if (!message.empty()) return message;
  // Type SUBGRAPH and lifetime SUBGRAPH only ever come together.
  if ((operand.type == OperandType::SUBGRAPH) != (operand.lifetime == OperandLifeTime::SUBGRAPH)) {
    return fmt::format("operand of type {} cannot have lifetime {}", toString(operand.type),
                       toString(operand.lifetime));
  }
  return checkConstantSize(operand);
}

}  // namespace

Status validateOperands(const Model& model, size_t subgraphIndex) {
  const Subgraph& subgraph = model.subgraph(subgraphIndex);
  for (size_t i = 0; i < subgraph.operands.size(); ++i) {
    std::string message = checkOperand(model, subgraph.operands[i]);
    if (!message.empty()) {
      return invalidArgument(
          fmt::format("{}, operand {}: {}", subgraphLabel(subgraphIndex), i, message));
    }
  }
  return Status::ok();
}

}  // namespace nnfab::validation
