// One 6-input function of registered control bits as an instantiated Xilinx
// LUT6 when synthesized: o = INIT[i]. Like nnfab_mux2, a fence for ABC, which
// otherwise maps small decodes that feed a carry chain as several levels of
// LUT2 (it cannot see the chain behind them). Verilator sees the table.
module nnfab_lut6 #(
    parameter logic [63:0] INIT = 64'd0
) (
    input  logic [5:0] i,
    output logic       o
);
`ifdef SYNTHESIS
  LUT6 #(
      .INIT(INIT)
  ) u_lut (
      .O (o),
      .I0(i[0]),
      .I1(i[1]),
      .I2(i[2]),
      .I3(i[3]),
      .I4(i[4]),
      .I5(i[5])
  );
`else
  assign o = INIT[i];
`endif
endmodule
