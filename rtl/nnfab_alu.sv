// The one scalar ALU of docs/isa.md "ALU functions", shared by SALU, BRCMP
// and the tensor unit's element path. Operands are 32-bit: INT32 as two's
// complement, BOOL8 as a zero-extended byte, so one signed comparison serves
// both types. DIV is not here: it is the iterative nnfab_divider.
// W = 8 is the BOOL8 byte lane of the tensor vector path: unsigned byte
// comparisons and no INT32 arithmetic (those functions give 0).
// LATE_LAST = 1 (the sequencer, which forwards y in the cycle it is computed,
// docs/rtl.md "Sequencer pipeline"): the same functions, built so that the
// carry chain and the multiplier are one LUT from y. ADD, SUB, NEG and ABS
// share one adder; its sum and the product enter a final AND-OR with the
// early result. ABC cannot see that a carry chain's output arrives late, so
// the (* keep *) nets fence that last level off.
`include "nnfab_isa.svh"

module nnfab_alu #(
    parameter int W = 32,
    parameter int LATE_LAST = 0
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

  generate
    if (LATE_LAST != 0 && W == 32) begin : g_late
      logic signed [31:0] sa, sb;
      logic [31:0] product, ax, bx, diff_in, sum;
      (* keep *) logic [31:0] early;
      logic take_sum, take_mul, negate, subtract;
      // The decodes as single LUTs over {a[31], fn}, in front of the chain.
      localparam logic [31:0] F_ADD = 32'd1 << NNFAB_FN_ADD;
      localparam logic [31:0] F_SUB = 32'd1 << NNFAB_FN_SUB;
      localparam logic [31:0] F_MUL = 32'd1 << NNFAB_FN_MUL;
      localparam logic [31:0] F_ABS = 32'd1 << NNFAB_FN_ABS;
      localparam logic [31:0] F_NEG = 32'd1 << NNFAB_FN_NEG;
      nnfab_lut6 #(.INIT({2{F_NEG | F_ABS}})) u_negate (.i({a[31], fn}), .o(negate));
      nnfab_lut6 #(.INIT({2{~F_ADD}})) u_subtract (.i({a[31], fn}), .o(subtract));
      nnfab_lut6 #(.INIT({F_ADD | F_SUB | F_NEG | F_ABS, F_ADD | F_SUB | F_NEG})) u_take_sum (.i({a[31], fn}), .o(take_sum));
      nnfab_lut6 #(.INIT({2{F_MUL}})) u_take_mul (.i({a[31], fn}), .o(take_mul));
      assign ax = negate ? 32'd0 : a;
      assign bx = negate ? a : b;
      assign diff_in = subtract ? ~bx : bx;
      // ax + (subtract ? -bx : bx) in one chain, `subtract` as its carry-in.
      assign sum = ax + diff_in + {31'd0, subtract};
      assign sa = a;
      assign sb = b;
      assign lt = sa < sb;
      assign gt = sb < sa;
      assign product = a * b;
      always_comb begin
        case (fn)
          NNFAB_FN_MAX: arith = lt ? b : a;
          NNFAB_FN_MIN: arith = gt ? b : a;
          NNFAB_FN_ABS: arith = a[31] ? ZERO : a;
          default: arith = ZERO;
        endcase
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
      assign y = early | ({32{take_sum}} & sum) | ({32{take_mul}} & product);
    end else begin : g_plain
      if (W == 32) begin : g_int32
        logic signed [31:0] sa, sb;
        logic [31:0] product, neg_a;
        assign neg_a = 32'd0 - a;
        assign sa = a;
        assign sb = b;
        assign lt = sa < sb;
        assign gt = sb < sa;
        assign product = a * b;
        always_comb begin
          case (fn)
            NNFAB_FN_ADD: arith = a + b;
            NNFAB_FN_SUB: arith = a - b;
            NNFAB_FN_MUL: arith = product;
            NNFAB_FN_MAX: arith = lt ? b : a;
            NNFAB_FN_MIN: arith = gt ? b : a;
            NNFAB_FN_ABS: arith = a[31] ? neg_a : a;
            NNFAB_FN_NEG: arith = neg_a;
            default: arith = ZERO;
          endcase
        end
      end else begin : g_bool8
        assign lt = a < b;
        assign gt = b < a;
        assign arith = ZERO;
      end
      always_comb begin
        case (fn)
          NNFAB_FN_EQ: y = eq ? ONE : ZERO;
          NNFAB_FN_NE: y = eq ? ZERO : ONE;
          NNFAB_FN_LT: y = lt ? ONE : ZERO;
          NNFAB_FN_LE: y = gt ? ZERO : ONE;
          NNFAB_FN_GT: y = gt ? ONE : ZERO;
          NNFAB_FN_GE: y = lt ? ZERO : ONE;
          NNFAB_FN_AND: y = (a != ZERO) && (b != ZERO) ? ONE : ZERO;
          NNFAB_FN_OR: y = (a != ZERO) || (b != ZERO) ? ONE : ZERO;
          NNFAB_FN_NOT: y = a == ZERO ? ONE : ZERO;
          NNFAB_FN_SEL: y = (a != ZERO) ? b : c;
          NNFAB_FN_MOV: y = a;
          default: y = arith;
        endcase
      end
    end
  endgenerate
endmodule
