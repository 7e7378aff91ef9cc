// IEEE-754 binary32 divider (docs/rtl.md "Floating-point units"): y = a / b
// correctly rounded to nearest even, subnormal operands normalised first,
// gradual underflow, overflow to ±inf, x/0 = ±inf for x != 0, and every NaN
// result (NaN operand, 0/0, inf/inf) the canonical quiet NaN 0x7FC00000.
//
// Fully pipelined restoring division, one quotient bit per stage, so one
// division may start every cycle (the tensor unit streams elements); each
// stage holds one 26-bit subtract and a select (the INT32 nnfab_divider does
// the same step iteratively, one bit per cycle for one operation at a time).
// Latency 32: y is valid 32 cycles after in_valid.
//   1  classes; leading zeros of both significands (subnormals)
//   2  normalise both significands (leading one at bit 23), exponents
//   3  prescale: the dividend doubled when its significand is below the
//      divisor's, so the quotient lies in [1, 2); the quotient's exponent
//   4-28  25 quotient bits (24 significand bits and the guard), MSB first;
//         everything below the guard is in the remainder
//   29-32  nnfab_fp_round with sticky = (remainder != 0)
module nnfab_fp_div (
    input  logic        clk,
    input  logic        rst,
    input  logic        in_valid,
    input  logic [31:0] a,
    input  logic [31:0] b,
    output logic        out_valid,
    output logic [31:0] y
);
  localparam int QBITS = 25;  // 24 significand bits and the guard bit
  localparam int LATENCY = 32;

  logic [LATENCY-1:0] v;
  always_ff @(posedge clk) begin
    if (rst) v <= '0;
    else v <= {v[LATENCY-2:0], in_valid};
  end
  assign out_valid = v[LATENCY-1];

  // Clock enables, so that the Verilated model skips an idle unit (docs/sim.md
  // "Speed"), as in nnfab_fp_add: registers computed from stage k-1 (k >= 2)
  // load behind a valid stage (v); stage 1 and the plain copies whenever
  // anything is in flight or coming (`run`; chains of copies with one
  // enable, SRLs in synthesis).
  logic run;
  assign run = in_valid || v != '0;

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
      logic a_max, b_max, a_zero, b_zero, a_nan, b_nan, a_inf, b_inf;
      a_max = a[30:23] == 8'hFF;
      b_max = b[30:23] == 8'hFF;
      a_zero = a[30:0] == 31'd0;
      b_zero = b[30:0] == 31'd0;
      a_nan = a_max && a[22:0] != 23'd0;
      b_nan = b_max && b[22:0] != 23'd0;
      a_inf = a_max && a[22:0] == 23'd0;
      b_inf = b_max && b[22:0] == 23'd0;
      s1_sign <= a[31] ^ b[31];
      s1_nan <= a_nan || b_nan || (a_zero && b_zero) || (a_inf && b_inf);
      s1_inf <= a_inf || b_zero;   // when not NaN
      s1_zero <= a_zero || b_inf;  // when not NaN or inf
      s1_ea <= {a[30:24], a[23] | ~ha};
      s1_eb <= {b[30:24], b[23] | ~hb};
      s1_ma <= {ha, a[22:0]};
      s1_mb <= {hb, b[22:0]};
    end
  end

  // ---- stage 2: normalise
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

  // ---- stage 3: prescale so that the quotient is in [1, 2)
  // Per quotient stage k (0 = after prescale): remainder (< 2·divisor),
  // divisor, quotient bits so far, flags, exponent, flattened into vectors.
  // (the last divisor and each stage's shifted-out quotient bit are unused)
  logic [25*(QBITS+1)-1:0] rem;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [24*(QBITS+1)-1:0] dvs;
  logic [QBITS*(QBITS+1)-1:0] quo;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [10*(QBITS+1)-1:0] exq;
  logic [4*(QBITS+1)-1:0] flg;  // sign, nan, inf, zero
  always_ff @(posedge clk) begin
    if (run) begin
      dvs[23:0] <= s2_mb;
      quo[QBITS-1:0] <= '0;
      flg[3:0] <= {s2_sign, s2_nan, s2_inf, s2_zero};
    end
    if (v[1]) begin : stage3
      logic a_lt_b;
      logic [9:0] e_q;
      a_lt_b = s2_ma < s2_mb;
      e_q = s2_ea - s2_eb + 10'd127;
      rem[24:0] <= a_lt_b ? {s2_ma, 1'b0} : {1'b0, s2_ma};
      exq[9:0] <= a_lt_b ? e_q - 10'd1 : e_q;
    end
  end

  // ---- stages 4 .. 3+QBITS: one quotient bit each. On `run` as a whole:
  // each quotient bit, once found, is a plain copy down to the rounding, and
  // those 25 chains stay SRLs only with one enable.
  genvar k;
  generate
    for (k = 0; k < QBITS; k = k + 1) begin : g_step
      always_ff @(posedge clk) begin
        if (run) begin : step
          /* verilator lint_off UNUSEDSIGNAL */
          logic [25:0] trial;  // bit 24 is 0 when trial[25] is (remainder < 2·divisor)
          /* verilator lint_on UNUSEDSIGNAL */
          trial = {1'b0, rem[25*k+24:25*k]} - {2'b00, dvs[24*k+23:24*k]};
          // the next remainder is doubled for the next bit (it stays < 2·divisor)
          rem[25*(k+1)+24:25*(k+1)] <= trial[25] ? {rem[25*k+23:25*k], 1'b0} : {trial[23:0], 1'b0};
          quo[QBITS*(k+1)+QBITS-1:QBITS*(k+1)] <= {quo[QBITS*k+QBITS-2:QBITS*k], ~trial[25]};
          dvs[24*(k+1)+23:24*(k+1)] <= dvs[24*k+23:24*k];
          exq[10*(k+1)+9:10*(k+1)] <= exq[10*k+9:10*k];
          flg[4*(k+1)+3:4*(k+1)] <= flg[4*k+3:4*k];
        end
      end
    end
  endgenerate

  // ---- the last 4 stages: round (the leading quotient bit is 1)
  localparam int L = QBITS;
  logic unused_ok;
  assign unused_ok = &{1'b0, s1_lza[5], s1_lzb[5]};
  nnfab_fp_round u_round (
      .clk(clk), .run(run), .v(v[L+5:L+2]), .sign(flg[4*L+3]), .nan(flg[4*L+2]), .inf(flg[4*L+1]), .zero(flg[4*L]),
      .e(exq[10*L+9:10*L]), .m({1'b0, quo[QBITS*L+QBITS-1:QBITS*L], 1'b0}),
      .sticky(rem[25*L+24:25*L] != 25'd0), .y(y));
endmodule
