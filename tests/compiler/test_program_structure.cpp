// The shape of the generated code where the design promises something:
// the counter loop is two instructions per iteration, loop-carried tensors
// are double-buffered with SWAP (no copies in the loop), only the outermost
// loop arms the watchdog, IF is bz/jmp, and the disassembler's listing.
#include <gtest/gtest.h>

#include <algorithm>

#include "compiler/disassembler.h"
#include "compiler_test_util.h"
#include "fabric/insn.h"
#include "support/loop_models.h"
#include "support/model_builder.h"

namespace nnfab::compiler::test {
namespace {

using OT = OperationType;
using testing::SubgraphBuilder;

struct Loop {
  size_t top = 0;
  size_t backedge = 0;  // pc of the branch marked BACKEDGE
};

// Every backward branch marked BACKEDGE, as [target, branch] ranges.
std::vector<Loop> loops(const Program& p) {
  std::vector<Loop> out;
  for (size_t pc = 0; pc < p.code.size(); ++pc) {
    const isa::Fields f = fields(p, pc);
    if (f.backedge) out.push_back({f.imm, pc});
  }
  return out;
}

size_t countOpcode(const Program& p, uint32_t opcode, size_t from = 0, size_t to = SIZE_MAX) {
  size_t n = 0;
  for (size_t pc = from; pc < std::min(to, p.code.size()); ++pc) n += fields(p, pc).opcode == opcode;
  return n;
}

TEST(ProgramStructure, CounterLoopIsTwoInstructionsPerIteration) {
  auto p = compileMain(testing::counterLoop());
  ASSERT_TRUE(p.isOk()) << p.status().message();
  const auto ls = loops(*p);
  ASSERT_EQ(ls.size(), 1u) << disassemble(*p);
  const Loop& l = ls[0];
  ASSERT_LT(l.top, l.backedge);
  EXPECT_EQ(l.backedge - l.top + 1, 2u) << disassemble(*p);
  const isa::Fields add = fields(*p, l.top);
  const isa::Fields branch = fields(*p, l.backedge);
  EXPECT_EQ(add.opcode, opcode(isa::kClassSALU, isa::kFnADD));
  EXPECT_EQ(add.rd, add.ra) << "i = i + 1 in place";
  EXPECT_EQ(branch.opcode, opcode(isa::kClassBRCMP, isa::kFnLT));
  EXPECT_EQ(branch.ra, add.rd);
  // The loop entry test is the inverse comparison to the exit.
  bool entry = false;
  for (size_t pc = 0; pc < l.top; ++pc) {
    const isa::Fields f = fields(*p, pc);
    if (f.opcode == (opcode(isa::kClassBRCMP, isa::kFnGE)) && f.imm == l.backedge + 1) entry = true;
  }
  EXPECT_TRUE(entry) << disassemble(*p);
  // One watchdog arm before the loop and a disarm after it.
  EXPECT_EQ(countOpcode(*p, isa::kOpWDARM), 1u);
  EXPECT_EQ(countOpcode(*p, isa::kOpWDOFF), 1u);
  EXPECT_EQ(fields(*p, l.backedge + 1).opcode, static_cast<uint32_t>(isa::kOpWDOFF));
}

TEST(ProgramStructure, AccumulatingLoopUpdatesBothValuesInPlace) {
  // i' = i + 1; acc' = acc + i: the compiler computes acc' first so that
  // both updates write their loop registers: 3 instructions per iteration.
  auto p = compileMain(testing::counterLoop(true));
  ASSERT_TRUE(p.isOk()) << p.status().message();
  const auto ls = loops(*p);
  ASSERT_EQ(ls.size(), 1u);
  EXPECT_EQ(ls[0].backedge - ls[0].top + 1, 3u) << disassemble(*p);
  for (size_t pc = ls[0].top; pc < ls[0].backedge; ++pc) {
    const isa::Fields f = fields(*p, pc);
    EXPECT_EQ(f.opcode, opcode(isa::kClassSALU, isa::kFnADD)) << disassemble(*p);
    EXPECT_EQ(f.rd, f.ra) << "in place";
  }
}

TEST(ProgramStructure, NestedLoopsArmTheWatchdogOnce) {
  auto p = compileMain(testing::nestedLoops());
  ASSERT_TRUE(p.isOk()) << p.status().message();
  EXPECT_EQ(loops(*p).size(), 2u);
  EXPECT_EQ(countOpcode(*p, isa::kOpWDARM), 1u) << disassemble(*p);
  EXPECT_EQ(countOpcode(*p, isa::kOpWDOFF), 1u);
  // The inner loop (the one nested in the other) is 2 instructions too.
  const auto ls = loops(*p);
  const Loop& inner = ls[0].top > ls[1].top ? ls[0] : ls[1];
  EXPECT_LE(inner.backedge - inner.top + 1, 3u) << disassemble(*p);
}

// while (i < n) { i = i + 1; x = x * 2 + i } with x a tensor [8].
Model tensorLoop() {
  Model m;
  SubgraphBuilder cond;
  const uint32_t ci = cond.input(I32, {1});
  cond.input(I32, {8});
  const uint32_t cn = cond.input(I32, {1});
  const uint32_t co = cond.output(B8, {1});
  cond.op(OT::LESS, {ci, cn}, {co});
  m.referenced.push_back(cond.build());
  SubgraphBuilder body;
  const uint32_t i = body.input(I32, {1});
  const uint32_t x = body.input(I32, {8});
  body.input(I32, {1});
  const uint32_t iNext = body.output(I32, {1});
  const uint32_t xNext = body.output(I32, {8});
  const uint32_t twice = body.temp(I32, {8});
  body.op(OT::ADD, {i, body.int32Tensor({1}, {1}), body.scalar(0)}, {iNext});
  body.op(OT::MUL, {x, body.int32Tensor({1}, {2}), body.scalar(0)}, {twice});
  body.op(OT::ADD, {twice, iNext, body.scalar(0)}, {xNext});
  m.referenced.push_back(body.build());
  SubgraphBuilder main;
  const uint32_t n = main.input(I32, {1});
  const uint32_t x0 = main.input(I32, {8});
  const uint32_t iOut = main.output(I32, {1});
  const uint32_t xOut = main.output(I32, {8});
  main.op(OT::WHILE, {main.subgraphRef(0), main.subgraphRef(1), main.int32Tensor({1}, {0}), x0, n}, {iOut, xOut});
  m.main = main.build();
  return m;
}

TEST(ProgramStructure, LoopCarriedTensorsAreSwappedNotCopied) {
  auto p = compileMain(tensorLoop());
  ASSERT_TRUE(p.isOk()) << p.status().message();
  const auto ls = loops(*p);
  ASSERT_EQ(ls.size(), 1u);
  const size_t from = ls[0].top, to = ls[0].backedge + 1;
  EXPECT_EQ(countOpcode(*p, isa::kOpSWAP, from, to), 1u) << disassemble(*p);
  EXPECT_EQ(countOpcode(*p, opcode(isa::kClassTENSOR, isa::kFnMOV), from, to), 0u) << disassemble(*p);
  // The two tensor operations of the body write through the swapped base
  // register: the same rd each iteration, and the swap exchanges it.
  size_t tensorOps = 0;
  uint32_t rdLast = 0;
  for (size_t pc = from; pc < to; ++pc) {
    const isa::Fields f = fields(*p, pc);
    if (opClass(f) == isa::kClassTENSOR) {
      ++tensorOps;
      rdLast = f.rd;
    }
  }
  EXPECT_EQ(tensorOps, 2u);
  bool swapsIt = false;
  for (size_t pc = from; pc < to; ++pc) {
    const isa::Fields f = fields(*p, pc);
    if (f.opcode == isa::kOpSWAP && (f.rd == rdLast || f.ra == rdLast)) swapsIt = true;
  }
  EXPECT_TRUE(swapsIt) << disassemble(*p);
}

TEST(ProgramStructure, AllLoopTensorsSwapAtOnce) {
  // Three loop-carried tensors: one swap of the two block base registers.
  Model m;
  SubgraphBuilder cond;
  const uint32_t ci = cond.input(I32, {1});
  for (int k = 0; k < 3; ++k) cond.input(I32, {4});
  const uint32_t co = cond.output(B8, {1});
  cond.op(OT::LESS, {ci, cond.int32Tensor({1}, {5})}, {co});
  m.referenced.push_back(cond.build());
  SubgraphBuilder body;
  const uint32_t i = body.input(I32, {1});
  std::vector<uint32_t> x;
  for (int k = 0; k < 3; ++k) x.push_back(body.input(I32, {4}));
  const uint32_t iNext = body.output(I32, {1});
  body.op(OT::ADD, {i, body.int32Tensor({1}, {1}), body.scalar(0)}, {iNext});
  for (int k = 0; k < 3; ++k) {
    const uint32_t out = body.output(I32, {4});
    body.op(OT::SUB, {x[k], x[(k + 1) % 3], body.scalar(0)}, {out});
  }
  m.referenced.push_back(body.build());
  SubgraphBuilder main;
  std::vector<uint32_t> in = {main.subgraphRef(0), main.subgraphRef(1), main.int32Tensor({1}, {0})};
  std::vector<uint32_t> outs = {main.output(I32, {1})};
  for (int k = 0; k < 3; ++k) {
    in.push_back(main.input(I32, {4}));
    outs.push_back(main.output(I32, {4}));
  }
  main.op(OT::WHILE, in, outs);
  m.main = main.build();
  auto p = compileMain(m);
  ASSERT_TRUE(p.isOk()) << p.status().message();
  const auto ls = loops(*p);
  ASSERT_EQ(ls.size(), 1u);
  EXPECT_EQ(countOpcode(*p, isa::kOpSWAP, ls[0].top, ls[0].backedge + 1), 1u) << disassemble(*p);
  EXPECT_EQ(countOpcode(*p, opcode(isa::kClassTENSOR, isa::kFnSUB), ls[0].top, ls[0].backedge + 1), 3u);
  EXPECT_EQ(countOpcode(*p, opcode(isa::kClassTENSOR, isa::kFnMOV), ls[0].top, ls[0].backedge + 1), 0u);
}

TEST(ProgramStructure, IfIsABranchAndAJump) {
  Model m;
  for (int b = 0; b < 2; ++b) {
    SubgraphBuilder br;
    const uint32_t x = br.input(I32, {1});
    const uint32_t y = br.output(I32, {1});
    br.op(b == 0 ? OT::ABS : OT::NEG, {x}, {y});
    m.referenced.push_back(br.build());
  }
  SubgraphBuilder main;
  const uint32_t c = main.input(B8, {1});
  const uint32_t x = main.input(I32, {1});
  const uint32_t y = main.output(I32, {1});
  main.op(OT::IF, {c, main.subgraphRef(0), main.subgraphRef(1), x}, {y});
  m.main = main.build();
  auto p = compileMain(m);
  ASSERT_TRUE(p.isOk()) << p.status().message();
  // ldb c; ldw x; bz c, else; abs y, x; jmp end; else: neg y, x; end: stw; halt
  EXPECT_EQ(countOpcode(*p, isa::kOpBZ), 1u) << disassemble(*p);
  EXPECT_EQ(countOpcode(*p, isa::kOpJMP), 1u);
  EXPECT_EQ(countOpcode(*p, opcode(isa::kClassSALU, isa::kFnABS)), 1u);
  EXPECT_EQ(countOpcode(*p, opcode(isa::kClassSALU, isa::kFnNEG)), 1u);
  EXPECT_EQ(p->code.size(), 8u) << disassemble(*p);
  // Both branches write the output's register directly.
  size_t abs = 0, neg = 0;
  for (size_t pc = 0; pc < p->code.size(); ++pc) {
    if (fields(*p, pc).opcode == (opcode(isa::kClassSALU, isa::kFnABS))) abs = pc;
    if (fields(*p, pc).opcode == (opcode(isa::kClassSALU, isa::kFnNEG))) neg = pc;
  }
  EXPECT_EQ(fields(*p, abs).rd, fields(*p, neg).rd);
}

TEST(ProgramStructure, ScalarBroadcastGoesThroughMemoryWithStrideZero) {
  // y = x + s for x [2,3] and a one-element s: s is stored, read with stride 0.
  const Model m = singleOp(OT::ADD, {{I32, {2, 3}}, {I32, {1}}}, I32);
  auto p = compileMain(m);
  ASSERT_TRUE(p.isOk()) << p.status().message();
  EXPECT_EQ(countOpcode(*p, isa::kOpLDW), 1u);
  EXPECT_EQ(countOpcode(*p, isa::kOpSTW), 1u);
  EXPECT_EQ(countOpcode(*p, opcode(isa::kClassTENSOR, isa::kFnADD)), 1u);
  const std::string listing = disassemble(*p);
  EXPECT_NE(listing.find("dims [1,1,1,6]  a [0,0,0,1]  b [0,0,0,0]"), std::string::npos) << listing;
}

TEST(ProgramStructure, TensorOutputsAreComputedInTheirSlots) {
  const Model m = singleOp(OT::MUL, {{I32, {4}}, {I32, {4}}}, I32);
  auto p = compileMain(m);
  ASSERT_TRUE(p.isOk()) << p.status().message();
  // li x3 for the bases, the MUL and halt: no copies.
  EXPECT_EQ(countOpcode(*p, opcode(isa::kClassTENSOR, isa::kFnMOV)), 0u) << disassemble(*p);
  EXPECT_EQ(countOpcode(*p, opcode(isa::kClassTENSOR, isa::kFnMUL)), 1u);
  // Slots are disjoint and inside the data region.
  std::vector<IoSlot> slots = p->inputs;
  slots.insert(slots.end(), p->outputs.begin(), p->outputs.end());
  for (const IoSlot& a : slots) {
    EXPECT_LE(a.offset + a.bytes, p->dataBytes);
    EXPECT_GE(a.offset, p->dataImage.size()) << "slots never overlap the data image";
    for (const IoSlot& b : slots) {
      if (&a != &b) {
        EXPECT_TRUE(a.offset + a.bytes <= b.offset || b.offset + b.bytes <= a.offset);
      }
    }
  }
}

TEST(ProgramStructure, OutputThatIsAnInputIsCopiedToItsOwnSlot) {
  SubgraphBuilder main;
  const uint32_t x = main.input(I32, {3});
  const uint32_t y = main.output(I32, {3});
  main.op(OT::ABS, {x}, {y});
  Model m;
  m.main = main.build();
  StepSpec step = wholeMain(m);
  step.outputs.push_back(x);  // the host also reads the input back
  auto p = compile(m, step, {{3}});
  ASSERT_TRUE(p.isOk()) << p.status().message();
  ASSERT_EQ(p->outputs.size(), 2u);
  EXPECT_NE(p->outputs[1].offset, p->inputs[0].offset);
  EXPECT_EQ(countOpcode(*p, opcode(isa::kClassTENSOR, isa::kFnMOV)), 1u) << disassemble(*p);
}

TEST(Disassembler, ListsSlotsLabelsBackedgesAndDescriptors) {
  auto p = compileMain(tensorLoop());
  ASSERT_TRUE(p.isOk()) << p.status().message();
  const std::string text = disassemble(*p);
  EXPECT_NE(text.find("; nnfab program: " + std::to_string(p->code.size()) + " instructions"), std::string::npos) << text;
  EXPECT_NE(text.find("; input  0: operand 0 TENSOR_INT32 [1] at"), std::string::npos) << text;
  EXPECT_NE(text.find("; input  1: operand 1 TENSOR_INT32 [8] at"), std::string::npos) << text;
  EXPECT_NE(text.find("; output 1: operand 3 TENSOR_INT32 [8] at"), std::string::npos) << text;
  EXPECT_NE(text.find("wdarm"), std::string::npos);
  EXPECT_NE(text.find("L0:"), std::string::npos);
  EXPECT_NE(text.find("blt "), std::string::npos);
  EXPECT_NE(text.find(", L0 !"), std::string::npos) << "the backedge branches to L0 and is marked";
  EXPECT_NE(text.find("tmul.int32 "), std::string::npos);
  EXPECT_NE(text.find("dims [1,1,1,8]  a [0,0,0,1]  b [0,0,0,0]"), std::string::npos);
  EXPECT_NE(text.find("swap r"), std::string::npos);
  EXPECT_NE(text.find("halt 0"), std::string::npos);
  // The windows line when the region has window B or D (docs/compiler.md
  // "Data windows"), then one line per instruction after the header.
  const bool windows = p->srcbStart != isa::kNoWindowStart || p->dstStart != isa::kNoWindowStart;
  EXPECT_EQ(text.find("; windows: B from ") != std::string::npos, windows) << text;
  const size_t lines = static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
  EXPECT_EQ(lines, p->code.size() + 1 + (windows ? 1 : 0) + p->inputs.size() + p->outputs.size());
}

TEST(Disassembler, SingleInstructions) {
  using namespace fabric::insn;
  EXPECT_EQ(disassembleInstruction(alu(isa::kFnADD, 1, 2, 3)), "add r1, r2, r3");
  EXPECT_EQ(disassembleInstruction(alu(isa::kFnNOT, 4, 5)), "not r4, r5");
  EXPECT_EQ(disassembleInstruction(alu(isa::kFnSEL, 1, 2, 3, 4)), "sel r1, r2, r3, r4");
  EXPECT_EQ(disassembleInstruction(brcmp(isa::kFnLT, 1, 2, 7, true)), "blt r1, r2, 7 !");
  EXPECT_EQ(disassembleInstruction(bz(3, 9)), "bz r3, 9");
  EXPECT_EQ(disassembleInstruction(li(2, -5)), "li r2, -5");
  EXPECT_EQ(disassembleInstruction(ldb(2, 0, 64)), "ldb r2, [r0 + 64]");
  EXPECT_EQ(disassembleInstruction(stw(2, 0, 68)), "stw r2, [r0 + 68]");
  EXPECT_EQ(disassembleInstruction(swap(1, 2)), "swap r1, r2");
  EXPECT_EQ(disassembleInstruction(tensor(isa::kFnSEL, isa::kTypeINT32, 1, 2, 3, 4, 128)),
            "tsel.int32 r1, r2, r3, r4, 128");
  EXPECT_EQ(disassembleInstruction(halt(3)), "halt 3");
  // A reserved bit, an unknown opcode, a BRCMP with a non-comparison.
  EXPECT_EQ(disassembleInstruction(uint64_t{1} << 31).rfind(".word", 0), 0u);
  EXPECT_EQ(disassembleInstruction(0x1F).rfind(".word", 0), 0u);
  EXPECT_EQ(disassembleInstruction(opcode(isa::kClassBRCMP, isa::kFnADD)).rfind(".word", 0), 0u);
}

}  // namespace
}  // namespace nnfab::compiler::test
