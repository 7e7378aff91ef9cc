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
// DECODED = 1 (the tensor unit's vector engine): the same functions selected
// by `onehot` (bit f set for function f, from a register of the caller:
// `1 << fn`, or zero) instead of `fn`, as an AND-OR of the candidate results.
// A case on `fn` over data-dependent results maps to LUT + MUXF7/8/9 trees
// behind the comparators' carry chains (9 cells in the whole core); with the
// selects in flip-flops each result needs one LUT to be masked and the OR
// of a handful of them is two more. `fn` is unused there and `onehot`
// elsewhere.
`include "nnfab_isa.svh"

module nnfab_alu #(
    parameter int W = 32,
    parameter int LATE_LAST = 0,
    parameter int DECODED = 0
) (
    /* verilator lint_off UNUSEDSIGNAL */
    input  logic [4:0]   fn,
    input  logic [31:0]  onehot,
    /* verilator lint_on UNUSEDSIGNAL */
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
    end else if (DECODED != 0) begin : g_decoded
      logic anz, bnz, logic_bit;
      logic [W-1:0] common;
      assign anz = a != ZERO;
      assign bnz = b != ZERO;
      assign logic_bit = (onehot[NNFAB_FN_AND] & anz & bnz) | (onehot[NNFAB_FN_OR] & (anz | bnz)) |
          (onehot[NNFAB_FN_NOT] & !anz);
      assign common = ({W{onehot[NNFAB_FN_SEL]}} & (anz ? b : c)) | ({W{onehot[NNFAB_FN_MOV]}} & a);
      if (W == 32) begin : g_int32
        // The carry chains' outputs (sum, -a, lt, gt) arrive last; ABC
        // takes them for early inputs and may bury them in a LUT tree, so
        // (* keep *) nets cut the logic into one LUT per bit behind the
        // chains (late1, the comparison bit) and one final LUT (y), each
        // with at most six inputs.
        logic signed [31:0] sa, sb;
        logic [31:0] product, sum, neg_a;
        logic sub;
        (* keep *) logic [31:0] early, mm_x, mm_z, late1;
        (* keep *) logic take_sum, take_mm, negsel, t_lt, t_gt, t_eq, cmp;
        assign sa = a;
        assign sb = b;
        assign lt = sa < sb;
        assign gt = sb < sa;
        assign product = a * b;
        // ADD and SUB share one adder, its operand inverted by the
        // registered select (a data-dependent mux in front of the chain
        // would lengthen it); NEG and ABS share -a.
        assign sub = onehot[NNFAB_FN_SUB];
        assign sum = a + (sub ? ~b : b) + {31'd0, sub};
        assign neg_a = 32'd0 - a;
        assign take_sum = onehot[NNFAB_FN_ADD] | sub;
        // MAX = lt ? b : a; MIN = gt ? b : a, i.e. lt ? a : b (a == b when
        // neither is set).
        assign take_mm = onehot[NNFAB_FN_MAX] | onehot[NNFAB_FN_MIN];
        assign mm_x = onehot[NNFAB_FN_MAX] ? b : a;
        assign mm_z = onehot[NNFAB_FN_MAX] ? a : b;
        assign late1 = ({32{take_sum}} & sum) | ({32{take_mm}} & (lt ? mm_x : mm_z));
        assign negsel = onehot[NNFAB_FN_NEG] | (onehot[NNFAB_FN_ABS] & a[31]);
        // The comparisons' bit 0: lt, gt and eq (one of them is set)
        // against the function's truth table.
        assign t_lt = onehot[NNFAB_FN_LT] | onehot[NNFAB_FN_LE] | onehot[NNFAB_FN_NE];
        assign t_gt = onehot[NNFAB_FN_GT] | onehot[NNFAB_FN_GE] | onehot[NNFAB_FN_NE];
        assign t_eq = onehot[NNFAB_FN_EQ] | onehot[NNFAB_FN_LE] | onehot[NNFAB_FN_GE];
        assign cmp = (lt & t_lt) | (gt & t_gt) | (eq & t_eq);
        assign early = common | {31'd0, logic_bit} | ({32{onehot[NNFAB_FN_MUL]}} & product) |
            ({32{onehot[NNFAB_FN_ABS] & !a[31]}} & a);
        assign arith = late1 | ({32{negsel}} & neg_a);
        assign y = early | arith | {31'd0, cmp};
      end else begin : g_bool8
        logic cmp;
        assign lt = a < b;
        assign gt = b < a;
        assign cmp = (lt & (onehot[NNFAB_FN_LT] | onehot[NNFAB_FN_LE] | onehot[NNFAB_FN_NE])) |
            (gt & (onehot[NNFAB_FN_GT] | onehot[NNFAB_FN_GE] | onehot[NNFAB_FN_NE])) |
            (eq & (onehot[NNFAB_FN_EQ] | onehot[NNFAB_FN_LE] | onehot[NNFAB_FN_GE]));
        // A cut for ABC: the byte lane's result enters the INT32 lanes'
        // final LUTs in nnfab_vec_alu as one input.
        (* keep *) logic [7:0] y_cut;
        assign arith = ZERO;  // no INT32 arithmetic in a byte lane
        assign y_cut = common | arith | {7'd0, cmp | logic_bit};
        assign y = y_cut;
      end
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
