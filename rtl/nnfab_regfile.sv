// r0..r31 in flip-flops. The sequencer reads the operands of the NEXT
// instruction a cycle ahead, for both of its fetched candidates (the
// fall-through and the branch target, docs/rtl.md "Sequencer pipeline"):
// two sets of three combinational read ports, `_a` and `_b`, and a fourth
// for the executing instruction's RD (`_d`: TENSOR's destination offset,
// SWAP's old rd). Two write ports (SWAP writes two registers), a bulk write
// of one context beat (16 registers) for RESUME, and a clear for a fresh
// start. r0 reads 0 and ignores writes; `all` is r0..r31 for the context
// save, current while `all_en` is high (in simulation only then; always
// for synthesis).
`include "nnfab_isa.svh"

module nnfab_regfile (
    input  logic          clk,
    input  logic          clear,
    input  logic [14:0]   ra_a,        // {rc, rb, ra} of candidate A
    input  logic [14:0]   ra_b,        // {rc, rb, ra} of candidate B
    output logic [95:0]   v_a,         // {c, b, a} of candidate A
    output logic [95:0]   v_b,
    input  logic [4:0]    ra_d,
    output logic [31:0]   v_d,
    input  logic          we0,
    input  logic [4:0]    wa0,
    input  logic [31:0]   wd0,
    input  logic          we1,
    input  logic [4:0]    wa1,
    input  logic [31:0]   wd1,
    input  logic          bulk_we,     // registers 16*bulk_half .. +15 from bulk_data
    input  logic          bulk_half,
    input  logic [511:0]  bulk_data,
    input  logic          all_en,
    output logic [1023:0] all          // r0..r31
);
`ifdef SYNTHESIS
  // r1..r31 as one flat vector (r0 is not stored): each register's write
  // is its own enable and a small data select, so a write port's data goes
  // through one LUT to the flip-flops instead of the wide write multiplexer
  // a memory array would become (docs/rtl.md "Sequencer pipeline").
  logic [1023:32] regs;

  assign all = {regs, 32'd0};
  assign v_d = all[{ra_d, 5'd0}+:32];
  logic unused_all_en;
  assign unused_all_en = all_en;

  // The six read ports in the fabric's mux shape (nnfab_mux32: 4 cells).
  generate
    for (genvar p = 0; p < 3; p++) begin : g_read
      nnfab_mux32 #(.W(32)) u_a (.s(ra_a[p*5+:5]), .d(all), .y(v_a[p*32+:32]));
      nnfab_mux32 #(.W(32)) u_b (.s(ra_b[p*5+:5]), .d(all), .y(v_b[p*32+:32]));
    end
  endgenerate

  always_ff @(posedge clk) begin
    for (int r = 1; r < 32; r++) begin
      if (clear) begin
        regs[r*32+:32] <= 32'd0;
      end else if (bulk_we) begin
        if (bulk_half == (r >= 16)) regs[r*32+:32] <= bulk_data[(r & 15)*32+:32];
      end else if (we1 && wa1 == 5'(r)) begin
        regs[r*32+:32] <= wd1;  // SWAP's second write; as before, it wins when both name one register
      end else if (we0 && wa0 == 5'(r)) begin
        regs[r*32+:32] <= wd0;
      end
    end
  end
`else
  // Simulation: the same registers as an unpacked array (docs/sim.md
  // "Speed"). A Verilated model writes an array element by its index, where
  // the flat vector above costs 31 enable tests per clock, and every read
  // of the flat `all` (six read ports and the sequencer's RD port) copied
  // the whole 1,024-bit concatenation into a temporary first. The same
  // registers, writes and priorities: r0 is never written and reads 0, a
  // clear or a bulk write wins over the write ports, port 1 over port 0.
  logic [31:0] rf[32];

  // rf[0] is zero from the start and never written (every write below
  // skips r0), so the read ports index the array without testing for r0.
  initial rf[0] = 32'd0;
  generate
    for (genvar p = 0; p < 3; p++) begin : g_read
      assign v_a[p*32+:32] = rf[ra_a[p*5+:5]];
      assign v_b[p*32+:32] = rf[ra_b[p*5+:5]];
    end
  endgenerate
  assign v_d = rf[ra_d];
  // `all` is copied from the array only while all_en is high (the context
  // save): a continuous copy cost 31 word moves at every edge, for a value
  // read in S_SAVE alone. Elsewhere it keeps its last value, which nothing
  // reads (the pattern of the sequencer's ctx_image).
  /* verilator lint_off LATCH */
  always_comb begin
    if (all_en) for (int r = 0; r < 32; r++) all[r*32+:32] = rf[r];
  end
  /* verilator lint_on LATCH */

  always_ff @(posedge clk) begin
    if (clear) begin
      for (int r = 1; r < 32; r++) rf[r] <= 32'd0;
    end else if (bulk_we) begin
      // One loop per half, each under one condition: Verilator then commits
      // each half behind one flag, as the clear, instead of one flag per
      // register tested at every edge.
      if (bulk_half) for (int r = 16; r < 32; r++) rf[r] <= bulk_data[(r-16)*32+:32];
      else for (int r = 1; r < 16; r++) rf[r] <= bulk_data[r*32+:32];
    end else begin
      if (we0 && wa0 != 5'd0) rf[wa0] <= wd0;
      if (we1 && wa1 != 5'd0) rf[wa1] <= wd1;  // later: wins when both name one register
    end
  end
`endif
endmodule
