// y = d[s], a 32-to-1 mux of W-bit words in the shape the fabric has: per
// bit, eight LUT6 4:1 muxes, four MUXF7, two MUXF8 and one LUT3 (4 cells
// deep), instantiated when synthesized. ABC maps a large $shiftx as chains
// of LUT7-LUT9 emulations (up to 11 cells for the register file's read);
// like nnfab_mux2, a fence for the sequencer's operand path (docs/rtl.md
// "Sequencer pipeline"). Verilator sees the plain select.
module nnfab_mux32 #(
    parameter int W = 32
) (
    input  logic [4:0]      s,
    input  logic [32*W-1:0] d,  // word k at d[k*W +: W]
    output logic [W-1:0]    y
);
`ifdef SYNTHESIS
  generate
    for (genvar i = 0; i < W; i++) begin : g_bit
      logic [7:0] m4;
      logic [3:0] m7;
      logic [1:0] m8;
      for (genvar q = 0; q < 8; q++) begin : g_lut
        // O = {I3, I2, I1, I0}[{I5, I4}]
        LUT6 #(
            .INIT(64'hFF00_F0F0_CCCC_AAAA)
        ) u_lut (
            .O (m4[q]),
            .I0(d[(4*q+0)*W+i]),
            .I1(d[(4*q+1)*W+i]),
            .I2(d[(4*q+2)*W+i]),
            .I3(d[(4*q+3)*W+i]),
            .I4(s[0]),
            .I5(s[1])
        );
      end
      for (genvar q = 0; q < 4; q++) begin : g_f7
        MUXF7 u_f7 (
            .O (m7[q]),
            .I0(m4[2*q]),
            .I1(m4[2*q+1]),
            .S (s[2])
        );
      end
      for (genvar q = 0; q < 2; q++) begin : g_f8
        MUXF8 u_f8 (
            .O (m8[q]),
            .I0(m7[2*q]),
            .I1(m7[2*q+1]),
            .S (s[3])
        );
      end
      LUT3 #(
          .INIT(8'hCA)
      ) u_last (
          .O (y[i]),
          .I0(m8[0]),
          .I1(m8[1]),
          .I2(s[4])
      );
    end
  endgenerate
`else
  assign y = d[s*W+:W];
`endif
endmodule
