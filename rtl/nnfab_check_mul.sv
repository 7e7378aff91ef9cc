// The tensor checks' multiplier (docs/rtl.md "Timing"): a 32 × 32 product
// saturated to 32 bits plus an overflow flag, in three registered stages so
// that no stage holds more than a 17-bit add.
//
// The checks only need a product that is at most DATA_SIZE (32 bits): a
// larger one fails its region whatever its value. With a = aH·2^16 + aL and
// b = bH·2^16 + bL, aH and bH both non-zero means a product ≥ 2^32; otherwise
// the product is aL·bL + mid·2^16 with mid = aH·bL or aL·bH (whichever high
// half is non-zero, else 0), i.e. two 16 × 16 products, each one DSP48E2
// with its registers, and a 17-bit add of their halves.
//   stage 1: high-half zero detects, the 16-bit factors of both products
//            (after the caller's operand select, which must be short)
//   stage 2: the two 16 × 16 products (DSP48E2)
//   stage 3: y = lo + mid[15:0]·2^16, over = either overflow condition
// y and over are valid 3 cycles after start, one product may start every
// cycle; flush drops what is in flight.
module nnfab_check_mul (
    input  logic        clk,
    input  logic        rst,
    input  logic        flush,
    input  logic        start,
    input  logic [31:0] a,
    input  logic [31:0] b,
    output logic        valid,
    output logic [31:0] y,
    output logic        over
);
  logic [2:0] v;
  logic [15:0] lo_x, lo_y, mid_x, mid_y;
  logic both_hi2, both_hi3;
  logic [31:0] lo3, mid3;
  logic [16:0] hi;

  always_ff @(posedge clk) begin
    if (rst || flush) v <= '0;
    else v <= {v[1:0], start};
  end

  assign hi = {1'b0, lo3[31:16]} + {1'b0, mid3[15:0]};

  always_ff @(posedge clk) begin
    // stage 1
    lo_x <= a[15:0];
    lo_y <= b[15:0];
    mid_x <= a[31:16] != 16'd0 ? a[31:16] : b[31:16];
    mid_y <= a[31:16] != 16'd0 ? b[15:0] : a[15:0];
    both_hi2 <= a[31:16] != 16'd0 && b[31:16] != 16'd0;
    // stage 2
    lo3 <= lo_x * lo_y;
    mid3 <= mid_x * mid_y;
    both_hi3 <= both_hi2;
    // stage 3
    y <= {hi[15:0], lo3[15:0]};
    over <= both_hi3 || mid3[31:16] != 16'd0 || hi[16];
  end
  assign valid = v[2];
endmodule
