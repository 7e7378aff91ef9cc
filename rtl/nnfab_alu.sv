// The one scalar ALU of docs/isa.md "ALU functions", shared by SALU, BRCMP
// and the tensor unit's element path. Operands are 32-bit: INT32 as two's
// complement, BOOL8 as a zero-extended byte, so one signed comparison serves
// both types. DIV is not here: it is the iterative nnfab_divider.
// W = 8 is the BOOL8 byte lane of the tensor vector path: unsigned byte
// comparisons and no INT32 arithmetic (those functions give 0).
`include "nnfab_isa.svh"

module nnfab_alu #(
    parameter int W = 32
) (
    input  logic [4:0]   fn,
    input  logic [W-1:0] a,
    input  logic [W-1:0] b,
    input  logic [W-1:0] c,
    output logic [W-1:0] y
);
  localparam logic [W-1:0] ZERO = '0;
  localparam logic [W-1:0] ONE = {{(W - 1) {1'b0}}, 1'b1};
  logic [W-1:0] arith;
  logic lt, gt, eq;

  assign eq = a == b;

  // The carry-chain and multiplier results arrive last: ADD, SUB, NEG and
  // ABS share one adder (NEG and ABS as 0 - a), and it and the product enter
  // one AND-OR level at the output, while everything else goes through the
  // early mux (the sequencer forwards y in the same cycle, docs/rtl.md
  // "Sequencer pipeline").
  logic [W-1:0] early, late;
  generate
    if (W == 32) begin : g_int32
      logic signed [31:0] sa, sb;
      logic [31:0] product, ax, bx, addsub;
      logic negate, take_sum;
      assign negate = fn == NNFAB_FN_NEG || fn == NNFAB_FN_ABS;
      assign ax = negate ? 32'd0 : a;
      assign bx = negate ? a : b;
      assign addsub = fn == NNFAB_FN_ADD ? ax + bx : ax - bx;
      assign take_sum = fn == NNFAB_FN_ADD || fn == NNFAB_FN_SUB || fn == NNFAB_FN_NEG || (fn == NNFAB_FN_ABS && a[31]);
      assign sa = a;
      assign sb = b;
      assign lt = sa < sb;
      assign gt = sb < sa;
      assign product = a * b;
      assign late = ({32{take_sum}} & addsub) | ({32{fn == NNFAB_FN_MUL}} & product);
      always_comb begin
        case (fn)
          NNFAB_FN_MAX: arith = lt ? b : a;
          NNFAB_FN_MIN: arith = gt ? b : a;
          NNFAB_FN_ABS: arith = a[31] ? ZERO : a;
          default: arith = ZERO;
        endcase
      end
    end else begin : g_bool8
      assign lt = a < b;
      assign gt = b < a;
      assign arith = ZERO;
      assign late = ZERO;
    end
  endgenerate

  always_comb begin
    case (fn)
      NNFAB_FN_EQ: early = eq ? ONE : ZERO;
      NNFAB_FN_NE: early = eq ? ZERO : ONE;
      NNFAB_FN_LT: early = lt ? ONE : ZERO;
      NNFAB_FN_LE: early = gt ? ZERO : ONE;
      NNFAB_FN_GT: early = gt ? ONE : ZERO;
      NNFAB_FN_GE: early = lt ? ZERO : ONE;
      NNFAB_FN_AND: early = (a != ZERO) && (b != ZERO) ? ONE : ZERO;
      NNFAB_FN_OR: early = (a != ZERO) || (b != ZERO) ? ONE : ZERO;
      NNFAB_FN_NOT: early = a == ZERO ? ONE : ZERO;
      NNFAB_FN_SEL: early = (a != ZERO) ? b : c;
      NNFAB_FN_MOV: early = a;
      default: early = arith;
    endcase
  end
  assign y = early | late;
endmodule
