// One 512-bit beat of elementwise results: 16 INT32 lanes or 64 BOOL8 lanes
// of the shared ALU's functions (nnfab_alu, its plain build), for the tensor
// unit's vector engine.
// The lanes are functions called inside `if (en)`, not nnfab_alu instances:
// a Verilated model evaluates every instance's logic on every clock edge, but
// skips the body of an untaken `if`, so the 80 lanes cost the co-simulation
// nothing while the engine does not step (docs/sim.md "Where the time goes").
// y is 0 while `en` is low; the engine takes y only when it steps, and ties
// `en` high for synthesis (nnfab_tensor_vec, step_gate).
// The functions are nnfab_alu's plain W = 32 and W = 8 builds, case for case;
// the vector tests of test_rtl and the differential suite compare the two.
`include "nnfab_isa.svh"

module nnfab_vec_alu (
    input  logic         en,
    input  logic [4:0]   fn,
    input  logic         byte_lanes,
    input  logic [511:0] a,
    input  logic [511:0] b,
    input  logic [511:0] c,
    output logic [511:0] y
);
  // An INT32 lane: two's complement, signed comparisons.
  function automatic [31:0] lane32(input [4:0] f, input [31:0] x, input [31:0] z, input [31:0] w);
    logic lt, gt, eq;
    logic [31:0] arith, neg_x;
    lt = $signed(x) < $signed(z);
    gt = $signed(z) < $signed(x);
    eq = x == z;
    neg_x = 32'd0 - x;
    case (f)
      NNFAB_FN_ADD: arith = x + z;
      NNFAB_FN_SUB: arith = x - z;
      NNFAB_FN_MUL: arith = x * z;
      NNFAB_FN_MAX: arith = lt ? z : x;
      NNFAB_FN_MIN: arith = gt ? z : x;
      NNFAB_FN_ABS: arith = x[31] ? neg_x : x;
      NNFAB_FN_NEG: arith = neg_x;
      default: arith = 32'd0;
    endcase
    case (f)
      NNFAB_FN_EQ: lane32 = {31'd0, eq};
      NNFAB_FN_NE: lane32 = {31'd0, !eq};
      NNFAB_FN_LT: lane32 = {31'd0, lt};
      NNFAB_FN_LE: lane32 = {31'd0, !gt};
      NNFAB_FN_GT: lane32 = {31'd0, gt};
      NNFAB_FN_GE: lane32 = {31'd0, !lt};
      NNFAB_FN_AND: lane32 = {31'd0, x != 32'd0 && z != 32'd0};
      NNFAB_FN_OR: lane32 = {31'd0, x != 32'd0 || z != 32'd0};
      NNFAB_FN_NOT: lane32 = {31'd0, x == 32'd0};
      NNFAB_FN_SEL: lane32 = x != 32'd0 ? z : w;
      NNFAB_FN_MOV: lane32 = x;
      default: lane32 = arith;
    endcase
  endfunction

  // A BOOL8 lane: unsigned byte comparisons, no INT32 arithmetic (0).
  function automatic [7:0] lane8(input [4:0] f, input [7:0] x, input [7:0] z, input [7:0] w);
    logic lt, gt, eq;
    lt = x < z;
    gt = z < x;
    eq = x == z;
    case (f)
      NNFAB_FN_EQ: lane8 = {7'd0, eq};
      NNFAB_FN_NE: lane8 = {7'd0, !eq};
      NNFAB_FN_LT: lane8 = {7'd0, lt};
      NNFAB_FN_LE: lane8 = {7'd0, !gt};
      NNFAB_FN_GT: lane8 = {7'd0, gt};
      NNFAB_FN_GE: lane8 = {7'd0, !lt};
      NNFAB_FN_AND: lane8 = {7'd0, x != 8'd0 && z != 8'd0};
      NNFAB_FN_OR: lane8 = {7'd0, x != 8'd0 || z != 8'd0};
      NNFAB_FN_NOT: lane8 = {7'd0, x == 8'd0};
      NNFAB_FN_SEL: lane8 = x != 8'd0 ? z : w;
      NNFAB_FN_MOV: lane8 = x;
      default: lane8 = 8'd0;
    endcase
  endfunction

  always_comb begin
    y = '0;
    if (en) begin
      if (byte_lanes) for (int i = 0; i < 64; i++) y[i*8+:8] = lane8(fn, a[i*8+:8], b[i*8+:8], c[i*8+:8]);
      else for (int i = 0; i < 16; i++) y[i*32+:32] = lane32(fn, a[i*32+:32], b[i*32+:32], c[i*32+:32]);
    end
  end
endmodule
