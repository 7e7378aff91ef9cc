// Leading-zero count of a 32-bit word for the floating-point units'
// normalisation (docs/rtl.md "Floating-point units"): n = number of zeros
// above the highest set bit, 32 for x = 0, registered: n is the count of the
// x presented in the last cycle with `en` (every caller registers the count
// at once, so the register is the caller's stage register).
// A balanced tree (nibbles, then pairs of bytes, halves, the word) so that
// the count is about four LUTs deep instead of the 32-long priority chain a
// priority loop over the bits would become.
// The tree is computed inside the enabled block, not by continuous
// assignments: the Verilated model then skips it in every cycle without
// `en` (docs/sim.md "Speed"); synthesis sees the same logic.
module nnfab_fp_lz32 (
    input  logic        clk,
    input  logic        en,
    input  logic [31:0] x,
    output logic [5:0]  n
);
  always_ff @(posedge clk) begin
    if (en) begin : count
      logic [7:0] nz4;   // nibble g has a set bit
      logic [15:0] c4;   // its 2-bit count
      logic [3:0] nz8;
      logic [11:0] c8;   // 3-bit counts of the bytes
      logic [1:0] nz16;
      logic [7:0] c16;   // 4-bit counts of the halves
      for (int g = 0; g < 8; g++) begin
        nz4[g] = x[4*g+:4] != 4'd0;
        c4[2*g+:2] = x[4*g+3] ? 2'd0 : x[4*g+2] ? 2'd1 : x[4*g+1] ? 2'd2 : 2'd3;
      end
      for (int g = 0; g < 4; g++) begin
        nz8[g] = nz4[2*g+1] | nz4[2*g];
        c8[3*g+:3] = nz4[2*g+1] ? {1'b0, c4[4*g+2+:2]} : {1'b1, c4[4*g+:2]};
      end
      for (int g = 0; g < 2; g++) begin
        nz16[g] = nz8[2*g+1] | nz8[2*g];
        c16[4*g+:4] = nz8[2*g+1] ? {1'b0, c8[6*g+3+:3]} : {1'b1, c8[6*g+:3]};
      end
      if (nz16[1]) n <= {2'b00, c16[7:4]};
      else if (nz16[0]) n <= {2'b01, c16[3:0]};
      else n <= 6'd32;
    end
  end
endmodule
