// The tensor unit's FLOAT32 execution pipe (docs/rtl.md "FLOAT32 in the
// tensor unit"): one shared set of the pipelined binary32 units, fed one
// element per cycle at most, and the fused activation behind them.
//
//   ADD SUB         nnfab_fp_add   (8)
//   MUL             nnfab_fp_mul   (8)
//   DIV             nnfab_fp_div   (32)
//   CVT             nnfab_fp_cvt   (4; to_int: FLOAT32 -> INT32)
//   EQ..GE MAX MIN  nnfab_fp_cmp   (2)
//   ABS NEG
// then one register selecting the unit whose result leaves this cycle, then
// a second nnfab_fp_cmp for the activation of ADD/SUB/MUL/DIV (RELU, RELU1,
// RELU6; every other result passes as MAX(y, y) = y, bits unchanged). The
// latency is the unit's + 3 and depends only on fn, which is constant while
// an instruction's elements are in flight, so results leave in issue order;
// `out_valid` is the in_valid pipeline of the units themselves plus three
// stages. SEL and MOV copy bits and take the integer ALU, not this pipe.
// rst clears only the valid bits, so it also flushes an aborted instruction.
// FULL = 0 leaves out the divider and the converter: the extra lanes of the
// element engine's FLOAT32 wide mode (docs/rtl.md "FLOAT32 wide mode"),
// which never see DIV or CVT.
`include "nnfab_isa.svh"

module nnfab_tensor_fp #(
    parameter int FULL = 1  // 1: with the divider and the converter
) (
    input  logic        clk,
    input  logic        rst,
    input  logic        in_valid,
    input  logic [4:0]  fn,
    input  logic        to_int,   // CVT: source FLOAT32 (result INT32)
    input  logic [1:0]  act,      // fused activation (0 for functions without one)
    input  logic [31:0] a,
    input  logic [31:0] b,
    output logic        out_valid,
    output logic [31:0] y
);
  localparam logic [3:0] OP_EQ = 4'd0, OP_MAX = 4'd6, OP_MIN = 4'd7, OP_RELU = 4'd8,
      OP_ABS = 4'd11, OP_NEG = 4'd12;

  logic use_add, use_mul, use_div, use_cvt, use_cmp;
  logic [3:0] cmp_op;
  always_comb begin
    use_add = fn == NNFAB_FN_ADD || fn == NNFAB_FN_SUB;
    use_mul = fn == NNFAB_FN_MUL;
    use_div = fn == NNFAB_FN_DIV;
    use_cvt = fn == NNFAB_FN_CVT;
    use_cmp = !use_add && !use_mul && !use_div && !use_cvt;
    case (fn)
      NNFAB_FN_MAX: cmp_op = OP_MAX;
      NNFAB_FN_MIN: cmp_op = OP_MIN;
      NNFAB_FN_ABS: cmp_op = OP_ABS;
      NNFAB_FN_NEG: cmp_op = OP_NEG;
      // EQ NE LT LE GT GE are consecutive in both encodings
      default: cmp_op = OP_EQ + 4'(fn - NNFAB_FN_EQ);
    endcase
  end

  logic add_v, mul_v, div_v, cvt_v, cmp_v;
  logic [31:0] add_y, mul_y, div_y, cvt_y, cmp_y;
  /* verilator lint_off UNUSEDSIGNAL */
  logic quiet, dc_quiet;  // below
  /* verilator lint_on UNUSEDSIGNAL */

  nnfab_fp_add u_add (
      .clk(clk),
      .rst(rst),
      .in_valid(in_valid && use_add),
      .sub(fn == NNFAB_FN_SUB),
      .a(a),
      .b(b),
      .out_valid(add_v),
      .y(add_y)
  );

  nnfab_fp_mul u_mul (
      .clk(clk),
      .rst(rst),
      .in_valid(in_valid && use_mul),
      .a(a),
      .b(b),
      .out_valid(mul_v),
      .y(mul_y)
  );

  if (FULL != 0) begin : g_full
    nnfab_fp_div u_div (
        .clk(clk),
        .rst(rst),
        .in_valid(in_valid && use_div),
        .a(a),
        .b(b),
        .out_valid(div_v),
        .y(div_y)
    );

    nnfab_fp_cvt u_cvt (
        .clk(clk),
        .rst(rst),
        .in_valid(in_valid && use_cvt),
        .to_int(to_int),
        .a(a),
        .out_valid(cvt_v),
        .y(cvt_y)
    );
    assign dc_quiet = u_div.v == '0 && u_cvt.v == '0;
  end else begin : g_lane
    assign dc_quiet = 1'b1;
    assign div_v = 1'b0;
    assign div_y = 32'd0;
    assign cvt_v = 1'b0;
    assign cvt_y = 32'd0;
    /* verilator lint_off UNUSEDSIGNAL */
    logic unused_to_int;
    assign unused_to_int = to_int;
    /* verilator lint_on UNUSEDSIGNAL */
  end

  nnfab_fp_cmp u_cmp (
      .clk(clk),
      .rst(rst),
      .in_valid(in_valid && use_cmp),
      .op(cmp_op),
      .a(a),
      .b(b),
      .out_valid(cmp_v),
      .y(cmp_y)
  );

  // The unit whose result leaves: at most one per cycle, since fn is
  // constant while results are in flight.
  logic r_v;
  logic [31:0] r_y;
  always_ff @(posedge clk) begin
    if (rst) r_v <= 1'b0;
    else r_v <= add_v || mul_v || div_v || cvt_v || cmp_v;
    // Enabled like the units' stages: r_y is read only with r_v.
    if (add_v || mul_v || div_v || cvt_v || cmp_v) r_y <= add_v ? add_y : mul_v ? mul_y : div_v ? div_y : cvt_v ? cvt_y : cmp_y;
  end

  nnfab_fp_cmp u_act (
      .clk(clk),
      .rst(rst),
      .in_valid(r_v),
      .op(act == 2'd0 ? OP_MAX : OP_RELU + {2'd0, act} - 4'd1),
      .a(r_y),
      .b(r_y),
      .out_valid(out_valid),
      .y(y)
  );

  // Nothing in flight in any unit (the tensor unit's clock-gate check reads
  // it; no logic in synthesis uses it).
  assign quiet = u_add.v == '0 && u_mul.v == '0 && u_cmp.v == '0 && !r_v && u_act.v == '0 &&
      dc_quiet;

`ifndef SYNTHESIS
  // Every issue goes to exactly one unit; a result leaves from one unit only.
  always_ff @(posedge clk)
    if (!rst) begin
      assert ({31'd0, add_v} + {31'd0, mul_v} + {31'd0, div_v} + {31'd0, cvt_v} + {31'd0, cmp_v} <= 32'd1)
      else $error("nnfab_tensor_fp: two FP units finished in the same cycle (fn changed while in flight)");
      assert (!in_valid || act == 2'd0 || NNFAB_FNS_FLOAT_ACTIVATION[fn])
      else $error("nnfab_tensor_fp: activation on a function without one");
      assert (FULL != 0 || !in_valid || (!use_div && !use_cvt)) else $error("nnfab_tensor_fp: DIV or CVT on a lane without them");
    end
`endif
endmodule
