// Conversions between INT32 and binary32 (docs/rtl.md "Floating-point
// units"), the CPU executor's CAST:
//   to_int = 0  INT32 -> FLOAT32, round to nearest even (16777217 -> 2^24)
//   to_int = 1  FLOAT32 -> INT32, truncate toward zero, NaN -> 0, out of range
//               saturates to INT32_MIN / INT32_MAX (inf included)
// Latency 4: y is valid 4 cycles after in_valid, one operation per cycle;
// both directions run side by side and the last stage picks one.
//   INT32 -> FLOAT32: 1 magnitude, 2 leading zeros, 3 normalise, 4 round
//   FLOAT32 -> INT32: 1 shift amount and range, 2 right shift (truncation),
//                     3 sign and saturation, 4 select
module nnfab_fp_cvt (
    input  logic        clk,
    input  logic        rst,
    input  logic        in_valid,
    input  logic        to_int,
    input  logic [31:0] a,
    output logic        out_valid,
    output logic [31:0] y
);
  logic [3:0] v;
  always_ff @(posedge clk) begin
    if (rst) v <= '0;
    else v <= {v[2:0], in_valid};
  end
  assign out_valid = v[3];

  // Clock enables, so that the Verilated model skips an idle unit (docs/sim.md
  // "Speed"), as in nnfab_fp_add: registers computed from stage k-1 (k >= 2)
  // load behind a valid stage (v); stage 1 and the plain copies whenever
  // anything is in flight or coming (`run`; chains of copies with one
  // enable, SRLs in synthesis).
  logic run;
  assign run = in_valid || v != '0;
  logic [2:0] is_f2i;  // to_int per stage
  always_ff @(posedge clk) begin
    if (run) is_f2i[0] <= to_int;
    if (run) is_f2i[2:1] <= is_f2i[1:0];
  end

  // ================= INT32 -> FLOAT32
  logic i1_sign;
  logic [31:0] i1_mag;  // |INT32_MIN| = 2^31 fits
  always_ff @(posedge clk) begin
    if (run) begin
      i1_sign <= a[31];
      i1_mag <= a[31] ? 32'd0 - a : a;
    end
  end

  logic i2_sign;
  logic [31:0] i2_mag;
  logic [5:0] i2_lz;
  nnfab_fp_lz32 u_lz (.clk(clk), .en(v[0]), .x(i1_mag), .n(i2_lz));
  always_ff @(posedge clk) begin
    if (run) begin
      i2_sign <= i1_sign;
      i2_mag <= i1_mag;
    end
  end

  logic i3_sign, i3_zero;
  logic [31:0] i3_norm;  // leading one at bit 31
  logic [7:0] i3_e;
  always_ff @(posedge clk) begin
    if (run) i3_sign <= i2_sign;
    if (v[1]) begin
      i3_zero <= i2_lz[5];  // 32: a = 0
      i3_norm <= i2_mag << i2_lz[4:0];
      i3_e <= 8'd158 - {3'd0, i2_lz[4:0]};  // 2^31 has biased exponent 158
    end
  end

  // ================= FLOAT32 -> INT32
  logic f1_sign, f1_zero, f1_sat;
  logic [4:0] f1_rsh;
  logic [31:0] f1_m;
  always_ff @(posedge clk) begin
    if (run) begin
      f1_sign <= a[31];
      // |a| < 1 (subnormals and zeros included), or NaN
      f1_zero <= a[30:23] < 8'd127 || (a[30:23] == 8'hFF && a[22:0] != 23'd0);
      f1_sat <= a[30:23] >= 8'd158;  // |a| >= 2^31 (inf included)
      f1_rsh <= 5'd30 - a[27:23];   // 158 - exponent (mod 32): 1..31 when neither
      f1_m <= {1'b1, a[22:0], 8'd0};
    end
  end

  logic f2_sign, f2_zero, f2_sat;
  logic [31:0] f2_mag;
  always_ff @(posedge clk) begin
    if (run) begin
      f2_sign <= f1_sign;
      f2_zero <= f1_zero;
      f2_sat <= f1_sat;
    end
    if (v[0]) f2_mag <= f1_m >> f1_rsh;  // < 2^31
  end

  logic [31:0] f3_y;
  always_ff @(posedge clk) begin
    if (v[1]) begin
      if (f2_zero) f3_y <= 32'd0;
      else if (f2_sat) f3_y <= f2_sign ? 32'h80000000 : 32'h7FFFFFFF;
      else f3_y <= f2_sign ? 32'd0 - f2_mag : f2_mag;
    end
  end

  // ================= select
  always_ff @(posedge clk) begin
    if (v[2]) begin : select
      logic i_inc;
      logic [30:0] i_rounded;
      i_inc = i3_norm[7] && (i3_norm[6:0] != 7'd0 || i3_norm[8]);
      i_rounded = {i3_e, i3_norm[30:8]} + {30'd0, i_inc};
      if (is_f2i[2]) y <= f3_y;
      else if (i3_zero) y <= 32'd0;
      else y <= {i3_sign, i_rounded};
    end
  end
  logic unused_ok;
  assign unused_ok = &{1'b0, i3_norm[31]};  // the hidden bit
endmodule
