// The instruction decoder's simulation form (rtl/nnfab_decoder.sv: legality
// read from tables an initial block fills) against its synthesis form (the
// rules evaluated on the word), both Verilated alone: every opcode with
// every TYPE and every RC, each other field zero or not, and random words.
// The Verilated core runs the simulation form; the netlist is the rules.
#include <gtest/gtest.h>
#include <verilated.h>

#include <cstdint>
#include <random>

#include "unit_context.h"
#include "Vnnfab_decoder.h"
#include "Vnnfab_decoder_rules.h"
#include "nnfab_isa.h"

namespace nnfab::fabric::test {
namespace {

template <typename Model>
struct Decoder {
  nnfab::rtl_test::UnitContext context;
  Model model{&context};
  // {legal, cls, fn, rd, ra, rb, rc, ty, backedge} and imm of one word.
  uint64_t operator()(uint64_t word) {
    model.insn = word;
    model.eval();
    return uint64_t{model.legal} | uint64_t{model.cls} << 1 | uint64_t{model.fn} << 4 | uint64_t{model.rd} << 9 |
           uint64_t{model.ra} << 14 | uint64_t{model.rb} << 19 | uint64_t{model.rc} << 24 |
           uint64_t{model.ty} << 29 | uint64_t{model.backedge} << 31 | uint64_t{model.imm} << 32;
  }
};

TEST(RtlDecoder, TablesGiveTheRulesAnswerForEveryOpcodeTypeAndField) {
  Decoder<Vnnfab_decoder> table;
  Decoder<Vnnfab_decoder_rules> rules;
  uint64_t checked = 0, legal = 0;
  for (uint32_t opcode = 0; opcode < 256; ++opcode) {
    for (uint32_t type = 0; type < 4; ++type) {
      for (uint32_t rc = 0; rc < 32; ++rc) {
        // Each of the other fields zero or not: RD, RA, RB, IMM, BACKEDGE, RESERVED.
        for (uint32_t set = 0; set < 64; ++set) {
          isa::Fields f{};
          f.opcode = opcode;
          f.type = type;
          f.rc = rc;
          f.rd = set & 1 ? 7 : 0;
          f.ra = set & 2 ? 9 : 0;
          f.rb = set & 4 ? 31 : 0;
          f.imm = set & 8 ? 0x80000001u : 0;
          f.backedge = set & 16 ? 1 : 0;
          f.reserved = set & 32 ? 1 : 0;
          const uint64_t w = isa::encodeFields(f);
          const uint64_t t = table(w);
          ASSERT_EQ(t, rules(w)) << std::hex << "word 0x" << w;
          legal += t & 1;
          ++checked;
        }
      }
    }
  }
  // Both answers occur, so the comparison covers legal and illegal words.
  EXPECT_GT(legal, 1000u);
  EXPECT_LT(legal, checked / 2);
  std::mt19937_64 rng(20261126);
  for (int i = 0; i < 200000; ++i) {
    // Sparse words: each field is zero often, so legal words occur.
    uint64_t w = rng() & rng() & rng();
    w = (w & ~uint64_t{0xFF}) | (rng() & 0xFF);
    ASSERT_EQ(table(w), rules(w)) << std::hex << "word 0x" << w;
  }
}

}  // namespace
}  // namespace nnfab::fabric::test
