#include "compiler/placement.h"

#include "isa/data_windows.h"

namespace nnfab::compiler {

namespace {

// How the core reaches a storage over the whole program.
constexpr uint8_t kScalar = 1;        // LDW/STW/LDB/STB
constexpr uint8_t kBOperand = 2;      // read as the vector engine's B operand
constexpr uint8_t kOtherRead = 4;     // read as any other tensor operand
constexpr uint8_t kVectorResult = 8;  // written as the vector engine's result
constexpr uint8_t kOtherWrite = 16;   // written by the element engine or FC

}  // namespace

std::vector<uint8_t> placeInWindows(const ir::Function& fn, const std::vector<bool>& vectorEngine) {
  std::vector<uint8_t> use(fn.storages.size(), 0);
  auto storageOf = [&](uint32_t value) { return fn.values[value].storage; };
  for (size_t p = 0; p < fn.code.size(); ++p) {
    const ir::Inst& i = fn.code[p];
    switch (i.kind) {
      case ir::Kind::LOAD:
      case ir::Kind::STORE:
        use[i.storage] |= kScalar;
        break;
      case ir::Kind::OP:
      case ir::Kind::MOVE: {
        const ir::Value& dst = fn.values[i.dst];
        if (dst.scalar()) {
          // A one-element result a FLOAT32 tensor instruction left in
          // memory, moved into a register with a load.
          if (i.kind == ir::Kind::MOVE) use[storageOf(i.src[0])] |= kScalar;
          break;
        }
        if (dst.count == 0) break;  // no instruction
        if (i.kind == ir::Kind::MOVE && storageOf(i.dst) == storageOf(i.src[0])) break;  // none either
        const bool vector = vectorEngine[p];
        use[storageOf(i.dst)] |= vector ? kVectorResult : kOtherWrite;
        const uint32_t sources = i.kind == ir::Kind::MOVE ? 1u : i.sourceCount();
        for (uint32_t s = 0; s < sources; ++s) use[storageOf(i.src[s])] |= vector && s == 1 ? kBOperand : kOtherRead;
        break;
      }
      default:
        break;  // registers, labels, loop blocks; DEFINE_INPUT is the host's write
    }
  }
  std::vector<uint8_t> window(fn.storages.size(), static_cast<uint8_t>(isa::kWindowA));
  for (size_t s = 0; s < fn.storages.size(); ++s) {
    const ir::StorageKind kind = fn.storages[s].kind;
    if ((kind != ir::StorageKind::REGION && kind != ir::StorageKind::CONST) || (use[s] & kScalar) != 0) continue;
    if (kind == ir::StorageKind::REGION && (use[s] & kVectorResult) != 0 && (use[s] & kOtherWrite) == 0) {
      window[s] = static_cast<uint8_t>(isa::kWindowD);
    } else if (use[s] == kBOperand) {
      window[s] = static_cast<uint8_t>(isa::kWindowB);
    }
  }
  return window;
}

}  // namespace nnfab::compiler
