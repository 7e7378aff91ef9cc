// On-chip program memory: MAX_PROGRAM_INSTRUCTIONS 64-bit instructions
// (64 KiB) as beat-wide words, so the loader writes one 512-bit AXI beat per
// cycle. Two synchronous read ports (one true dual-port block RAM): the
// sequencer fetches both successors of the instruction it is about to
// execute, the fall-through on port A and the branch target on port B
// (docs/rtl.md "Sequencer pipeline"). Port A also takes the loader's writes,
// which never overlap a fetch. A read port with `en` low keeps its output,
// so a stalled instruction keeps its successors.
`include "nnfab_isa.svh"

module nnfab_imem #(
    parameter int BEAT_WORDS = NNFAB_MEM_BEAT_BYTES / NNFAB_INSTRUCTION_BYTES,
    parameter int BEATS = NNFAB_MAX_PROGRAM_INSTRUCTIONS / BEAT_WORDS
) (
    input  logic                     clk,
    input  logic                     we,
    input  logic [$clog2(BEATS)-1:0] waddr,
    input  logic [511:0]             wdata,
    input  logic                     en,
    input  logic [12:0]              pc_a,
    input  logic [12:0]              pc_b,
    output logic [63:0]              insn_a,
    output logic [63:0]              insn_b
);
`ifdef SYNTHESIS
  logic [511:0] mem[BEATS];
  logic [511:0] rdata_a, rdata_b;
  logic [2:0] word_a, word_b;
  logic [$clog2(BEATS)-1:0] addr_a;

  assign addr_a = we ? waddr : pc_a[12:3];

  always_ff @(posedge clk) begin
    if (we) mem[addr_a] <= wdata;
    if (en) rdata_a <= mem[addr_a];
  end
  always_ff @(posedge clk) begin
    if (en) rdata_b <= mem[pc_b[12:3]];
  end
  always_ff @(posedge clk) begin
    if (en) begin
      word_a <= pc_a[2:0];
      word_b <= pc_b[2:0];
    end
  end
  assign insn_a = rdata_a[{word_a, 6'd0}+:64];
  assign insn_b = rdata_b[{word_b, 6'd0}+:64];
`else
  // Simulation: the same memory as 64-bit words (docs/sim.md "Speed"). The
  // block RAM's registered 512-bit read and the word select after it are
  // one registered 64-bit read here, the same word at the same edge: a
  // Verilated model otherwise copies two 512-bit words per fetch and
  // selects from them on every evaluation. Port A reads before the write of
  // the same edge, as the block RAM's read-first port does.
  logic [63:0] mem[NNFAB_MAX_PROGRAM_INSTRUCTIONS];
  logic [$clog2(BEATS)-1:0] beat_a;

  assign beat_a = we ? waddr : pc_a[12:3];

  always_ff @(posedge clk) begin
    if (we) for (int k = 0; k < BEAT_WORDS; k++) mem[{waddr, k[2:0]}] <= wdata[k*64+:64];
    if (en) insn_a <= mem[{beat_a, pc_a[2:0]}];
    if (en) insn_b <= mem[pc_b];
  end
`endif
endmodule
