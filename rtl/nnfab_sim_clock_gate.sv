// A clock that stands still while a unit is quiescent, in simulation only
// (docs/sim.md "Evaluation gating"). Verilator evaluates a block only when
// its clock ticks, so a unit clocked by gclk costs the Verilated model one
// trigger test per evaluation while gclk stands, instead of all of its
// registers and the combinational logic behind them.
//
// The enable must be high in every cycle in which any register of the
// unit could change at the coming rising edge, in the hardware; the
// simulation is then the hardware's, cycle for cycle. For synthesis gclk is
// clk and the enable is ignored: no gate, no latch, the same netlist.
//
// The enable is `wake || busy`, held DRAIN edges of gclk past the last
// cycle with `busy` (the unit's pipelines and registered copies catch up
// with the last change while the clock still ticks): `busy` holds the
// clock and restarts the drain (reset, a non-idle state, work queued),
// `wake` only enables the coming edge (a start, an abort that changes no
// register of an idle unit after it). The drain count is a register of
// gclk, so it too stands still with the unit.
//
// The enable is sampled at the falling edge (a glitch-free gate: gclk
// cannot rise in the middle of a high clock phase when it changes after
// the rising edge). So wake and busy must be settled by the falling edge:
// true of anything computed from registers and from inputs that change
// with the rising edge (every harness here: SimHarness drives its inputs
// before the low phase, the SystemC platform at the rising edge). The
// harness's own model compiles the pulse form below instead
// (NNFAB_SIM_PULSE_CLOCK, sim/nnfab_sim_top.sv): no falling edge there.
module nnfab_sim_clock_gate #(
    parameter logic [7:0] DRAIN = 8'd0,
    // The harness's model only (below): 0, a clock of the unit's own; 1 or 2,
    // the core's shared clock of that group (nnfab_core.sv "Shared gated
    // clocks"): 1 the three data ports and the tensor unit's control, 2 the
    // control slave, the trace ring, the sequencer's arguments and divider.
    parameter int GROUP = 0
) (
    input  logic clk,
    input  logic wake,
    input  logic busy,
    output logic gclk
);
  localparam int unused_group = GROUP;  // read by the harness's form only
`ifdef SYNTHESIS
  assign gclk = clk;
`elsif NNFAB_SIM_PULSE_CLOCK
  // The harness's one-evaluation clock (sim/nnfab_sim_top.sv): clk is a
  // pulse that rises with the cycle's inputs applied and falls in the same
  // evaluation as the edge's register updates. The enable is then the
  // combinational one of this cycle, no falling edge needed to hold it:
  // gclk rises with clk when it is high, and a change of it after the edge
  // (a unit woken there) meets clk falling in the same update, so gclk
  // cannot rise twice. en_q keeps its name: the units' proofs read it at
  // the rising edge of clk, where it is this edge's enable in both forms.
  //
  // A unit of a group ticks with the group's clock, which the core raises
  // when any member's en_q is high: each gated clock costs the scheduler a
  // trigger, tested several times per edge, so units that stand still in
  // the same situations share one. A tick that a member's own enable did
  // not ask for changes none of its registers (what its proof checks at
  // every edge its enable is low), and its drain counts down on the shared
  // ticks it asked for, as on its own clock.
  logic [7:0] drain = 8'd0;
  logic en_q;
  always_ff @(posedge gclk)
    if (busy) drain <= DRAIN;
    else if (drain != 8'd0) drain <= drain - 8'd1;
  assign en_q = wake || busy || drain != 8'd0;
  // en_q at the last edge of clk: the units' proofs check the terms on
  // their own registers at the first edge their enable misses (was_on
  // high, en_q low), as those registers then stand still.
  logic was_on;
  always_ff @(posedge clk) was_on <= en_q;
  if (GROUP == 1) begin : g_ports
    assign gclk = nnfab_core.sim_ports_clk;
  end else if (GROUP == 2) begin : g_host
    assign gclk = nnfab_core.sim_host_clk;
  end else begin : g_own
    assign gclk = clk & en_q;
  end
  // A member whose enable the group's clock leaves out would miss edges it
  // asked for: its proof, which looks only at the edges its enable misses,
  // would not see it.
  if (GROUP != 0) begin : g_member
    always_ff @(posedge clk)
      if (en_q) assert (gclk) else $error("%m: the group's clock did not tick for a member's enable");
  end
`else
  logic [7:0] drain = 8'd0;
  logic en_q = 1'b1;  // ticking until the first falling edge says otherwise
  always_ff @(posedge gclk)
    if (busy) drain <= DRAIN;
    else if (drain != 8'd0) drain <= drain - 8'd1;
  always_ff @(negedge clk) en_q <= wake || busy || drain != 8'd0;
  assign gclk = clk & en_q;
  logic was_on;  // as above
  always_ff @(posedge clk) was_on <= en_q;
`endif
endmodule
