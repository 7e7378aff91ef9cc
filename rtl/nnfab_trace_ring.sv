// The trace ring and the per-class cycle counters of docs/isa.md "Trace
// ring": with MODE.TRACE latched at a start, every traced branch the
// sequencer retires becomes one 64-bit entry (cycle stamp, pc, TAKEN,
// BACKEDGE) in a TRACE_DEPTH-entry distributed RAM, keep-first: once full,
// further events only count in TRACE_DROPPED. Every cycle counted in CYCLES
// after the program load also counts in the counter of the executing
// instruction's class. Everything is zeroed when a start is accepted.
// A faulting instruction costs no cycles (the sequencer puts CYCLES back to
// its value at the issue), so its class gives them back too: the cycle of a
// load/store found outside the region is not counted (cyc_cancel, the
// sequencer's S_MEMFAULT), and a faulting TENSOR instruction puts the TENSOR
// counter back to its value at the issue (cyc_revert). The classes always
// add up to CYCLES minus the program load, as on the HLS core.
//
// Off the sequencer's paths: the events and cycle classes arrive registered
// by one stage here, so the ring adds no logic after the sequencer's late
// signals (retire) but one flip-flop, and never a cycle to the program.
//
// Two ways out (docs/rtl.md "Trace ring"): the control slave's window
// (rd_index -> rd_entry, an asynchronous LUTRAM read the slave registers),
// and the dump: with TRACE_ADDR set (non-zero, 64-byte aligned) the ring
// writes its entries to device memory when the sequencer has stopped
// (finish: it waits in S_FINISH while `hold`), after CYCLES stopped
// counting, one 512-bit beat per cycle through the data port's single-beat
// write queue, and releases the sequencer once every write is answered.
// The first beat is the header (FEATURE_TRACE_HEADER, isa.json
// trace_header_words: TRACE_COUNT, TRACE_DROPPED and the class counters,
// the rest 0) at TRACE_ADDR, written also for an empty ring; the entries
// follow from TRACE_ADDR + TRACE_HEADER_BYTES. The RAM is eight banks of 32
// entries (entry i in bank i % 8, row i / 8), so a row is one beat: entry i
// lands at TRACE_ADDR + TRACE_HEADER_BYTES + 8 i, and the last beat enables
// only the bytes of the entries held.
`include "nnfab_isa.svh"

// The harness's model (NNFAB_SIM_PULSE_CLOCK, sim/nnfab_sim_top.sv) clocks
// the ring with a gated clock that stands still while MODE.TRACE is off
// (the end of this file); every other build, synthesis included, with clk.
`ifdef NNFAB_SIM_PULSE_CLOCK
`define NNFAB_RING_CLK r_clk
`else
`define NNFAB_RING_CLK clk
`endif

module nnfab_trace_ring (
    input  logic          clk,
    input  logic          rst,
    input  logic          dump_rst,     // rst or the end of a soft reset: abandons a dump
    input  logic          start,        // the sequencer accepted a start: clear, latch the enable
    input  logic          start_trace,  // MODE.TRACE at that start
    input  logic [63:0]   trace_addr,   // TRACE_ADDR at that start
    // a traced branch retires (sequencer)
    input  logic          ev_valid,
    input  logic [12:0]   ev_pc,
    input  logic          ev_taken,
    input  logic          ev_backedge,
    input  logic [47:0]   ev_cycle,     // CYCLES in the branch's cycle (before it counts)
    // a cycle counted in CYCLES (program load excluded) and its class
    input  logic          cyc_valid,
    input  logic [2:0]    cyc_class,    // 0 CTRL, 1 MEM, 2 SALU, 3 BRANCH, 4 TENSOR
    input  logic          cyc_issue,    // the sequencer issues (S_RUN): CYCLES is kept for a fault
    input  logic          cyc_cancel,   // S_MEMFAULT: the last counted cycle (the fault's) does not count
    input  logic          cyc_revert,   // a TENSOR instruction faults: its cycles do not count
    // host side (control slave)
    input  logic [7:0]    rd_index,
    output logic [63:0]   rd_entry,
    output logic [31:0]   count,
    output logic [31:0]   dropped,
    output logic [319:0]  class_cycles, // CLASS_CYCLES_CTRL at bits 63:0, then MEM, SALU, BRANCH, TENSOR
    // the dump at the stop (sequencer and data port)
    input  logic          finish,       // the sequencer is in S_FINISH
    output logic          hold,         // ... and waits there for the dump
    output logic          dumping,      // the dump owns the data port's write queue
    output logic          sq_push,
    output logic [63:0]   sq_addr,
    output logic [511:0]  sq_data,
    output logic [63:0]   sq_strb,
    input  logic          sq_full,
    input  logic          writes_idle
);
  localparam int DEPTH = NNFAB_TRACE_DEPTH;
  localparam int CLASSES = 5;
  localparam int BANKS = NNFAB_MEM_BEAT_BYTES / 8;  // entries per beat
  localparam int ROWS = DEPTH / BANKS;
  localparam int AREA_BYTES = NNFAB_TRACE_HEADER_BYTES + DEPTH * 8;  // header beat + entries

  logic enable;
  logic ev_q;
  logic [63:0] word_q;
  logic cyc_q;
  logic [2:0] class_q;
  // The TENSOR counter as it was when the instruction in execute issued:
  // sampled a cycle after each issue cycle (issue_q), when the counter holds
  // every cycle before the issue, and restored a cycle after a tensor fault
  // (revert_q), which also drops that cycle's registered increment.
  logic issue_q, revert_q;
  logic [63:0] tensor_at_issue;
  logic [8:0] fill;  // entries held, 0..DEPTH
  logic full;
  logic we;
  assign full = fill[8];
  assign we = ev_q && !full;
  assign count = {23'd0, fill};

  // The dump's state: the header beat still to write, the row it writes
  // next (0..ROWS), the beat's slot in the area (header 0, row r at r + 1),
  // the latched TRACE_ADDR, and whether this start's dump is done.
  logic hdr;
  logic [5:0] row, slot;
  logic [63:0] base;
  logic base_ok, dumped;
  logic [51:0] base_hi_p1;  // base[63:12] + 1: rows past a 4 KiB page boundary
  logic [26:0] base_mid_p1;  // its low half first (two short carry chains)
  logic more;
  assign more = hdr || {row, 3'd0} < fill;
  assign hold = enable && base_ok && !dumped;

`ifdef SYNTHESIS
  // Eight banks: one row of all of them is one beat. The window and the
  // dump share the row address (the host reads the window after AP_DONE,
  // the dump is over before it).
  logic [4:0] row_sel;
  logic [511:0] beat;
  assign row_sel = dumping ? row[4:0] : rd_index[7:3];
  generate
    for (genvar k = 0; k < BANKS; k++) begin : g_bank
      localparam logic [2:0] K = k;
      (* ram_style = "distributed" *) logic [63:0] mem[ROWS];
      always_ff @(posedge `NNFAB_RING_CLK) begin
        if (we && fill[2:0] == K) mem[fill[7:3]] <= word_q;
      end
      assign beat[k*64+:64] = mem[row_sel];
      // The header's 64 bytes, then only the bytes of the entries held:
      // entry 8 row + k.
      assign sq_strb[k*8+:8] = {8{hdr || {row, K} < fill}};
    end
  endgenerate
  assign rd_entry = beat[{rd_index[2:0], 6'd0}+:64];

`else
  // Simulation (docs/sim.md "Speed"): the same entries as one array of
  // TRACE_DEPTH words, entry i at i (bank i % 8, row i / 8 above), and the
  // dump's beat, header, data and strobes computed only while dumping, the
  // one time anything reads them (the data port's write queue takes
  // sq_data and sq_strb only with sq_push, the core's write multiplexer
  // selects them only with `dumping`). The window's row address reads the
  // host's ARADDR, a top-level input, so the eight banks' 512-bit row was
  // read, the header built and the beat selected at every evaluation.
  logic [63:0] ring[ROWS * BANKS];  // DEPTH entries
  logic [4:0] row_sel;
  assign row_sel = dumping ? row[4:0] : rd_index[7:3];
  always_ff @(posedge `NNFAB_RING_CLK) begin
    if (we) ring[fill[7:0]] <= word_q;
  end
  assign rd_entry = ring[{row_sel, rd_index[2:0]}];

  logic [511:0] beat, header;
  /* verilator lint_off LATCH */
  always_comb
    if (dumping) begin
      for (int k = 0; k < BANKS; k++) begin
        beat[k*64+:64] = ring[{row[4:0], k[2:0]}];
        sq_strb[k*8+:8] = {8{hdr || {row, k[2:0]} < fill}};
      end
      header = '0;
      header[NNFAB_TRACE_HDR_COUNT*32+:32] = count;
      header[NNFAB_TRACE_HDR_DROPPED*32+:32] = dropped;
      header[NNFAB_TRACE_HDR_CLASS_CYCLES*32+:320] = class_cycles;
      sq_data = hdr ? header : beat;
    end
  /* verilator lint_on LATCH */
`endif

  // Beat address TRACE_ADDR + 64 slot: a 7-bit sum, the page above it from
  // base or base + 1 (computed while the program runs): no long carry here.
  logic [6:0] lo_sum;
  assign lo_sum = {1'b0, base[11:6]} + {1'b0, slot};
  assign sq_addr = {lo_sum[6] ? base_hi_p1 : base[63:12], lo_sum[5:0], 6'd0};

`ifdef SYNTHESIS
  // The header beat: the counters the host would read as registers, at the
  // word indices of isa.json trace_header_words (the rest 0). They no
  // longer change once the sequencer is in S_FINISH.
  logic [511:0] header;
  always_comb begin
    header = '0;
    header[NNFAB_TRACE_HDR_COUNT*32+:32] = count;
    header[NNFAB_TRACE_HDR_DROPPED*32+:32] = dropped;
    header[NNFAB_TRACE_HDR_CLASS_CYCLES*32+:320] = class_cycles;
  end
  assign sq_data = hdr ? header : beat;
`endif
  assign sq_push = dumping && more && !sq_full;

  // A 64-bit counter in two 32-bit halves (as the sequencer's CYCLES): no
  // carry chain longer than 32 bits.
  function automatic [63:0] inc64(input [63:0] x);
    inc64 = {x[63:32] + {31'd0, x[31:0] == 32'hFFFF_FFFF}, x[31:0] + 32'd1};
  endfunction

  always_ff @(posedge `NNFAB_RING_CLK) begin
    if (rst) begin
      enable <= 1'b0;
      ev_q <= 1'b0;
      cyc_q <= 1'b0;
      issue_q <= 1'b0;
      revert_q <= 1'b0;
      fill <= '0;
      dropped <= '0;
    end else if (start) begin
      enable <= start_trace;
      ev_q <= 1'b0;
      cyc_q <= 1'b0;
      issue_q <= 1'b0;
      revert_q <= 1'b0;
      fill <= '0;
      dropped <= '0;
    end else begin
      ev_q <= enable && ev_valid;
      word_q <= {1'b0, ev_backedge, ev_taken, ev_pc, ev_cycle};
      cyc_q <= enable && cyc_valid;
      class_q <= cyc_class;
      issue_q <= enable && cyc_issue;
      revert_q <= enable && cyc_revert;
      if (ev_q) begin
        if (full) dropped <= dropped + 32'd1;
        else fill <= fill + 9'd1;
      end
    end
  end

  always_ff @(posedge `NNFAB_RING_CLK) begin
    base_ok <= base != 64'd0 && base[5:0] == 6'd0;
    // Two cycles after the start, long before the stop.
    base_mid_p1 <= {1'b0, base[37:12]} + 27'd1;
    base_hi_p1 <= {base[63:38] + {25'd0, base_mid_p1[26]}, base_mid_p1[25:0]};
    if (dump_rst) begin
      base <= '0;
      dumping <= 1'b0;
      dumped <= 1'b0;
      hdr <= 1'b0;
      row <= '0;
      slot <= '0;
    end else if (start) begin
      base <= trace_addr;
      dumping <= 1'b0;
      dumped <= 1'b0;
      hdr <= 1'b1;
      row <= '0;
      slot <= '0;
    end else if (dumping) begin
      if (sq_push) begin
        hdr <= 1'b0;
        if (!hdr) row <= row + 6'd1;
        slot <= slot + 6'd1;
      end
      // Every beat queued: done once the last write is answered.
      if (!more && writes_idle) begin
        dumping <= 1'b0;
        dumped <= 1'b1;
      end
    end else if (finish && hold) begin
      dumping <= 1'b1;
    end
  end

  localparam int TENSOR = 4;
  always_ff @(posedge `NNFAB_RING_CLK) begin
    if (issue_q) tensor_at_issue <= class_cycles[TENSOR*64+:64];
  end

  generate
    for (genvar k = 0; k < CLASSES; k++) begin : g_class
      localparam logic [2:0] K = k;
      always_ff @(posedge `NNFAB_RING_CLK) begin
        if (rst || start) class_cycles[k*64+:64] <= '0;
        else if (k == TENSOR && revert_q) class_cycles[k*64+:64] <= tensor_at_issue;
        else if (cyc_q && !cyc_cancel && class_q == K) class_cycles[k*64+:64] <= inc64(class_cycles[k*64+:64]);
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
  always_ff @(posedge `NNFAB_RING_CLK) begin
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
      // The dump: only while the sequencer waits in S_FINISH, the header
      // first, then only the rows of entries held, only inside the
      // TRACE_HEADER_BYTES + TRACE_DEPTH * 8-byte area.
      if (dumping) assert (finish) else $error("trace ring: dumping outside the sequencer's S_FINISH");
      if (sq_push)
        assert (hold && sq_strb[7:0] == 8'hFF && row < 6'(DEPTH / BANKS) && slot == row + {5'd0, !hdr} &&
                sq_addr - base == {52'd0, slot, 6'd0} && sq_addr - base < 64'(AREA_BYTES))
        else $error("trace ring: a dump beat outside the trace area or of no entry");
    end
  end
`endif
`ifdef NNFAB_SIM_PULSE_CLOCK
  // ------------------------------------------------------ the gated clock
  // Without MODE.TRACE the ring records nothing (no entry, no class cycle,
  // no dump), so its clock stands still from three edges after the start
  // (nnfab_sim_clock_gate, docs/sim.md "Gated clocks"): by then the
  // registered TRACE_ADDR checks and increments (base_ok, base_mid_p1,
  // base_hi_p1) and the assertions' copies have caught up. word_q and
  // class_q, the copies of the sequencer's event and cycle class, then keep
  // old values: they are read only behind ev_q and cyc_q, which stay 0
  // while the clock stands and are loaded at the same edges as they are.
  logic r_clk;
  nnfab_sim_clock_gate #(
      .DRAIN(8'd3),
      .GROUP(2)
  ) u_gate (
      .clk (clk),
      .wake(1'b0),
      .busy(rst || dump_rst || start || enable || dumping),
      .gclk(r_clk)
  );
  // The proof: at every edge of clk that r_clk misses, no register of the
  // ring but word_q and class_q would change had it ticked, written from
  // the always_ff blocks term by term (not from the enable). The terms on
  // the ring's own registers (the sampled event and cycle flags and the
  // write they make; the registered TRACE_ADDR checks and increments and
  // the assertions' copies: 64-bit arithmetic) are checked at the first
  // edge its enable misses: they then hold still, whatever edges the shared
  // clock gives the ring, as long as the terms on its inputs hold, which
  // are checked at every one (the pattern of nnfab_tensor.sv's proof).
  always_ff @(posedge clk) begin
    if (!u_gate.en_q) begin
      assert (!rst && !dump_rst && !start && !enable && !dumping && !(finish && hold))
      else $error("%m: the gated clock stopped while the trace ring was recording");
      if (u_gate.was_on)
        assert (!ev_q && !cyc_q && !issue_q && !revert_q && !we &&
                base_ok == (base != 64'd0 && base[5:0] == 6'd0) && base_mid_p1 == {1'b0, base[37:12]} + 27'd1 &&
                base_hi_p1 == {base[63:38] + {25'd0, base_mid_p1[26]}, base_mid_p1[25:0]} && a_full == full &&
                a_fill == fill)
        else $error("%m: the gated clock stopped before the trace ring's registered checks caught up");
    end
  end
`endif
endmodule
`undef NNFAB_RING_CLK
