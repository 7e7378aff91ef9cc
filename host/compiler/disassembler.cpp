#include "compiler/disassembler.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cctype>
#include <cstring>
#include <map>

#include "nnfab_isa.h"
#include "nnfab_isa_names.h"

namespace nnfab::compiler {
namespace {

std::string lower(const char* s) {
  std::string out(s == nullptr ? "?" : s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string reg(uint32_t r) { return fmt::format("r{}", r); }

bool isBranch(const isa::Fields& f) {
  const uint32_t cls = f.opcode & isa::kClassMask;
  return cls == isa::kClassBRCMP || f.opcode == isa::kOpJMP || f.opcode == isa::kOpBNZ || f.opcode == isa::kOpBZ;
}

// Whether the word decodes to an instruction the core accepts (docs/isa.md).
bool isLegal(const isa::Fields& f) {
  if (f.reserved != 0) return false;
  const uint32_t cls = f.opcode & isa::kClassMask;
  const uint32_t fn = f.opcode & isa::kFnMask;
  if (cls == isa::kClassCTRL) return f.opcode < isa::kNumCtrlOps;
  if (cls == isa::kClassSALU) return fn < isa::kNumAluFns && !isa::fnTensorOnly(fn);
  if (cls == isa::kClassBRCMP) return isa::fnIsComparison(fn);
  if (cls == isa::kClassTENSOR) return fn < isa::kNumAluFns && ((isa::fnTypeMask(fn) >> f.type) & 1u) != 0;
  return false;
}

std::string target(uint32_t imm, const std::map<uint32_t, std::string>* labels) {
  if (labels != nullptr) {
    if (auto it = labels->find(imm); it != labels->end()) return it->second;
  }
  return std::to_string(imm);
}

std::string format(uint64_t word, const std::map<uint32_t, std::string>* labels) {
  const isa::Fields f = isa::decodeFields(word);
  if (!isLegal(f)) return fmt::format(".word 0x{:016x}   ; not a valid instruction", word);
  const uint32_t cls = f.opcode & isa::kClassMask;
  const uint32_t fn = f.opcode & isa::kFnMask;
  const std::string bang = f.backedge ? " !" : "";
  if (cls == isa::kClassSALU) {
    std::string s = fmt::format("{} {}, {}", lower(isa::aluFnName(fn)), reg(f.rd), reg(f.ra));
    if (isa::fnOperands(fn) >= 2) s += fmt::format(", {}", reg(f.rb));
    if (isa::fnOperands(fn) >= 3) s += fmt::format(", {}", reg(f.rc));
    return s;
  }
  if (cls == isa::kClassBRCMP) {
    return fmt::format("b{} {}, {}, {}{}", lower(isa::aluFnName(fn)), reg(f.ra), reg(f.rb), target(f.imm, labels), bang);
  }
  if (cls == isa::kClassTENSOR) {
    // FLOAT32 ADD/SUB/MUL/DIV carry their fused activation in RC.
    static const char* const kActivations[] = {"none", "relu", "relu1", "relu6"};
    const bool act = f.type == isa::kTypeFLOAT32 && isa::fnFloatActivation(fn);
    const std::string rc = !act ? reg(f.rc) : f.rc < 4 ? std::string(kActivations[f.rc]) : fmt::format("act{}", f.rc);
    return fmt::format("t{}.{} {}, {}, {}, {}, {}", lower(isa::aluFnName(fn)), lower(isa::typeName(f.type)), reg(f.rd),
                       reg(f.ra), reg(f.rb), rc, f.imm);
  }
  const std::string name = lower(isa::ctrlOpName(f.opcode));
  switch (f.opcode) {
    case isa::kOpNOP:
    case isa::kOpWDARM:
    case isa::kOpWDOFF:
      return name;
    case isa::kOpHALT:
      return fmt::format("{} {}", name, f.imm);
    case isa::kOpJMP:
      return fmt::format("{} {}{}", name, target(f.imm, labels), bang);
    case isa::kOpBNZ:
    case isa::kOpBZ:
      return fmt::format("{} {}, {}{}", name, reg(f.ra), target(f.imm, labels), bang);
    case isa::kOpLI:
      return fmt::format("{} {}, {}", name, reg(f.rd), static_cast<int32_t>(f.imm));
    case isa::kOpLDW:
    case isa::kOpLDB:
      return fmt::format("{} {}, [{} + {}]", name, reg(f.rd), reg(f.ra), f.imm);
    case isa::kOpSTW:
    case isa::kOpSTB:
      return fmt::format("{} {}, [{} + {}]", name, reg(f.rb), reg(f.ra), f.imm);
    case isa::kOpSWAP:
      return fmt::format("{} {}, {}", name, reg(f.rd), reg(f.ra));
    default:
      return name;
  }
}

uint32_t wordAt(const std::vector<uint8_t>& image, uint64_t offset) {
  uint32_t w = 0;
  std::memcpy(&w, image.data() + offset, sizeof(w));
  return w;
}

// "dims [1,1,2,3]  a [0,0,3,1]  b [0,0,0,1]" for the sources fn reads.
std::string describeDescriptor(const Program& program, uint32_t fn, uint32_t offset) {
  if (uint64_t{offset} + isa::kDESCRIPTOR_BYTES > program.dataImage.size()) {
    return "descriptor outside the data image";
  }
  auto vec = [&](uint32_t first) {
    return fmt::format("[{},{},{},{}]", wordAt(program.dataImage, offset + 4 * first),
                       wordAt(program.dataImage, offset + 4 * (first + 1)),
                       wordAt(program.dataImage, offset + 4 * (first + 2)),
                       wordAt(program.dataImage, offset + 4 * (first + 3)));
  };
  if (fn == isa::kFnFC) {
    return fmt::format("batch {}  units {}  input_size {}  activation {}", wordAt(program.dataImage, offset),
                       wordAt(program.dataImage, offset + 4), wordAt(program.dataImage, offset + 8),
                       wordAt(program.dataImage, offset + 12));
  }
  std::string s = fmt::format("dims {}", vec(isa::kDescDIM));
  const char* names[3] = {"a", "b", "c"};
  const uint32_t firsts[3] = {isa::kDescSTRIDE_A, isa::kDescSTRIDE_B, isa::kDescSTRIDE_C};
  for (uint32_t k = 0; k < isa::fnOperands(fn) && k < 3; ++k) s += fmt::format("  {} {}", names[k], vec(firsts[k]));
  return s;
}

std::string dims(const Dimensions& d) { return fmt::format("[{}]", fmt::join(d, ",")); }

}  // namespace

std::string disassembleInstruction(uint64_t word) { return format(word, nullptr); }

std::string disassemble(const Program& program) {
  std::map<uint32_t, std::string> labels;
  for (uint64_t word : program.code) {
    const isa::Fields f = isa::decodeFields(word);
    if (isLegal(f) && isBranch(f)) labels.emplace(f.imm, "");
  }
  uint32_t next = 0;
  for (auto& [pc, name] : labels) name = fmt::format("L{}", next++);

  std::string out;
  out += fmt::format("; nnfab program: {} instructions, data region {} bytes (image {} bytes)\n",
                     program.code.size(), program.dataBytes, program.dataImage.size());
  // The windows (docs/compiler.md "Data windows"), when the region has more than A.
  auto start = [](uint32_t s) { return s == isa::kNoWindowStart ? std::string("none") : std::to_string(s); };
  if (program.srcbStart != isa::kNoWindowStart || program.dstStart != isa::kNoWindowStart) {
    out += fmt::format("; windows: B from {}, D from {}\n", start(program.srcbStart), start(program.dstStart));
  }
  auto slots = [&](const char* kind, const std::vector<IoSlot>& list) {
    for (size_t i = 0; i < list.size(); ++i) {
      const IoSlot& s = list[i];
      out += fmt::format("; {} {}: operand {} {} {} at {} ({} bytes)\n", kind, i, s.operand, toString(s.type),
                         dims(s.dimensions), s.offset, s.bytes);
    }
  };
  slots("input ", program.inputs);
  slots("output", program.outputs);
  for (size_t pc = 0; pc < program.code.size(); ++pc) {
    const uint64_t word = program.code[pc];
    const auto label = labels.find(static_cast<uint32_t>(pc));
    const std::string prefix = label != labels.end() ? fmt::format("{}:", label->second) : std::string();
    std::string line = fmt::format("{:5}  {:<5} {}", pc, prefix, format(word, &labels));
    const isa::Fields f = isa::decodeFields(word);
    if (isLegal(f) && (f.opcode & isa::kClassMask) == isa::kClassTENSOR) {
      line = fmt::format("{:<52} ; {}", line, describeDescriptor(program, f.opcode & isa::kFnMask, f.imm));
    }
    out += line;
    out += '\n';
  }
  for (const auto& [pc, name] : labels) {
    if (pc >= program.code.size()) out += fmt::format("; {} = {} is outside the program\n", name, pc);
  }
  return out;
}

}  // namespace nnfab::compiler
