// IEEE-754 binary32 adder/subtractor (docs/rtl.md "Floating-point units"):
// y = a + b, or a - b when `sub` (b's sign flipped), rounded to nearest even,
// subnormal operands and results computed exactly, ±inf, and every NaN
// result the canonical quiet NaN 0x7FC00000 (inf - inf included). An exact
// zero sum is +0 except -0 + -0 = -0 (the RNE sign rule).
//
// Latency 8: y is valid 8 cycles after in_valid, one operation may start
// every cycle. Stages (each well under 16 cells):
//   1  swap so that |x| >= |y| (a 31-bit compare of the bit patterns), classes
//   2  exponent difference, clamped to 26 (beyond that y is all sticky)
//   3  align: y's mantissa shifted right in a 50-bit field (no bit lost)
//   4  the exact add or subtract (25-bit carry chain plus y's low bits)
//   5  leading-zero count of the top 27 bits, sticky of the 24 below
//   6  normalising shift = min(lz, exponent) (subnormal results), exponent
//   7  the left shift
//   8  round to nearest even on the packed exponent|fraction (a carry moves
//      into the exponent and up to inf by itself), specials, output register
module nnfab_fp_add (
    input  logic        clk,
    input  logic        rst,
    input  logic        in_valid,
    input  logic        sub,
    input  logic [31:0] a,
    input  logic [31:0] b,
    output logic        out_valid,
    output logic [31:0] y
);
  localparam logic [31:0] QNAN = 32'h7FC00000;

  logic [7:0] v;
  always_ff @(posedge clk) begin
    if (rst) v <= '0;
    else v <= {v[6:0], in_valid};
  end
  assign out_valid = v[7];

  // Clock enables, so that the Verilated model skips an idle unit (docs/sim.md
  // "Speed"): a register computed from stage k-1 (k >= 2) loads only when
  // that stage holds a valid operation (v), its logic inside the enabled
  // block; stage 1 and the plain copies of the stage before load whenever
  // anything is in flight or coming (`run`: they move in step with v while
  // there is an operation to carry, and the chains of copies keep one
  // enable, so they stay SRLs in synthesis). Out of a valid stage the
  // registers hold stale values nobody reads.
  logic run;
  assign run = in_valid || v != 8'd0;

  // ---- stage 1: order by magnitude, classify
  logic s1_sx, s1_sy, s1_hx, s1_hy, s1_nan, s1_inf;
  logic [7:0] s1_ex, s1_ey;
  logic [22:0] s1_fx, s1_fy;
  always_ff @(posedge clk) begin
    if (run) begin : stage1
      logic b_sign, a_big, a_max, b_max, a_nan, b_nan, a_inf, b_inf;
      b_sign = b[31] ^ sub;
      a_big = a[30:0] >= b[30:0];
      a_max = a[30:23] == 8'hFF;
      b_max = b[30:23] == 8'hFF;
      a_nan = a_max && a[22:0] != 23'd0;
      b_nan = b_max && b[22:0] != 23'd0;
      a_inf = a_max && a[22:0] == 23'd0;
      b_inf = b_max && b[22:0] == 23'd0;
      s1_sx <= a_big ? a[31] : b_sign;
      s1_sy <= a_big ? b_sign : a[31];
      s1_ex <= a_big ? a[30:23] : b[30:23];
      s1_ey <= a_big ? b[30:23] : a[30:23];
      s1_fx <= a_big ? a[22:0] : b[22:0];
      s1_fy <= a_big ? b[22:0] : a[22:0];
      s1_hx <= a_big ? a[30:23] != 8'd0 : b[30:23] != 8'd0;
      s1_hy <= a_big ? b[30:23] != 8'd0 : a[30:23] != 8'd0;
      s1_nan <= a_nan || b_nan || (a_inf && b_inf && (a[31] ^ b_sign));
      s1_inf <= a_inf || b_inf;
    end
  end

  // ---- stage 2: exponent difference (subnormals have effective exponent 1)
  logic s2_sx, s2_sy, s2_nan, s2_inf;
  logic [7:0] s2_ex;
  logic [23:0] s2_mx, s2_my;
  logic [4:0] s2_d;
  always_ff @(posedge clk) begin
    if (run) begin
      s2_sx <= s1_sx;
      s2_sy <= s1_sy;
      s2_nan <= s1_nan;
      s2_inf <= s1_inf;
      s2_mx <= {s1_hx, s1_fx};
      s2_my <= {s1_hy, s1_fy};
    end
    if (v[0]) begin : stage2
      logic [7:0] ex_eff, ey_eff, d_full;
      ex_eff = {s1_ex[7:1], s1_ex[0] | ~s1_hx};
      ey_eff = {s1_ey[7:1], s1_ey[0] | ~s1_hy};
      d_full = ex_eff - ey_eff;  // >= 0: |x| >= |y|
      s2_ex <= ex_eff;
      s2_d <= (d_full > 8'd26) ? 5'd26 : d_full[4:0];
    end
  end

  // ---- stage 3: align y (its lowest bit stays inside the 50-bit field)
  logic s3_sx, s3_sy, s3_nan, s3_inf;
  logic [7:0] s3_ex;
  logic [23:0] s3_mx;
  logic [49:0] s3_my;
  always_ff @(posedge clk) begin
    if (run) begin
      s3_sx <= s2_sx;
      s3_sy <= s2_sy;
      s3_nan <= s2_nan;
      s3_inf <= s2_inf;
      s3_ex <= s2_ex;
      s3_mx <= s2_mx;
    end
    if (v[1]) s3_my <= {s2_my, 26'd0} >> s2_d;
  end

  // ---- stage 4: exact add / subtract (never negative: |x| >= |y|). x's
  // low 26 bits are zero, so only y's low part borrows: the wide sum is the
  // 25-bit high part (with the borrow as carry-in) beside -lo or lo.
  logic s4_sx, s4_sy, s4_nan, s4_inf;
  logic [7:0] s4_ex;
  logic [50:0] s4_sum;
  always_ff @(posedge clk) begin
    if (run) begin
      s4_sx <= s3_sx;
      s4_sy <= s3_sy;
      s4_nan <= s3_nan;
      s4_inf <= s3_inf;
      s4_ex <= s3_ex;
    end
    if (v[2]) begin : stage4
      logic eff_sub, lo_nz;
      logic [25:0] lo;
      logic [24:0] hi_x, hi_y;
      eff_sub = s3_sx ^ s3_sy;
      lo = s3_my[25:0];
      lo_nz = lo != 26'd0;
      hi_x = {1'b0, s3_mx};
      hi_y = {1'b0, s3_my[49:26]};
      s4_sum[50:26] <= eff_sub ? hi_x + ~hi_y + {24'd0, ~lo_nz} : hi_x + hi_y;
      s4_sum[25:0] <= eff_sub ? 26'd0 - lo : lo;
    end
  end

  // ---- stage 5: leading zeros of the top 27 bits (carry at 26, hidden at 25)
  logic [5:0] s5_lz;  // 27 at most (the padding ones stop the count)
  nnfab_fp_lz32 u_lz (.clk(clk), .en(v[3]), .x({s4_sum[50:24], 5'b11111}), .n(s5_lz));
  logic s5_sign, s5_nan, s5_inf, s5_zero, s5_sticky;
  logic [7:0] s5_ex;
  logic [26:0] s5_top;
  always_ff @(posedge clk) begin
    if (run) begin
      s5_nan <= s4_nan;
      s5_inf <= s4_inf;
      s5_ex <= s4_ex;
      s5_top <= s4_sum[50:24];
    end
    if (v[3]) begin
      // exact zero: +0 unless both were -0 (x + (-x) = +0 in RNE)
      s5_zero <= s4_sum == 51'd0;
      s5_sign <= (s4_sum == 51'd0) ? (s4_sx & s4_sy) : s4_sx;
      s5_sticky <= s4_sum[23:0] != 24'd0;
    end
  end

  // ---- stage 6: shift = min(lz, ex); below that the result is subnormal
  logic s6_sign, s6_nan, s6_inf, s6_zero, s6_sticky;
  logic [8:0] s6_e;
  logic [26:0] s6_top;
  logic [4:0] s6_s;
  always_ff @(posedge clk) begin
    if (run) begin
      s6_sign <= s5_sign;
      s6_nan <= s5_nan;
      s6_inf <= s5_inf;
      s6_zero <= s5_zero;
      s6_sticky <= s5_sticky;
      s6_top <= s5_top;
    end
    if (v[4]) begin : stage6
      logic subn;
      logic [8:0] e_norm;
      subn = {2'd0, s5_lz} > s5_ex;
      e_norm = {1'b0, s5_ex} + 9'd1 - {3'd0, s5_lz};
      s6_s <= subn ? s5_ex[4:0] : s5_lz[4:0];  // s5_ex < lz <= 27 when subnormal
      s6_e <= subn ? 9'd0 : e_norm;
    end
  end

  // ---- stage 7: normalise (leading one, if any, lands on bit 26)
  logic s7_sign, s7_nan, s7_inf, s7_zero, s7_sticky;
  logic [8:0] s7_e;
  logic [26:0] s7_sh;
  always_ff @(posedge clk) begin
    if (run) begin
      s7_sign <= s6_sign;
      s7_nan <= s6_nan;
      s7_inf <= s6_inf;
      s7_zero <= s6_zero;
      s7_sticky <= s6_sticky;
      s7_e <= s6_e;
    end
    if (v[5]) s7_sh <= s6_top << s6_s;
  end

  // ---- stage 8: round to nearest even, specials (bit 26 is the hidden one)
  logic unused_ok;
  assign unused_ok = &{1'b0, s5_lz[5], s7_sh[26]};
  always_ff @(posedge clk) begin
    if (v[6]) begin : stage8
      logic inc;
      logic [30:0] rounded;
      inc = s7_sh[2] & (s7_sh[1] | s7_sh[0] | s7_sticky | s7_sh[3]);
      rounded = {s7_e[7:0], s7_sh[25:3]} + {30'd0, inc};
      if (s7_nan) y <= QNAN;
      else if (s7_inf || s7_e >= 9'd255) y <= {s7_sign, 31'h7F800000};
      else if (s7_zero) y <= {s7_sign, 31'd0};  // the count ran off the end: no exponent
      else y <= {s7_sign, rounded};
    end
  end
endmodule
