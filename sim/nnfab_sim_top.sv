// The RTL core as the Verilator harness clocks it (sim/sim_harness.cpp):
// nnfab_core with one evaluation of the model per clock cycle instead of
// two (docs/sim.md "One evaluation per cycle"). Simulation only: never
// synthesized, not in rtl/'s source list, and only the harness's model
// (Vnnfab_core) has it on top; the SystemC platform and the unit benches
// Verilate the core or their unit alone, as before.
//
// sim_step replaces ap_clk: each change of it (either way) is one rising
// edge of the core's clock. core_clk = sim_step ^ done rises with the
// change and falls again in the same evaluation, when the edge's own update
// toggles done; so one eval() of the model runs the input-dependent logic
// with the new inputs, the edge, and the logic behind it. The harness
// samples the AXI handshakes before that eval(), from the outputs the last
// one left: every output of nnfab_core is a function of registers alone (no
// combinational path from an input; the harness's settle check,
// HarnessConfig::checkSettledOutputs, verifies it cycle by cycle). The
// units' gated clocks take the pulse form of nnfab_sim_clock_gate
// (NNFAB_SIM_PULSE_CLOCK): gclk = core_clk & enable, computed with the
// edge's inputs, no falling edge needed.
//
// Runs of quiet cycles (docs/sim.md "Runs of quiet cycles"): while the
// core runs and raises no VALID on any master, a cycle asks nothing of the
// harness while its memories offer nothing (idle, or waiting out a read's
// latency or a write response's: nothing to drive, nothing to take). So
// the top may clock the core again inside the same eval(): after each edge,
// at the falling edge, `again` toggles and core_clk rises once more, as long
// as sim_edges (the edges so far) is below sim_until, the core is not idle,
// no master raises a VALID and no assertion has failed. The harness sets
// sim_until only when the cycle it starts is quiet as well, and no later
// than the first cycle in which a memory may offer something (a read's
// beat, a write response: AxiMemory::quietUntil); every edge sees
// the same inputs it would see one eval() at a time, so the cycles are the
// same cycles. Retired instructions are counted here, by opcode, for the
// harness's coverage, as no eval() boundary falls between them.
module nnfab_sim_top (
    input  wire         sim_step,
    input  wire [63:0]  sim_until,
    input  wire         ap_rst_n,
    /* verilator lint_off SYMRSVDWORD */
    output wire         interrupt,
    /* verilator lint_on SYMRSVDWORD */
    input  wire         s_axi_control_awvalid,
    output wire         s_axi_control_awready,
    input  wire [11:0]  s_axi_control_awaddr,
    input  wire         s_axi_control_wvalid,
    output wire         s_axi_control_wready,
    input  wire [31:0]  s_axi_control_wdata,
    input  wire [3:0]   s_axi_control_wstrb,
    output wire         s_axi_control_bvalid,
    input  wire         s_axi_control_bready,
    output wire [1:0]   s_axi_control_bresp,
    input  wire         s_axi_control_arvalid,
    output wire         s_axi_control_arready,
    input  wire [11:0]  s_axi_control_araddr,
    output wire         s_axi_control_rvalid,
    input  wire         s_axi_control_rready,
    output wire [31:0]  s_axi_control_rdata,
    output wire [1:0]   s_axi_control_rresp,
    output wire         m_axi_prog_arvalid,
    input  wire         m_axi_prog_arready,
    output wire [63:0]  m_axi_prog_araddr,
    output wire [7:0]   m_axi_prog_arlen,
    output wire [2:0]   m_axi_prog_arsize,
    output wire [1:0]   m_axi_prog_arburst,
    input  wire         m_axi_prog_rvalid,
    output wire         m_axi_prog_rready,
    input  wire [511:0] m_axi_prog_rdata,
    input  wire [1:0]   m_axi_prog_rresp,
    input  wire         m_axi_prog_rlast,
    output wire         m_axi_data_awvalid,
    input  wire         m_axi_data_awready,
    output wire [63:0]  m_axi_data_awaddr,
    output wire [7:0]   m_axi_data_awlen,
    output wire [2:0]   m_axi_data_awsize,
    output wire [1:0]   m_axi_data_awburst,
    output wire         m_axi_data_wvalid,
    input  wire         m_axi_data_wready,
    output wire [511:0] m_axi_data_wdata,
    output wire [63:0]  m_axi_data_wstrb,
    output wire         m_axi_data_wlast,
    input  wire         m_axi_data_bvalid,
    output wire         m_axi_data_bready,
    input  wire [1:0]   m_axi_data_bresp,
    output wire         m_axi_data_arvalid,
    input  wire         m_axi_data_arready,
    output wire [63:0]  m_axi_data_araddr,
    output wire [7:0]   m_axi_data_arlen,
    output wire [2:0]   m_axi_data_arsize,
    output wire [1:0]   m_axi_data_arburst,
    input  wire         m_axi_data_rvalid,
    output wire         m_axi_data_rready,
    input  wire [511:0] m_axi_data_rdata,
    input  wire [1:0]   m_axi_data_rresp,
    input  wire         m_axi_data_rlast,
    output wire         m_axi_srcb_arvalid,
    input  wire         m_axi_srcb_arready,
    output wire [63:0]  m_axi_srcb_araddr,
    output wire [7:0]   m_axi_srcb_arlen,
    output wire [2:0]   m_axi_srcb_arsize,
    output wire [1:0]   m_axi_srcb_arburst,
    input  wire         m_axi_srcb_rvalid,
    output wire         m_axi_srcb_rready,
    input  wire [511:0] m_axi_srcb_rdata,
    input  wire [1:0]   m_axi_srcb_rresp,
    input  wire         m_axi_srcb_rlast,
    output wire         m_axi_dst_awvalid,
    input  wire         m_axi_dst_awready,
    output wire [63:0]  m_axi_dst_awaddr,
    output wire [7:0]   m_axi_dst_awlen,
    output wire [2:0]   m_axi_dst_awsize,
    output wire [1:0]   m_axi_dst_awburst,
    output wire         m_axi_dst_wvalid,
    input  wire         m_axi_dst_wready,
    output wire [511:0] m_axi_dst_wdata,
    output wire [63:0]  m_axi_dst_wstrb,
    output wire         m_axi_dst_wlast,
    input  wire         m_axi_dst_bvalid,
    output wire         m_axi_dst_bready,
    input  wire [1:0]   m_axi_dst_bresp
);
  logic done = 1'b0;
  logic again = 1'b0;
  logic core_clk;
  assign core_clk = sim_step ^ done ^ again;
  always_ff @(posedge core_clk) done <= !done;

  // Edges since the model was made: the harness's cycle count.
  logic [63:0] sim_edges  /*verilator public_flat_rd*/ = 64'd0;
  always_ff @(posedge core_clk) sim_edges <= sim_edges + 64'd1;

  // A failed assertion ends a run of cycles at its edge: sim/rtl_assert.cpp's
  // vl_stop marks the model's context as failed, which the block below reads
  // in line ($c, inside the block so that it is read at each falling edge;
  // a DPI import cost a call and a wrapper at every edge of a run).
  wire quiet = !m_axi_prog_arvalid && !m_axi_data_arvalid && !m_axi_data_awvalid && !m_axi_data_wvalid &&
               !m_axi_srcb_arvalid && !m_axi_dst_awvalid && !m_axi_dst_wvalid && !u_core.sim_idle;
  // A blocking assignment: Verilator then schedules this block with the
  // clock's own logic (its 'act' region), so the next rising edge follows
  // at once instead of after a scheduling round of its own.
  /* verilator lint_off BLKSEQ */
  always @(negedge core_clk) begin
    if (sim_edges < sim_until && quiet && $c("Verilated::gotError()") == 0) again = !again;
  end
  /* verilator lint_on BLKSEQ */

  nnfab_core u_core (
      .ap_clk(core_clk),
      .*
  );

  // What an instruction retiring at this edge was (coverage and the tests'
  // taps, sim/sim_tap.h): sim_retired reads this cycle's inputs (a load
  // retires when its beat arrives), so the harness, which looks after the
  // edge, reads these copies taken at it.
  logic sim_retired_q  /*verilator public_flat_rd*/ = 1'b0;
  logic [7:0] sim_opcode_q  /*verilator public_flat_rd*/ = 8'd0;
  always_ff @(posedge core_clk) begin
    sim_retired_q <= u_core.sim_retired;
    sim_opcode_q <= u_core.sim_opcode;
  end
  logic [63:0] sim_retired_count[256]  /*verilator public_flat_rd*/;
  logic [63:0] sim_retired_total  /*verilator public_flat_rd*/ = 64'd0;
  initial for (int i = 0; i < 256; ++i) sim_retired_count[i] = 64'd0;
  always_ff @(posedge core_clk) begin
    if (u_core.sim_retired) begin
      sim_retired_count[u_core.sim_opcode] <= sim_retired_count[u_core.sim_opcode] + 64'd1;
      sim_retired_total <= sim_retired_total + 64'd1;
    end
  end
endmodule
