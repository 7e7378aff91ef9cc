// The common tail of the floating-point multiplier and divider (docs/rtl.md
// "Floating-point units"): a significand and its exponent in, the binary32
// result rounded to nearest even out, with gradual underflow.
// The caller passes
//   e       the biased exponent for m's leading one at bit 25, signed and
//           unbounded (1..254 normal; <= 0 means the result is subnormal or
//           rounds to zero; >= 255 overflows to inf),
//   m       27 bits, the leading one at bit 25 or at bit 26 (one binade
//           higher: e + 1; the multiplier's product needs this last one-bit
//           normalisation, which costs no stage here),
//   sticky  whether anything non-zero lies below m,
//   nan / inf / zero  a special result that overrides the number (inf and
//           zero carry `sign`; NaN is the canonical 0x7FC00000).
//   v       v[0]: the inputs hold an operation; v[k]: stage k does (the
//           caller's valid pipeline), and
//   run     the caller's: anything in flight. Clock enables as in the
//           units, so that the Verilated model skips an idle tail
//           (docs/sim.md "Speed"): computed registers load behind a valid
//           stage, plain copies on `run` (the caller's chains of copies
//           go on through here: SRLs in synthesis).
// Latency 4 (y is registered), one operation per cycle:
//   1  the one-bit normalisation; tiny results: right-shift amount 1 - e,
//      clamped to 26 (all sticky)
//   2  the right shift in a 52-bit field (no bit lost)
//   3  guard, sticky, round-up decision
//   4  the increment on the packed exponent|fraction (a carry moves into the
//      exponent: subnormal -> normal, 254 -> inf), specials
module nnfab_fp_round (
    input  logic        clk,
    input  logic        run,
    input  logic [3:0]  v,
    input  logic        sign,
    input  logic        nan,
    input  logic        inf,
    input  logic        zero,
    input  logic [9:0]  e,
    input  logic [26:0] m,
    input  logic        sticky,
    output logic [31:0] y
);
  localparam logic [31:0] QNAN = 32'h7FC00000;

  // ---- stage 1
  logic r1_sign, r1_nan, r1_inf, r1_zero, r1_ovf, r1_sticky;
  logic [7:0] r1_e;
  logic [4:0] r1_rsh;
  logic [25:0] r1_m;
  always_ff @(posedge clk) begin
    if (run) begin
      r1_sign <= sign;
      r1_nan <= nan;
      r1_inf <= inf;
      r1_zero <= zero;
    end
    if (v[0]) begin : stage1
      logic up, tiny;
      logic [9:0] e_n, neg_e;  // the exponent for the leading one at bit 25; 1 - e_n
      up = m[26];
      e_n = up ? e + 10'd1 : e;
      tiny = e_n[9] || e_n == 10'd0;
      neg_e = 10'd1 - e_n;
      r1_ovf <= !tiny && e_n >= 10'd255;
      r1_sticky <= sticky || (up && m[0]);
      r1_e <= tiny ? 8'd0 : e_n[7:0];
      r1_rsh <= !tiny ? 5'd0 : (neg_e > 10'd26) ? 5'd26 : neg_e[4:0];
      r1_m <= up ? m[26:1] : m[25:0];
    end
  end

  // ---- stage 2
  logic r2_sign, r2_nan, r2_inf, r2_zero, r2_ovf, r2_sticky;
  logic [7:0] r2_e;
  logic [51:0] r2_f;  // hidden bit at 51 when not tiny, ulp at 28, guard 27
  always_ff @(posedge clk) begin
    if (run) begin
      r2_sign <= r1_sign;
      r2_nan <= r1_nan;
      r2_inf <= r1_inf;
      r2_zero <= r1_zero;
      r2_ovf <= r1_ovf;
      r2_sticky <= r1_sticky;
      r2_e <= r1_e;
    end
    if (v[1]) r2_f <= {r1_m, 26'd0} >> r1_rsh;
  end

  // ---- stage 3 (bit 51 is the hidden one)
  logic unused_ok;
  assign unused_ok = &{1'b0, r2_f[51]};
  logic r3_sign, r3_nan, r3_inf, r3_zero, r3_ovf, r3_inc;
  logic [30:0] r3_packed;
  always_ff @(posedge clk) begin
    if (run) begin
      r3_sign <= r2_sign;
      r3_nan <= r2_nan;
      r3_inf <= r2_inf;
      r3_zero <= r2_zero;
      r3_ovf <= r2_ovf;
    end
    if (v[2]) begin
      r3_inc <= r2_f[27] && (r2_f[26:0] != 27'd0 || r2_sticky || r2_f[28]);
      r3_packed <= {r2_e, r2_f[50:28]};
    end
  end

  // ---- stage 4
  always_ff @(posedge clk) begin
    if (v[3]) begin
      if (r3_nan) y <= QNAN;
      else if (r3_inf || r3_ovf) y <= {r3_sign, 31'h7F800000};
      else if (r3_zero) y <= {r3_sign, 31'd0};
      else y <= {r3_sign, r3_packed + {30'd0, r3_inc}};
    end
  end
endmodule
