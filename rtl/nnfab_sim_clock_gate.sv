// A clock that stands still while a unit is quiescent, in simulation only
// (docs/sim.md "Evaluation gating"). Verilator evaluates a block only when
// its clock ticks, so a unit clocked by gclk costs the Verilated model one
// trigger test per evaluation while gclk stands, instead of all of its
// registers and the combinational logic behind them.
//
// The caller's `en` must be high in every cycle in which any register of
// the unit could change at the coming rising edge, in the hardware; the
// simulation is then the hardware's, cycle for cycle. For synthesis gclk is
// clk and en is ignored: no gate, no latch, the same netlist.
//
// en is sampled at the falling edge (a glitch-free gate: gclk cannot rise
// in the middle of a high clock phase when en changes after the rising
// edge). So en must be settled by the falling edge: true of anything
// computed from registers and from inputs that change with the rising edge
// (every harness here: SimHarness drives its inputs before the low phase,
// the SystemC platform at the rising edge).
module nnfab_sim_clock_gate (
    input  logic clk,
    input  logic en,
    output logic gclk
);
`ifdef SYNTHESIS
  assign gclk = clk;
`else
  logic en_q = 1'b1;  // ticking until the first falling edge says otherwise
  always_ff @(negedge clk) en_q <= en;
  assign gclk = clk & en_q;
`endif
endmodule
