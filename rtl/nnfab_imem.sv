// On-chip program memory: MAX_PROGRAM_INSTRUCTIONS 64-bit instructions
// (64 KiB) as beat-wide words, so the loader writes one 512-bit AXI beat per
// cycle. Synchronous read (block RAM): the instruction of `rd_pc` is at
// `insn` in the next cycle.
`include "nnfab_isa.svh"

module nnfab_imem #(
    parameter int BEAT_WORDS = NNFAB_MEM_BEAT_BYTES / NNFAB_INSTRUCTION_BYTES,
    parameter int BEATS = NNFAB_MAX_PROGRAM_INSTRUCTIONS / BEAT_WORDS
) (
    input  logic                     clk,
    input  logic                     we,
    input  logic [$clog2(BEATS)-1:0] waddr,
    input  logic [511:0]             wdata,
    input  logic [12:0]              rd_pc,
    output logic [63:0]              insn
);
  logic [511:0] mem[BEATS];
  logic [511:0] rdata;
  logic [2:0] word_q;

  always_ff @(posedge clk) begin
    if (we) mem[waddr] <= wdata;
    rdata <= mem[rd_pc[12:3]];
    word_q <= rd_pc[2:0];
  end
  assign insn = rdata[{word_q, 6'd0}+:64];
endmodule
