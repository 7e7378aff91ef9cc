// Field extraction and the legality rules of docs/isa.md "Encoding": an
// unknown opcode, a set RESERVED bit, a function outside the class's set, a
// TYPE the function does not accept, or a non-zero field the instruction
// does not use is ILLEGAL_INSTRUCTION. Purely combinational.
`include "nnfab_isa.svh"

module nnfab_decoder (
    input  logic [63:0] insn,
    output logic [2:0]  cls,
    output logic [4:0]  fn,      // opcode bits 4:0 (CTRL: the control opcode)
    output logic [4:0]  rd,
    output logic [4:0]  ra,
    output logic [4:0]  rb,
    output logic [4:0]  rc,
    output logic [1:0]  ty,
    output logic        backedge,
    output logic [31:0] imm,
    output logic        legal
);
  logic [7:0] opcode;
  // What the core executes beyond the base ISA (isa.json kernel.features):
  // TYPE FLOAT32 and CVT with FEATURE_FLOAT32, FC with FEATURE_FC as well;
  // otherwise they are ILLEGAL_INSTRUCTION.
  localparam logic FLOAT32_ON = NNFAB_RTL_FEATURES[NNFAB_BIT_FEATURE_FLOAT32];
  localparam logic FC_ON = NNFAB_RTL_FEATURES[NNFAB_BIT_FEATURE_FC];

  assign opcode = insn[NNFAB_F_OPCODE_LSB+:NNFAB_F_OPCODE_W];
  assign rd = insn[NNFAB_F_RD_LSB+:NNFAB_F_RD_W];
  assign ra = insn[NNFAB_F_RA_LSB+:NNFAB_F_RA_W];
  assign rb = insn[NNFAB_F_RB_LSB+:NNFAB_F_RB_W];
  assign rc = insn[NNFAB_F_RC_LSB+:NNFAB_F_RC_W];
  assign ty = insn[NNFAB_F_TYPE_LSB+:NNFAB_F_TYPE_W];
  assign backedge = insn[NNFAB_F_BACKEDGE_LSB];
  assign imm = insn[NNFAB_F_IMM_LSB+:NNFAB_F_IMM_W];
  assign cls = opcode[7:5];
  assign fn = opcode[4:0];

  // The rules of an opcode with a TYPE and the top bits of RC:
  // {known, use_rd, use_ra, use_rb, use_rc, use_imm, use_backedge, use_type}.
  function automatic [7:0] rules_of(input [7:0] op, input [1:0] t, input [2:0] rc_hi);
    logic [2:0] c;
    logic [4:0] f;
    logic type_ok, float_act;
    logic k, u_rd, u_ra, u_rb, u_rc, u_imm, u_be, u_ty;
    c = op[7:5];
    f = op[4:0];
    case (t)
      NNFAB_TYPE_INT32: type_ok = NNFAB_FNS_TYPE_INT32[f];
      NNFAB_TYPE_BOOL8: type_ok = NNFAB_FNS_TYPE_BOOL8[f];
      NNFAB_TYPE_FLOAT32: type_ok = NNFAB_FNS_TYPE_FLOAT32[f];
      default: type_ok = 1'b0;
    endcase
    // FLOAT32 ADD/SUB/MUL/DIV read a fused activation code (0..3) from RC.
    float_act = t == NNFAB_TYPE_FLOAT32 && NNFAB_FNS_FLOAT_ACTIVATION[f];
    k = 1'b1;
    u_rd = 1'b0;
    u_ra = 1'b0;
    u_rb = 1'b0;
    u_rc = 1'b0;
    u_imm = 1'b0;
    u_be = 1'b0;
    u_ty = 1'b0;
    case (c)
      NNFAB_CLASS_CTRL:
      case (f)
        NNFAB_OP_NOP, NNFAB_OP_WDARM, NNFAB_OP_WDOFF: ;
        NNFAB_OP_HALT: u_imm = 1'b1;
        NNFAB_OP_JMP: begin
          u_imm = 1'b1;
          u_be = 1'b1;
        end
        NNFAB_OP_BNZ, NNFAB_OP_BZ: begin
          u_ra = 1'b1;
          u_imm = 1'b1;
          u_be = 1'b1;
        end
        NNFAB_OP_LI: begin
          u_rd = 1'b1;
          u_imm = 1'b1;
        end
        NNFAB_OP_LDW, NNFAB_OP_LDB: begin
          u_rd = 1'b1;
          u_ra = 1'b1;
          u_imm = 1'b1;
        end
        NNFAB_OP_STW, NNFAB_OP_STB: begin
          u_ra = 1'b1;
          u_rb = 1'b1;
          u_imm = 1'b1;
        end
        NNFAB_OP_SWAP: begin
          u_rd = 1'b1;
          u_ra = 1'b1;
        end
        default: k = 1'b0;
      endcase
      NNFAB_CLASS_SALU: begin
        k = ({27'd0, f} < NNFAB_NUM_ALU_FNS) && !NNFAB_FNS_TENSOR_ONLY[f];
        u_rd = 1'b1;
        u_ra = 1'b1;
        u_rb = NNFAB_FNS_TWO_OPERANDS[f];
        u_rc = NNFAB_FNS_THREE_OPERANDS[f];
      end
      NNFAB_CLASS_BRCMP: begin
        k = NNFAB_FNS_COMPARISON[f];
        u_ra = 1'b1;
        u_rb = 1'b1;
        u_imm = 1'b1;
        u_be = 1'b1;
      end
      NNFAB_CLASS_TENSOR: begin
        k = ({27'd0, f} < NNFAB_NUM_ALU_FNS) && type_ok &&
            (FLOAT32_ON || (t != NNFAB_TYPE_FLOAT32 && f != NNFAB_FN_CVT)) && (FC_ON || f != NNFAB_FN_FC) &&
            (!float_act || rc_hi == 3'd0);
        u_rd = 1'b1;
        u_ra = 1'b1;
        u_rb = NNFAB_FNS_TWO_OPERANDS[f];
        u_rc = NNFAB_FNS_THREE_OPERANDS[f] || float_act;
        u_imm = 1'b1;
        u_ty = 1'b1;
      end
      default: k = 1'b0;
    endcase
    rules_of = {k, u_rd, u_ra, u_rb, u_rc, u_imm, u_be, u_ty};
  endfunction

`ifdef SYNTHESIS
  logic reserved, known, use_rd, use_ra, use_rb, use_rc, use_imm, use_backedge, use_type;
  assign reserved = insn[NNFAB_F_RESERVED_LSB];
  assign {known, use_rd, use_ra, use_rb, use_rc, use_imm, use_backedge, use_type} = rules_of(opcode, ty, rc[4:2]);
  assign legal = known && !reserved && (use_rd || rd == '0) && (use_ra || ra == '0) && (use_rb || rb == '0) &&
      (use_rc || rc == '0) && (use_imm || imm == '0) && (use_backedge || !backedge) && (use_type || ty == '0);
`else
  // Simulation form (docs/sim.md "Shared gated clocks and the decoder's
  // tables"): the rules depend on the opcode, TYPE and RC's top bits only,
  // so for each {opcode, TYPE} an initial block keeps whether it is known
  // and the mask of the bits that must be zero (RESERVED, each unused
  // field, RC's top bits under a fused activation). Legality is then two
  // table reads and an AND instead of the rules, on each of the
  // sequencer's three decoders at every edge; the same function fills the
  // tables, so the answers are the same (tests/rtl/test_rtl_decoder.cpp
  // compares the two forms).
  logic known_lut[1024];
  logic [63:0] zero_lut[1024];
  initial
    for (int i = 0; i < 1024; i++) begin
      logic [7:0] r;
      logic known_rc1;  // known with RC's top bits 001
      logic [6:0] unused_uses;
      logic [63:0] m;
      r = rules_of(i[9:2], i[1:0], 3'd0);
      {known_rc1, unused_uses} = rules_of(i[9:2], i[1:0], 3'd1);
      m = 64'd0;
      m[NNFAB_F_RESERVED_LSB] = 1'b1;
      if (!r[6]) m[NNFAB_F_RD_LSB+:NNFAB_F_RD_W] = '1;
      if (!r[5]) m[NNFAB_F_RA_LSB+:NNFAB_F_RA_W] = '1;
      if (!r[4]) m[NNFAB_F_RB_LSB+:NNFAB_F_RB_W] = '1;
      if (!r[3]) m[NNFAB_F_RC_LSB+:NNFAB_F_RC_W] = '1;
      if (!r[2]) m[NNFAB_F_IMM_LSB+:NNFAB_F_IMM_W] = '1;
      if (!r[1]) m[NNFAB_F_BACKEDGE_LSB] = 1'b1;
      if (!r[0]) m[NNFAB_F_TYPE_LSB+:NNFAB_F_TYPE_W] = '1;
      // RC's top bits count only where some value of them makes the opcode
      // unknown (a fused activation code above 3).
      if (r[7] && !known_rc1) m[NNFAB_F_RC_LSB+2+:3] = '1;
      known_lut[i] = r[7];
      zero_lut[i] = m;
    end
  assign legal = known_lut[{opcode, ty}] && (insn & zero_lut[{opcode, ty}]) == 64'd0;
`endif
endmodule
