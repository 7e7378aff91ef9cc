// Iterative radix-2 floor divider (docs/isa.md DIV): one quotient bit per
// cycle on the magnitudes, then the sign fix-up for rounding toward negative
// infinity. a / 0 = 0 and INT32_MIN / -1 = INT32_MIN fall out of the
// magnitude arithmetic (|INT32_MIN| = 2^31 fits 32 unsigned bits).
// `start` in cycle 0, 32 steps in cycles 1..32, `done` with `q` in cycle 33:
// a scalar DIV costs 34 cycles, the cycle model's scalar_div.
`include "nnfab_isa.svh"

module nnfab_divider (
    input  logic        clk,
    input  logic        rst,
    input  logic        start,
    input  logic [31:0] a,
    input  logic [31:0] b,
    output logic        busy,
    output logic        done,
    output logic [31:0] q
);
  logic [31:0] divisor, quot, rem;
  // quot - 1, kept alongside quot (shifting preserves it), so that the
  // negative quotient's fix-up -quot = ~(quot - 1) needs no carry chain
  // after the last step: q is a few LUTs from registers.
  logic [31:0] quot_m1;
  logic rem_nz;  // rem != 0, registered with rem
  logic [31:0] rem_next;
  logic [5:0] step;
  logic negate, zero_div;
  logic [32:0] trial;
  logic [31:0] mag_a, mag_b;

  assign mag_a = a[31] ? 32'd0 - a : a;
  assign mag_b = b[31] ? 32'd0 - b : b;
  assign trial = {rem, quot[31]} - {1'b0, divisor};
  assign rem_next = trial[32] ? {rem[30:0], quot[31]} : trial[31:0];
  assign done = busy && step == 6'd0;
  always_comb begin
    if (zero_div) q = 32'd0;
    else if (negate) q = rem_nz ? ~quot : ~quot_m1;
    else q = quot;
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      busy <= 1'b0;
      step <= '0;
    end else if (start) begin
      busy <= 1'b1;
      step <= 6'd32;
      quot <= mag_a;  // shifted out at the top as the remainder builds up
      quot_m1 <= a[31] ? ~a : a - 32'd1;  // |a| - 1
      rem <= '0;
      rem_nz <= 1'b0;
      divisor <= mag_b;
      negate <= a[31] ^ b[31];
      zero_div <= b == 32'd0;
    end else if (busy && step != 6'd0) begin
      // Restoring step: bring the next dividend bit into the remainder.
      rem <= rem_next;
      rem_nz <= rem_next != 32'd0;
      if (!trial[32]) begin
        quot <= {quot[30:0], 1'b1};
        quot_m1 <= {quot[30:0], 1'b0};
      end else begin
        quot <= {quot[30:0], 1'b0};
        quot_m1 <= {quot_m1[30:0], 1'b1};
      end
      step <= step - 1'b1;
    end else if (done) begin
      busy <= 1'b0;
    end
  end
endmodule
