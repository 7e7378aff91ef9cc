// One 512-bit beat of elementwise results: 16 INT32 lanes or 64 BOOL8 lanes
// of the shared ALU (nnfab_alu), for the tensor unit's vector engine.
`include "nnfab_isa.svh"

module nnfab_vec_alu (
    input  logic [4:0]   fn,
    input  logic         byte_lanes,
    input  logic [511:0] a,
    input  logic [511:0] b,
    input  logic [511:0] c,
    output logic [511:0] y
);
  logic [511:0] y32, y8;

  genvar i;
  generate
    for (i = 0; i < 16; i++) begin : g_int32
      nnfab_alu #(.W(32)) u_lane (
          .fn(fn),
          .a(a[i*32+:32]),
          .b(b[i*32+:32]),
          .c(c[i*32+:32]),
          .y(y32[i*32+:32])
      );
    end
    for (i = 0; i < 64; i++) begin : g_bool8
      nnfab_alu #(.W(8)) u_lane (
          .fn(fn),
          .a(a[i*8+:8]),
          .b(b[i*8+:8]),
          .c(c[i*8+:8]),
          .y(y8[i*8+:8])
      );
    end
  endgenerate

  assign y = byte_lanes ? y8 : y32;
endmodule
