// One 512-bit beat of elementwise results: 16 INT32 lanes or 64 BOOL8 lanes
// of the shared ALU (nnfab_alu, its DECODED form), for the tensor unit's
// vector engine. The function comes as two registered one-hot selects, one
// per lane width (the other is zero), so the lanes' results are ORed rather
// than multiplexed by fn and then by width (docs/rtl.md "Timing").
`include "nnfab_isa.svh"

module nnfab_vec_alu (
    input  logic [31:0]  onehot32,  // 1 << fn for INT32 lanes, else 0
    input  logic [31:0]  onehot8,   // 1 << fn for BOOL8 lanes, else 0
    input  logic [511:0] a,
    input  logic [511:0] b,
    input  logic [511:0] c,
    output logic [511:0] y
);
  logic [511:0] y32, y8;

  genvar i;
  generate
    for (i = 0; i < 16; i++) begin : g_int32
      nnfab_alu #(
          .W(32),
          .DECODED(1)
      ) u_lane (
          .fn(5'd0),
          .onehot(onehot32),
          .a(a[i*32+:32]),
          .b(b[i*32+:32]),
          .c(c[i*32+:32]),
          .y(y32[i*32+:32])
      );
    end
    for (i = 0; i < 64; i++) begin : g_bool8
      nnfab_alu #(
          .W(8),
          .DECODED(1)
      ) u_lane (
          .fn(5'd0),
          .onehot(onehot8),
          .a(a[i*8+:8]),
          .b(b[i*8+:8]),
          .c(c[i*8+:8]),
          .y(y8[i*8+:8])
      );
    end
  endgenerate

  assign y = y32 | y8;
endmodule
