// Binary32 comparisons, MAX/MIN, the fused activations and the sign-bit
// operations (docs/rtl.md "Floating-point units"), with the semantics of the
// CPU executor (the FLOAT32 contract):
//   EQ NE LT LE GT GE  IEEE: every comparison with a NaN is false except NE,
//                      -0 == +0; y = 1 or 0
//   MAX  std::max(a, b) = (a < b) ? b : a   (MAX(NaN, 1) = NaN, MAX(1, NaN) = 1,
//   MIN  std::min(a, b) = (b < a) ? b : a    MAX(-0, +0) = -0)
//   RELU  max(a, 0); RELU1 min(max(a, -1), 1); RELU6 min(max(a, 0), 6)
//         (NaN stays NaN, RELU(-0) = -0)
//   ABS NEG  clear / flip the sign bit only (NaN payloads kept)
// b is ignored by the one-operand functions. Bits pass through unchanged
// (no canonical NaN: nothing here computes a new value).
// Latency 2: y is valid 2 cycles after in_valid, one operation per cycle.
//   1  the magnitude compares (a vs b, a vs the constants 0, 1, 6)
//   2  the selection
module nnfab_fp_cmp (
    input  logic        clk,
    input  logic        rst,
    input  logic        in_valid,
    input  logic [3:0]  op,
    input  logic [31:0] a,
    input  logic [31:0] b,
    output logic        out_valid,
    output logic [31:0] y
);
  localparam logic [3:0] OP_EQ = 4'd0, OP_NE = 4'd1, OP_LT = 4'd2, OP_LE = 4'd3,
      OP_GT = 4'd4, OP_GE = 4'd5, OP_MAX = 4'd6, OP_MIN = 4'd7, OP_RELU = 4'd8,
      OP_RELU1 = 4'd9, OP_RELU6 = 4'd10, OP_ABS = 4'd11, OP_NEG = 4'd12;
  localparam logic [30:0] ONE = 31'h3F800000, SIX = 31'h40C00000;

  logic [1:0] v;
  always_ff @(posedge clk) begin
    if (rst) v <= '0;
    else v <= {v[0], in_valid};
  end
  assign out_valid = v[1];

  // Every stage's registers load only when the stage before holds a valid
  // operation, with the stage's logic inside the enabled block, so the
  // Verilated model skips an idle unit (docs/sim.md "Speed"); out of a
  // valid cycle the registers keep stale values nobody reads.

  // ---- stage 1
  logic s1_lt, s1_gt, s1_eq, s1_neg, s1_lt_m1, s1_gt_1, s1_gt_6;
  logic [3:0] s1_op;
  logic [31:0] s1_a, s1_b;
  always_ff @(posedge clk) begin
    if (in_valid) begin : stage1
      logic a_nan, b_nan, unord, both_zero, mag_lt, mag_gt, mag_eq;
      a_nan = a[30:23] == 8'hFF && a[22:0] != 23'd0;
      b_nan = b[30:23] == 8'hFF && b[22:0] != 23'd0;
      unord = a_nan || b_nan;
      both_zero = a[30:0] == 31'd0 && b[30:0] == 31'd0;
      mag_lt = a[30:0] < b[30:0];
      mag_gt = b[30:0] < a[30:0];
      mag_eq = a[30:0] == b[30:0];
      s1_op <= op;
      s1_a <= a;
      s1_b <= b;
      // a < b: negative below positive, larger magnitude lower when negative
      s1_lt <= !unord && !both_zero &&
               (a[31] ? (!b[31] || mag_gt) : (!b[31] && mag_lt));
      s1_gt <= !unord && !both_zero &&
               (b[31] ? (!a[31] || mag_lt) : (!a[31] && mag_gt));
      s1_eq <= !unord && ((a[31] == b[31] && mag_eq) || both_zero);
      // a against the activations' constants (NaN compares false)
      s1_neg <= !a_nan && a[31] && a[30:0] != 31'd0;  // a < 0
      s1_lt_m1 <= !a_nan && a[31] && a[30:0] > ONE;   // a < -1
      s1_gt_1 <= !a_nan && !a[31] && a[30:0] > ONE;   // 1 < a
      s1_gt_6 <= !a_nan && !a[31] && a[30:0] > SIX;   // 6 < a
    end
  end

  // ---- stage 2
  always_ff @(posedge clk) begin
    if (v[0]) begin
      case (s1_op)
        OP_EQ: y <= {31'd0, s1_eq};
        OP_NE: y <= {31'd0, !s1_eq};
        OP_LT: y <= {31'd0, s1_lt};
        OP_LE: y <= {31'd0, s1_lt || s1_eq};
        OP_GT: y <= {31'd0, s1_gt};
        OP_GE: y <= {31'd0, s1_gt || s1_eq};
        OP_MAX: y <= s1_lt ? s1_b : s1_a;
        OP_MIN: y <= s1_gt ? s1_b : s1_a;
        OP_RELU: y <= s1_neg ? 32'd0 : s1_a;
        OP_RELU1: y <= s1_lt_m1 ? {1'b1, ONE} : s1_gt_1 ? {1'b0, ONE} : s1_a;
        OP_RELU6: y <= s1_neg ? 32'd0 : s1_gt_6 ? {1'b0, SIX} : s1_a;
        OP_ABS: y <= {1'b0, s1_a[30:0]};
        OP_NEG: y <= {~s1_a[31], s1_a[30:0]};
        default: y <= 32'd0;
      endcase
    end
  end
endmodule
