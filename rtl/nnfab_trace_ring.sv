// The trace ring and the per-class cycle counters of docs/isa.md "Trace
// ring": with MODE.TRACE latched at a start, every traced branch the
// sequencer retires becomes one 64-bit entry (cycle stamp, pc, TAKEN,
// BACKEDGE) in a TRACE_DEPTH-entry distributed RAM, keep-first: once full,
// further events only count in TRACE_DROPPED. Every cycle counted in CYCLES
// after the program load also counts in the counter of the executing
// instruction's class. Everything is zeroed when a start is accepted.
//
// Off the sequencer's paths: the events and cycle classes arrive registered
// by one stage here, so the ring adds no logic after the sequencer's late
// signals (retire) but one flip-flop, and never a cycle to the program. The
// host reads entries through the control slave's window (rd_index ->
// rd_entry, an asynchronous LUTRAM read the slave registers), so the data
// port never sees the trace.
`include "nnfab_isa.svh"

module nnfab_trace_ring (
    input  logic          clk,
    input  logic          rst,
    input  logic          start,        // the sequencer accepted a start: clear, latch the enable
    input  logic          start_trace,  // MODE.TRACE at that start
    // a traced branch retires (sequencer)
    input  logic          ev_valid,
    input  logic [12:0]   ev_pc,
    input  logic          ev_taken,
    input  logic          ev_backedge,
    input  logic [47:0]   ev_cycle,     // CYCLES in the branch's cycle (before it counts)
    // a cycle counted in CYCLES (program load excluded) and its class
    input  logic          cyc_valid,
    input  logic [2:0]    cyc_class,    // 0 CTRL, 1 MEM, 2 SALU, 3 BRANCH, 4 TENSOR
    // host side (control slave)
    input  logic [7:0]    rd_index,
    output logic [63:0]   rd_entry,
    output logic [31:0]   count,
    output logic [31:0]   dropped,
    output logic [319:0]  class_cycles  // CLASS_CYCLES_CTRL at bits 63:0, then MEM, SALU, BRANCH, TENSOR
);
  localparam int DEPTH = NNFAB_TRACE_DEPTH;
  localparam int CLASSES = 5;

  logic enable;
  logic ev_q;
  logic [63:0] word_q;
  logic cyc_q;
  logic [2:0] class_q;
  logic [8:0] fill;  // entries held, 0..DEPTH
  logic full;
  logic we;
  assign full = fill[8];
  assign we = ev_q && !full;
  assign count = {23'd0, fill};

  (* ram_style = "distributed" *) logic [63:0] mem[DEPTH];
  always_ff @(posedge clk) begin
    if (we) mem[fill[7:0]] <= word_q;
  end
  assign rd_entry = mem[rd_index];

  // A 64-bit counter in two 32-bit halves (as the sequencer's CYCLES): no
  // carry chain longer than 32 bits.
  function automatic [63:0] inc64(input [63:0] x);
    inc64 = {x[63:32] + {31'd0, x[31:0] == 32'hFFFF_FFFF}, x[31:0] + 32'd1};
  endfunction

  always_ff @(posedge clk) begin
    if (rst) begin
      enable <= 1'b0;
      ev_q <= 1'b0;
      cyc_q <= 1'b0;
      fill <= '0;
      dropped <= '0;
    end else if (start) begin
      enable <= start_trace;
      ev_q <= 1'b0;
      cyc_q <= 1'b0;
      fill <= '0;
      dropped <= '0;
    end else begin
      ev_q <= enable && ev_valid;
      word_q <= {1'b0, ev_backedge, ev_taken, ev_pc, ev_cycle};
      cyc_q <= enable && cyc_valid;
      class_q <= cyc_class;
      if (ev_q) begin
        if (full) dropped <= dropped + 32'd1;
        else fill <= fill + 9'd1;
      end
    end
  end

  generate
    for (genvar k = 0; k < CLASSES; k++) begin : g_class
      localparam logic [2:0] K = k;
      always_ff @(posedge clk) begin
        if (rst || start) class_cycles[k*64+:64] <= '0;
        else if (cyc_q && class_q == K) class_cycles[k*64+:64] <= inc64(class_cycles[k*64+:64]);
      end
    end
  endgenerate

`ifndef SYNTHESIS
  // ------------------------------------------------------ assertions
  // docs/rtl.md "Assertions": keep-first (no write once full, the held
  // entries never change until the next start), every event is either held
  // or dropped, nothing is recorded without MODE.TRACE.
  logic [31:0] a_events;
  logic [8:0] a_fill;
  logic a_full;
  always_ff @(posedge clk) begin
    if (rst || start) begin
      a_events <= '0;
      a_full <= 1'b0;
    end else begin
      if (ev_q) a_events <= a_events + 32'd1;
      a_full <= full;
      a_fill <= fill;
      assert (!(we && full)) else $error("trace ring: write while full (keep-first)");
      assert (fill <= 9'(DEPTH)) else $error("trace ring: more entries than TRACE_DEPTH");
      assert (count + dropped == a_events) else $error("trace ring: TRACE_COUNT + TRACE_DROPPED != traced events");
      if (a_full) assert (full && fill == a_fill) else $error("trace ring: a full ring changed before a start");
      if (!enable) assert (fill == 9'd0 && dropped == 32'd0 && class_cycles == '0)
        else $error("trace ring: recorded without MODE.TRACE");
    end
  end
`endif
endmodule
