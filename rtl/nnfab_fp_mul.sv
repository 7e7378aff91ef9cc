// IEEE-754 binary32 multiplier (docs/rtl.md "Floating-point units"): y = a·b
// rounded to nearest even, subnormal operands normalised first, gradual
// underflow to subnormals or zero, overflow to ±inf, NaN results (NaN
// operand, 0·inf) the canonical quiet NaN 0x7FC00000.
//
// Latency 8: y is valid 8 cycles after in_valid, one operation per cycle.
//   1  classes; leading zeros of both significands (subnormals)
//   2  normalise both significands (leading one at bit 23), exponents
//   3  the 24 x 24 product as two DSP48E2 products, 24 x 17 and 24 x 7
//      (registered inside the DSPs), and the product's exponent
//   4  their sum (48 bits: the product lies in [2^46, 2^48))
//   5-8  nnfab_fp_round: one-bit normalisation, subnormal shift, round to
//        nearest even, specials
module nnfab_fp_mul (
    input  logic        clk,
    input  logic        rst,
    input  logic        in_valid,
    input  logic [31:0] a,
    input  logic [31:0] b,
    output logic        out_valid,
    output logic [31:0] y
);
  logic [7:0] v;
  always_ff @(posedge clk) begin
    if (rst) v <= '0;
    else v <= {v[6:0], in_valid};
  end
  assign out_valid = v[7];

  // Clock enables, so that the Verilated model skips an idle unit (docs/sim.md
  // "Speed"), as in nnfab_fp_add: registers computed from stage k-1 (k >= 2)
  // load behind a valid stage (v); stage 1 and the plain copies whenever
  // anything is in flight or coming (`run`; chains of copies with one
  // enable, SRLs in synthesis).
  logic run;
  assign run = in_valid || v != 8'd0;

  // ---- stage 1: classes, leading zeros
  logic ha, hb;
  assign ha = a[30:23] != 8'd0;
  assign hb = b[30:23] != 8'd0;
  logic [5:0] s1_lza, s1_lzb;  // 24 at most (the padding ones stop the count)
  nnfab_fp_lz32 u_lza (.clk(clk), .en(in_valid), .x({ha, a[22:0], 8'hFF}), .n(s1_lza));
  nnfab_fp_lz32 u_lzb (.clk(clk), .en(in_valid), .x({hb, b[22:0], 8'hFF}), .n(s1_lzb));
  logic s1_sign, s1_nan, s1_inf, s1_zero;
  logic [7:0] s1_ea, s1_eb;
  logic [23:0] s1_ma, s1_mb;
  always_ff @(posedge clk) begin
    if (run) begin : stage1
      logic a_max, b_max, a_zero, b_zero, a_nan, b_nan;
      a_max = a[30:23] == 8'hFF;
      b_max = b[30:23] == 8'hFF;
      a_zero = a[30:0] == 31'd0;
      b_zero = b[30:0] == 31'd0;
      a_nan = a_max && a[22:0] != 23'd0;
      b_nan = b_max && b[22:0] != 23'd0;
      s1_sign <= a[31] ^ b[31];
      s1_nan <= a_nan || b_nan || (a_max && b_zero) || (b_max && a_zero);
      s1_inf <= a_max || b_max;  // when not NaN
      s1_zero <= a_zero || b_zero;
      s1_ea <= {a[30:24], a[23] | ~ha};  // subnormals: effective exponent 1
      s1_eb <= {b[30:24], b[23] | ~hb};
      s1_ma <= {ha, a[22:0]};
      s1_mb <= {hb, b[22:0]};
    end
  end

  // ---- stage 2: normalise (a zero operand is a special; its shift is moot)
  logic s2_sign, s2_nan, s2_inf, s2_zero;
  logic [9:0] s2_ea, s2_eb;
  logic [23:0] s2_ma, s2_mb;
  always_ff @(posedge clk) begin
    if (run) begin
      s2_sign <= s1_sign;
      s2_nan <= s1_nan;
      s2_inf <= s1_inf;
      s2_zero <= s1_zero;
    end
    if (v[0]) begin
      s2_ea <= {2'b00, s1_ea} - {4'd0, s1_lza};
      s2_eb <= {2'b00, s1_eb} - {4'd0, s1_lzb};
      s2_ma <= s1_ma << s1_lza[4:0];
      s2_mb <= s1_mb << s1_lzb[4:0];
    end
  end

  // ---- stage 3: the two partial products (DSP48E2 with their registers)
  logic s3_sign, s3_nan, s3_inf, s3_zero;
  logic [9:0] s3_e;
  logic [40:0] s3_plo;  // ma * mb[16:0]
  logic [30:0] s3_phi;  // ma * mb[23:17]
  always_ff @(posedge clk) begin
    if (run) begin
      s3_sign <= s2_sign;
      s3_nan <= s2_nan;
      s3_inf <= s2_inf;
      s3_zero <= s2_zero;
    end
    if (v[1]) begin
      s3_e <= s2_ea + s2_eb - 10'd127;
      s3_plo <= s2_ma * s2_mb[16:0];
      s3_phi <= s2_ma * s2_mb[23:17];
    end
  end

  // ---- stage 4: the 48-bit product
  logic s4_sign, s4_nan, s4_inf, s4_zero;
  logic [9:0] s4_e;
  logic [47:0] s4_p;
  always_ff @(posedge clk) begin
    if (run) begin
      s4_sign <= s3_sign;
      s4_nan <= s3_nan;
      s4_inf <= s3_inf;
      s4_zero <= s3_zero;
      s4_e <= s3_e;
    end
    if (v[2]) s4_p <= {7'd0, s3_plo} + {s3_phi, 17'd0};
  end

  // ---- stages 5-8 (the leading one is at bit 47 or 46 of the product)
  logic unused_ok;
  assign unused_ok = &{1'b0, s1_lza[5], s1_lzb[5]};
  nnfab_fp_round u_round (
      .clk(clk), .run(run), .v(v[6:3]), .sign(s4_sign), .nan(s4_nan), .inf(s4_inf), .zero(s4_zero),
      .e(s4_e), .m(s4_p[47:21]), .sticky(s4_p[20:0] != 21'd0), .y(y));
endmodule
