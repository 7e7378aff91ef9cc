// First-word-fall-through FIFO over a synchronous-read memory (block RAM):
// the head sits in the memory's output register, and the next word is read
// in the cycle the head is popped, so a steady stream moves one word per
// cycle. `count` includes the head; a writer keeps it at most DEPTH.
`include "nnfab_isa.svh"

module nnfab_fifo #(
    parameter int WIDTH = 512,
    parameter int DEPTH_LOG2 = 7
) (
    input  logic                  clk,
    input  logic                  clear,     // synchronous: empties the FIFO
    input  logic                  wr_en,
    input  logic [WIDTH-1:0]      wr_data,
    input  logic                  pop,       // only while out_valid
    output logic                  out_valid,
    output logic [WIDTH-1:0]      out_data,
    output logic [DEPTH_LOG2+1:0] count
);
  logic [WIDTH-1:0] mem[(1<<DEPTH_LOG2)];
  logic [DEPTH_LOG2-1:0] wptr, rptr;
  logic [DEPTH_LOG2:0] mem_count;
  logic fetch;

  assign fetch = (mem_count != '0) && (!out_valid || pop);
  assign count = {1'b0, mem_count} + {{(DEPTH_LOG2 + 1) {1'b0}}, out_valid};

  always_ff @(posedge clk) begin
    if (wr_en) mem[wptr] <= wr_data;
    if (fetch) out_data <= mem[rptr];
  end

  always_ff @(posedge clk) begin
    if (clear) begin
      wptr <= '0;
      rptr <= '0;
      mem_count <= '0;
      out_valid <= 1'b0;
    end else begin
      if (wr_en) wptr <= wptr + 1'b1;
      if (fetch) rptr <= rptr + 1'b1;
      mem_count <= mem_count + {{DEPTH_LOG2{1'b0}}, wr_en} - {{DEPTH_LOG2{1'b0}}, fetch};
      if (fetch) out_valid <= 1'b1;
      else if (pop) out_valid <= 1'b0;
    end
  end
endmodule
