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
  logic reserved;
  logic known, use_rd, use_ra, use_rb, use_rc, use_imm, use_backedge, use_type;
  logic type_ok;
  // What the core executes beyond the base ISA (isa.json kernel.features):
  // TYPE FLOAT32 and CVT with FEATURE_FLOAT32, FC with FEATURE_FC as well;
  // otherwise they are ILLEGAL_INSTRUCTION.
  localparam logic FLOAT32_ON = NNFAB_RTL_FEATURES[NNFAB_BIT_FEATURE_FLOAT32];
  localparam logic FC_ON = NNFAB_RTL_FEATURES[NNFAB_BIT_FEATURE_FC];
  // FLOAT32 ADD/SUB/MUL/DIV read a fused activation code (0..3) from RC.
  logic float_act;
  assign float_act = ty == NNFAB_TYPE_FLOAT32 && NNFAB_FNS_FLOAT_ACTIVATION[fn];

  assign opcode = insn[NNFAB_F_OPCODE_LSB+:NNFAB_F_OPCODE_W];
  assign rd = insn[NNFAB_F_RD_LSB+:NNFAB_F_RD_W];
  assign ra = insn[NNFAB_F_RA_LSB+:NNFAB_F_RA_W];
  assign rb = insn[NNFAB_F_RB_LSB+:NNFAB_F_RB_W];
  assign rc = insn[NNFAB_F_RC_LSB+:NNFAB_F_RC_W];
  assign ty = insn[NNFAB_F_TYPE_LSB+:NNFAB_F_TYPE_W];
  assign backedge = insn[NNFAB_F_BACKEDGE_LSB];
  assign reserved = insn[NNFAB_F_RESERVED_LSB];
  assign imm = insn[NNFAB_F_IMM_LSB+:NNFAB_F_IMM_W];
  assign cls = opcode[7:5];
  assign fn = opcode[4:0];

  always_comb begin
    case (ty)
      NNFAB_TYPE_INT32: type_ok = NNFAB_FNS_TYPE_INT32[fn];
      NNFAB_TYPE_BOOL8: type_ok = NNFAB_FNS_TYPE_BOOL8[fn];
      NNFAB_TYPE_FLOAT32: type_ok = NNFAB_FNS_TYPE_FLOAT32[fn];
      default: type_ok = 1'b0;
    endcase
  end

  always_comb begin
    known = 1'b1;
    use_rd = 1'b0;
    use_ra = 1'b0;
    use_rb = 1'b0;
    use_rc = 1'b0;
    use_imm = 1'b0;
    use_backedge = 1'b0;
    use_type = 1'b0;
    case (cls)
      NNFAB_CLASS_CTRL:
      case (fn)
        NNFAB_OP_NOP, NNFAB_OP_WDARM, NNFAB_OP_WDOFF: ;
        NNFAB_OP_HALT: use_imm = 1'b1;
        NNFAB_OP_JMP: begin
          use_imm = 1'b1;
          use_backedge = 1'b1;
        end
        NNFAB_OP_BNZ, NNFAB_OP_BZ: begin
          use_ra = 1'b1;
          use_imm = 1'b1;
          use_backedge = 1'b1;
        end
        NNFAB_OP_LI: begin
          use_rd = 1'b1;
          use_imm = 1'b1;
        end
        NNFAB_OP_LDW, NNFAB_OP_LDB: begin
          use_rd = 1'b1;
          use_ra = 1'b1;
          use_imm = 1'b1;
        end
        NNFAB_OP_STW, NNFAB_OP_STB: begin
          use_ra = 1'b1;
          use_rb = 1'b1;
          use_imm = 1'b1;
        end
        NNFAB_OP_SWAP: begin
          use_rd = 1'b1;
          use_ra = 1'b1;
        end
        default: known = 1'b0;
      endcase
      NNFAB_CLASS_SALU: begin
        known = ({27'd0, fn} < NNFAB_NUM_ALU_FNS) && !NNFAB_FNS_TENSOR_ONLY[fn];
        use_rd = 1'b1;
        use_ra = 1'b1;
        use_rb = NNFAB_FNS_TWO_OPERANDS[fn];
        use_rc = NNFAB_FNS_THREE_OPERANDS[fn];
      end
      NNFAB_CLASS_BRCMP: begin
        known = NNFAB_FNS_COMPARISON[fn];
        use_ra = 1'b1;
        use_rb = 1'b1;
        use_imm = 1'b1;
        use_backedge = 1'b1;
      end
      NNFAB_CLASS_TENSOR: begin
        known = ({27'd0, fn} < NNFAB_NUM_ALU_FNS) && type_ok &&
            (FLOAT32_ON || (ty != NNFAB_TYPE_FLOAT32 && fn != NNFAB_FN_CVT)) && (FC_ON || fn != NNFAB_FN_FC) &&
            (!float_act || rc[4:2] == 3'd0);
        use_rd = 1'b1;
        use_ra = 1'b1;
        use_rb = NNFAB_FNS_TWO_OPERANDS[fn];
        use_rc = NNFAB_FNS_THREE_OPERANDS[fn] || float_act;
        use_imm = 1'b1;
        use_type = 1'b1;
      end
      default: known = 1'b0;
    endcase
  end

  assign legal = known && !reserved && (use_rd || rd == '0) && (use_ra || ra == '0) && (use_rb || rb == '0) &&
      (use_rc || rc == '0) && (use_imm || imm == '0) && (use_backedge || !backedge) && (use_type || ty == '0);
endmodule
