// Leading-zero count of a 32-bit word for the floating-point units'
// normalisation (docs/rtl.md "Floating-point units"): n = number of zeros
// above the highest set bit, 32 for x = 0. A balanced tree (nibbles, then
// pairs of bytes, halves, the word) so that the count is about four LUTs deep
// instead of the 32-long priority chain a loop over the bits would become.
// Purely combinational: the caller registers around it.
module nnfab_fp_lz32 (
    input  logic [31:0] x,
    output logic [5:0]  n
);
  logic [7:0] nz4;   // nibble g has a set bit
  logic [15:0] c4;   // its 2-bit count
  logic [3:0] nz8;
  logic [11:0] c8;   // 3-bit counts of the bytes
  logic [1:0] nz16;
  logic [7:0] c16;   // 4-bit counts of the halves

  genvar g;
  generate
    for (g = 0; g < 8; g = g + 1) begin : g_nib
      assign nz4[g] = x[4*g+3:4*g] != 4'd0;
      assign c4[2*g+1:2*g] = x[4*g+3] ? 2'd0 : x[4*g+2] ? 2'd1 : x[4*g+1] ? 2'd2 : 2'd3;
    end
    for (g = 0; g < 4; g = g + 1) begin : g_byte
      assign nz8[g] = nz4[2*g+1] | nz4[2*g];
      assign c8[3*g+2:3*g] = nz4[2*g+1] ? {1'b0, c4[4*g+3:4*g+2]} : {1'b1, c4[4*g+1:4*g]};
    end
    for (g = 0; g < 2; g = g + 1) begin : g_half
      assign nz16[g] = nz8[2*g+1] | nz8[2*g];
      assign c16[4*g+3:4*g] = nz8[2*g+1] ? {1'b0, c8[6*g+5:6*g+3]} : {1'b1, c8[6*g+2:6*g]};
    end
  endgenerate

  always_comb begin
    if (nz16[1]) n = {2'b00, c16[7:4]};
    else if (nz16[0]) n = {2'b01, c16[3:0]};
    else n = 6'd32;
  end
endmodule
