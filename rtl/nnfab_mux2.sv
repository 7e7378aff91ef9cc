// y = s ? b : a, one LUT3 per bit, as an instantiated Xilinx primitive when
// synthesized. A fence for ABC: it cannot see that a carry chain's or a
// comparison's output arrives late, and would otherwise fold such a signal
// into wide LUT7-LUT9 structures (two or three cells each: LUT6 + MUXF7/8/9)
// together with the logic after it. The sequencer uses it where its branch
// decision and ALU result enter the decode and operand registers
// (docs/rtl.md "Sequencer pipeline"). Verilator sees the plain mux.
module nnfab_mux2 #(
    parameter int W = 1
) (
    input  logic         s,
    input  logic [W-1:0] a,
    input  logic [W-1:0] b,
    output logic [W-1:0] y
);
`ifdef SYNTHESIS
  generate
    for (genvar i = 0; i < W; i++) begin : g_bit
      // O = I2 ? I1 : I0
      LUT3 #(
          .INIT(8'hCA)
      ) u_lut (
          .O (y[i]),
          .I0(a[i]),
          .I1(b[i]),
          .I2(s)
      );
    end
  endgenerate
`else
  assign y = s ? b : a;
`endif
endmodule
