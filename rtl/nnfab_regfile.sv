// r0..r31 in flip-flops: three combinational read ports (so an instruction
// reads, computes and writes back in one cycle), two write ports (SWAP
// writes two registers), a bulk write of one context beat (16 registers)
// for RESUME, and a clear for a fresh start. r0 reads 0 and ignores writes.
`include "nnfab_isa.svh"

module nnfab_regfile (
    input  logic          clk,
    input  logic          clear,
    input  logic [4:0]    ra,
    input  logic [4:0]    rb,
    input  logic [4:0]    rc,
    output logic [31:0]   a,
    output logic [31:0]   b,
    output logic [31:0]   c,
    input  logic          we0,
    input  logic [4:0]    wa0,
    input  logic [31:0]   wd0,
    input  logic          we1,
    input  logic [4:0]    wa1,
    input  logic [31:0]   wd1,
    input  logic          bulk_we,     // registers 16*bulk_half .. +15 from bulk_data
    input  logic          bulk_half,
    input  logic [511:0]  bulk_data,
    output logic [1023:0] all          // r0..r31, for the context save
);
  logic [31:0] regs[32];

  assign a = ra == 5'd0 ? 32'd0 : regs[ra];
  assign b = rb == 5'd0 ? 32'd0 : regs[rb];
  assign c = rc == 5'd0 ? 32'd0 : regs[rc];

  always_comb begin
    for (int r = 0; r < 32; r++) all[r*32+:32] = r == 0 ? 32'd0 : regs[r];
  end

  always_ff @(posedge clk) begin
    if (clear) begin
      for (int r = 0; r < 32; r++) regs[r] <= 32'd0;
    end else if (bulk_we) begin
      for (int r = 0; r < 16; r++) regs[{bulk_half, 4'(r)}] <= bulk_data[r*32+:32];
    end else begin
      if (we0) regs[wa0] <= wd0;
      if (we1) regs[wa1] <= wd1;
    end
  end
endmodule
