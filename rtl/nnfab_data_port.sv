// One AXI4 master of the core's data region. The core has three
// (docs/rtl.md "Data ports"): m_axi_data (every client: loads, stores,
// context, descriptors, the element and FC engines, the vector engine's A
// and C), m_axi_srcb (read-only: the vector engine's B) and m_axi_dst
// (write-only: the vector engine's result bursts), each an instance of this
// module with the unused requests tied off (synthesis removes their logic).
// AXI orders nothing between masters: the core's writes_idle is the AND of
// the writing ports', so "wait for writes_idle" covers both, and a soft
// reset quiesces all three (the core waits for every port's quiet).
// The m_axi_data master's clients never run at the same time (the
// sequencer runs one instruction or stop step at a time), so requests are
// OR-combined by the core and this module only adds what is shared:
//  - reads: AR pass-through, per-burst address tracking (for BUS_ERROR's
//    address), outstanding-beat count, and draining after a fault;
//  - single-beat writes (stores, context save, the tensor element path)
//    through a small posted queue, so a store costs one cycle;
//  - burst writes of the tensor vector path, passed through;
//  - write responses: outstanding count, and BRESP errors with the burst's
//    address.
// AXI gives no ordering between reads and writes: clients wait for
// writes_idle before reading anything a queued write may touch.
// quiesce (a soft reset, docs/rtl.md "Soft reset"): the clients are
// ignored from then on (no READY, no beat; they are reset afterwards) and
// the port finishes alone what AXI holds it to, from copies it keeps: an
// AR or a burst W beat whose VALID was up and unaccepted in the previous
// cycle stays up until its READY; the burst AW the client was presenting
// is issued (W beats may have gone ahead of it; if beats went ahead of an
// AW not presented yet, the next one the client presents is taken, since
// it still runs); every burst whose AW was
// accepted gets the rest of its beats with no byte enabled (WLAST from the
// length kept per burst); every read beat is taken and dropped, the read
// beats of the port's own AR hidden from the clients; the write queue
// drains; every B is awaited. quiet: nothing requested and unanswered.
`include "nnfab_isa.svh"

// The port's registers are on clk; in the harness's model (Verilator with
// NNFAB_SIM_PULSE_CLOCK, sim/nnfab_sim_top.sv) on a gated clock that stands
// still while the port is quiescent (the gate, its enable and its proof at
// the end of the module; docs/sim.md "Gated data ports").
`ifdef NNFAB_SIM_PULSE_CLOCK
`define NNFAB_PORT_CLK gclk
`else
`define NNFAB_PORT_CLK clk
`endif

module nnfab_data_port #(
    parameter int TRACK_LOG2 = 4  // outstanding read bursts and write bursts tracked
) (
    input  logic         clk,
    input  logic         rst,
    // AXI4 master
    output logic         awvalid,
    input  logic         awready,
    output logic [63:0]  awaddr,
    output logic [7:0]   awlen,
    output logic         wvalid,
    input  logic         wready,
    output logic [511:0] wdata,
    output logic [63:0]  wstrb,
    output logic         wlast,
    input  logic         bvalid,
    output logic         bready,
    input  logic [1:0]   bresp,
    output logic         arvalid,
    input  logic         arready,
    output logic [63:0]  araddr,
    output logic [7:0]   arlen,
    input  logic         rvalid,
    output logic         rready,
    input  logic [1:0]   rresp,
    input  logic         rlast,
    // read requests (beat-aligned addresses) and the returned beats
    input  logic         rd_valid,
    input  logic [63:0]  rd_addr,
    input  logic [7:0]   rd_len,
    output logic         rd_ready,
    output logic         r_valid,
    output logic         r_error,    // this beat came back with an error response
    input  logic         r_ready,
    // single-beat posted writes
    input  logic         sq_push,
    input  logic [63:0]  sq_addr,
    input  logic [511:0] sq_data,
    input  logic [63:0]  sq_strb,
    output logic         sq_full,
    // burst writes
    input  logic         bw_aw_valid,
    input  logic [63:0]  bw_aw_addr,
    input  logic [7:0]   bw_aw_len,
    output logic         bw_aw_ready,
    input  logic         bw_w_valid,
    input  logic [511:0] bw_w_data,
    input  logic [63:0]  bw_w_strb,
    input  logic         bw_w_last,
    output logic         bw_w_ready,
    // state
    output logic         writes_idle,
    output logic         reads_idle,
    input  logic         drain,       // accept and drop every read beat
    input  logic         clear_error,
    output logic         bus_error,
    output logic [31:0]  bus_error_addr,
    input  logic         quiesce,
    output logic         quiet
);
  localparam int TRACK = 1 << TRACK_LOG2;
  localparam int SQ_LOG2 = 2;
  localparam int SQ = 1 << SQ_LOG2;
`ifdef NNFAB_SIM_PULSE_CLOCK
  logic gclk;
`endif

  // ------------------------------------------------------------ reads
  logic [31:0] rd_track[TRACK];  // low address word of each outstanding read burst
  logic [TRACK_LOG2-1:0] rt_w, rt_r;
  logic [TRACK_LOG2:0] rt_count;
  logic [7:0] r_beat;  // beat index inside the head burst
  logic ar_fire, r_fire;
  // A VALID up and not accepted in the previous cycle (AXI keeps it up),
  // with a copy of its payload taken every cycle outside quiesce.
  logic ar_pend_q, aw_pend_q, w_pend_q;
  logic [63:0] ar_h_addr, aw_h_addr;
  logic [7:0] ar_h_len, aw_h_len;
  logic [511:0] w_h_data;
  logic [63:0] w_h_strb;
  logic w_h_last;
  logic own_r;  // the port's own read burst (the last one) is outstanding
  logic r_hide;

  assign arvalid = quiesce ? ar_pend_q : rd_valid && rt_count != TRACK[TRACK_LOG2:0];
  assign rd_ready = arready && rt_count != TRACK[TRACK_LOG2:0] && !quiesce;
  assign araddr = quiesce ? ar_h_addr : rd_addr;
  assign arlen = quiesce ? ar_h_len : rd_len;
  assign ar_fire = arvalid && arready;
  // Issued last, the port's own burst is the head once it is the only one.
  assign r_hide = own_r && rt_count == {{TRACK_LOG2{1'b0}}, 1'b1};
  assign r_valid = rvalid && !r_hide;
  assign r_error = rresp != 2'b00;
  assign rready = r_ready || drain || quiesce;
  assign r_fire = rvalid && rready;
  // Every accepted burst owes beats until its RLAST: no burst outstanding is
  // no beat outstanding, and a 5-bit count is a far shorter path after the
  // clients' AR request than a beat count would be.
  assign reads_idle = rt_count == '0;

  always_ff @(posedge `NNFAB_PORT_CLK) begin
    if (ar_fire) rd_track[rt_w] <= araddr[31:0];
  end

  always_ff @(posedge `NNFAB_PORT_CLK) begin
    if (rst) begin
      rt_w <= '0;
      rt_r <= '0;
      rt_count <= '0;
      r_beat <= '0;
      own_r <= 1'b0;
    end else begin
      if (quiesce && ar_fire) own_r <= 1'b1;
      if (ar_fire) rt_w <= rt_w + 1'b1;
      if (r_fire && rlast) rt_r <= rt_r + 1'b1;
      rt_count <= rt_count + {{TRACK_LOG2{1'b0}}, ar_fire} - {{TRACK_LOG2{1'b0}}, r_fire && rlast};
      if (r_fire) r_beat <= rlast ? 8'd0 : r_beat + 8'd1;
    end
  end

  // ------------------------------------------------- single-beat queue
  logic [63:0] sq_a[SQ];
  logic [511:0] sq_d[SQ];
  logic [63:0] sq_s[SQ];
  logic [SQ_LOG2-1:0] sq_w, sq_r;
  logic [SQ_LOG2:0] sq_count;
  logic sq_aw_done, sq_w_done, sq_head, sq_pop;

  logic sq_push_ok, sq_full_q;
  assign sq_full_q = sq_count == SQ[SQ_LOG2:0];
  assign sq_full = sq_full_q || quiesce;
  assign sq_push_ok = sq_push && !quiesce;
  assign sq_head = sq_count != '0;

  always_ff @(posedge `NNFAB_PORT_CLK) begin
    if (sq_push_ok) begin
      sq_a[sq_w] <= sq_addr;
      sq_d[sq_w] <= sq_data;
      sq_s[sq_w] <= sq_strb;
    end
  end

  // ------------------------------------------------------------ writes
  logic [31:0] wr_track[TRACK];  // low address word of each unanswered write burst
  logic [TRACK_LOG2-1:0] wt_w, wt_r;
  logic [TRACK_LOG2:0] wt_count;
  logic aw_room, aw_from_sq, w_from_sq, aw_fire, w_fire, b_fire;
  // W bookkeeping for every burst (queued or not; W follows AW order): the
  // length of each accepted burst, the burst receiving W beats (w_ptr),
  // the beat in it, and AWs accepted less bursts whose W is complete
  // (negative while beats run ahead of their AW). Under quiesce the port
  // sends what those bursts still owe.
  logic [5:0] wr_len[TRACK];
  logic [TRACK_LOG2-1:0] w_ptr;
  logic [5:0] w_beat;
  logic [TRACK_LOG2+1:0] w_bursts;  // two's complement
  logic w_owed, q_w_gen, gen_last;
  assign w_owed = !w_bursts[TRACK_LOG2+1] && w_bursts != '0;
  assign q_w_gen = !w_pend_q && w_owed;
  assign gen_last = w_beat == wr_len[w_ptr];

  assign aw_room = wt_count != TRACK[TRACK_LOG2:0];
  assign aw_from_sq = sq_head && !sq_aw_done;
  assign w_from_sq = sq_head && !sq_w_done;
  assign awvalid = aw_room && (aw_from_sq || (!sq_head && (quiesce ? aw_pend_q : bw_aw_valid)));
  assign awaddr = aw_from_sq ? sq_a[sq_r] : quiesce ? aw_h_addr : bw_aw_addr;
  assign awlen = aw_from_sq ? 8'd0 : quiesce ? aw_h_len : bw_aw_len;
  assign bw_aw_ready = aw_room && !sq_head && awready && !quiesce;
  assign wvalid = w_from_sq || (!sq_head && (quiesce ? w_pend_q || q_w_gen : bw_w_valid));
  assign wdata = w_from_sq ? sq_d[sq_r] : quiesce ? w_h_data : bw_w_data;
  assign wstrb = w_from_sq ? sq_s[sq_r] : !quiesce ? bw_w_strb : w_pend_q ? w_h_strb : 64'd0;
  assign wlast = w_from_sq ? 1'b1 : !quiesce ? bw_w_last : w_pend_q ? w_h_last : gen_last;
  assign bw_w_ready = !sq_head && wready && !quiesce;
  assign aw_fire = awvalid && awready;
  assign w_fire = wvalid && wready;
  assign bready = 1'b1;
  assign b_fire = bvalid;
  assign sq_pop = sq_head && (sq_aw_done || (aw_from_sq && aw_fire)) && (sq_w_done || (w_from_sq && w_fire));
  assign writes_idle = !sq_head && wt_count == '0;

  always_ff @(posedge `NNFAB_PORT_CLK) begin
    if (aw_fire) begin
      wr_track[wt_w] <= awaddr[31:0];
      wr_len[wt_w] <= awlen[5:0];
    end
  end

  always_ff @(posedge `NNFAB_PORT_CLK) begin
    if (rst) begin
      sq_w <= '0;
      sq_r <= '0;
      sq_count <= '0;
      sq_aw_done <= 1'b0;
      sq_w_done <= 1'b0;
      wt_w <= '0;
      wt_r <= '0;
      wt_count <= '0;
    end else begin
      if (sq_push_ok) sq_w <= sq_w + 1'b1;
      if (sq_pop) begin
        sq_r <= sq_r + 1'b1;
        sq_aw_done <= 1'b0;
        sq_w_done <= 1'b0;
      end else begin
        if (aw_from_sq && aw_fire) sq_aw_done <= 1'b1;
        if (w_from_sq && w_fire) sq_w_done <= 1'b1;
      end
      sq_count <= sq_count + {{SQ_LOG2{1'b0}}, sq_push_ok} - {{SQ_LOG2{1'b0}}, sq_pop};
      if (aw_fire) wt_w <= wt_w + 1'b1;
      if (b_fire) wt_r <= wt_r + 1'b1;
      wt_count <= wt_count + {{TRACK_LOG2{1'b0}}, aw_fire} - {{TRACK_LOG2{1'b0}}, b_fire};
    end
  end

  // W beats on the bus for a burst whose AW is neither accepted nor held:
  // under quiesce the client's next AW (it still presents it) is taken then.
  logic w_ahead;
  assign w_ahead = w_beat != 6'd0 && !w_owed && !aw_pend_q;

  // The copies: payloads every cycle outside quiesce (no reset needed), the
  // pending flags from the bus.
`ifdef NNFAB_SIM_PULSE_CLOCK
  // Gated: each copy taken only with its VALID, so that no copy moves while
  // nothing is offered (the gate's enable needs no payload compares). A
  // copy is read only under its pending flag, which rises at an edge where
  // that VALID is up: the same value wherever it is read.
  always_ff @(posedge `NNFAB_PORT_CLK) begin
    if (bw_aw_valid && (!quiesce || (w_ahead && !sq_head))) begin
      aw_h_addr <= bw_aw_addr;
      aw_h_len <= bw_aw_len;
    end
    if (!quiesce && arvalid) begin
      ar_h_addr <= araddr;
      ar_h_len <= arlen;
    end
    if (!quiesce && wvalid) begin
      w_h_data <= wdata;
      w_h_strb <= wstrb;
      w_h_last <= wlast;
    end
  end
`else
  always_ff @(posedge `NNFAB_PORT_CLK) begin
    if (!quiesce || (w_ahead && !sq_head && bw_aw_valid)) begin
      aw_h_addr <= bw_aw_addr;
      aw_h_len <= bw_aw_len;
    end
    if (!quiesce) begin
      ar_h_addr <= araddr;
      ar_h_len <= arlen;
      w_h_data <= wdata;
      w_h_strb <= wstrb;
      w_h_last <= wlast;
    end
  end
`endif

  always_ff @(posedge `NNFAB_PORT_CLK) begin
    if (rst) begin
      ar_pend_q <= 1'b0;
      aw_pend_q <= 1'b0;
      w_pend_q <= 1'b0;
      w_ptr <= '0;
      w_beat <= '0;
      w_bursts <= '0;
    end else begin
      if (!quiesce) begin
        ar_pend_q <= arvalid && !arready;
        // Client side: a burst AW held back by the port's own limit too,
        // since its W beats may already have gone.
        aw_pend_q <= !sq_head && bw_aw_valid && !bw_aw_ready;
        w_pend_q <= wvalid && !wready && !w_from_sq;
      end else begin
        if (arready) ar_pend_q <= 1'b0;
        if (aw_fire && !aw_from_sq) aw_pend_q <= 1'b0;
        else if (w_ahead && !sq_head && bw_aw_valid) aw_pend_q <= 1'b1;
        if (wready && !w_from_sq) w_pend_q <= 1'b0;
      end
      if (w_fire) w_beat <= wlast ? 6'd0 : w_beat + 6'd1;
      if (w_fire && wlast) w_ptr <= w_ptr + 1'b1;
      w_bursts <= w_bursts + {{(TRACK_LOG2 + 1) {1'b0}}, aw_fire} - {{(TRACK_LOG2 + 1) {1'b0}}, w_fire && wlast};
    end
  end
  assign quiet = reads_idle && writes_idle && !arvalid && !awvalid && !wvalid && w_beat == 6'd0;

  // ------------------------------------------------------------ errors
  logic [31:0] r_beat_addr;
  assign r_beat_addr = rd_track[rt_r] + {18'd0, r_beat, 6'd0};

  always_ff @(posedge `NNFAB_PORT_CLK) begin
    if (rst || clear_error) begin
      bus_error <= 1'b0;
      bus_error_addr <= '0;
    end else if (!bus_error) begin
      if (r_fire && rresp != 2'b00) begin
        bus_error <= 1'b1;
        bus_error_addr <= r_beat_addr;
      end else if (b_fire && bresp != 2'b00) begin
        bus_error <= 1'b1;
        bus_error_addr <= wr_track[wt_r];
      end
    end
  end
`ifndef SYNTHESIS
  // ------------------------------------------------------ assertions
  // AXI4 master rules the design relies on (docs/rtl.md "Assertions"),
  // checked by Verilator (--assert) in every sim test; Yosys never sees them.
  // A VALID is held with a stable payload until its READY; bursts are INCR of
  // at most 64 beat-aligned beats that never cross 4 KiB; W bursts are at
  // most 64 beats; the slave answers nothing that was not asked.
  logic a_ar_wait, a_aw_wait, a_w_wait;
  logic [63:0] a_araddr, a_awaddr, a_wstrb;
  logic [7:0] a_arlen, a_awlen;
  logic [511:0] a_wdata;
  logic a_wlast;
  logic [7:0] a_wbeats;  // W beats of the current burst so far
  logic [7:0] a_rlen[TRACK];  // ARLEN of each outstanding read burst
  always_ff @(posedge `NNFAB_PORT_CLK) if (ar_fire) a_rlen[rt_w] <= arlen;

  function automatic crosses_4k(input [5:0] beat_in_page, input [7:0] len);
    crosses_4k = {3'd0, beat_in_page} + {1'b0, len} > 9'd63;
  endfunction

  always_ff @(posedge `NNFAB_PORT_CLK) begin
    if (rst) begin
      a_ar_wait <= 1'b0;
      a_aw_wait <= 1'b0;
      a_w_wait <= 1'b0;
      a_wbeats <= '0;
    end else begin
      a_ar_wait <= arvalid && !arready;
      a_aw_wait <= awvalid && !awready;
      a_w_wait <= wvalid && !wready;
      // The payloads are compared only in the cycle after a wait: copied
      // only then (a 512-bit copy per port and clock otherwise).
      if (arvalid && !arready) begin
        a_araddr <= araddr;
        a_arlen <= arlen;
      end
      if (awvalid && !awready) begin
        a_awaddr <= awaddr;
        a_awlen <= awlen;
      end
      if (wvalid && !wready) begin
        a_wdata <= wdata;
        a_wstrb <= wstrb;
        a_wlast <= wlast;
      end
      if (w_fire) a_wbeats <= wlast ? 8'd0 : a_wbeats + 8'd1;
      if (a_ar_wait)
        assert (arvalid && araddr == a_araddr && arlen == a_arlen)
        else $error("%m AR: ARVALID dropped or payload changed before ARREADY");
      if (a_aw_wait)
        assert (awvalid && awaddr == a_awaddr && awlen == a_awlen)
        else $error("%m AW: AWVALID dropped or payload changed before AWREADY");
      if (a_w_wait)
        assert (wvalid && wdata == a_wdata && wstrb == a_wstrb && wlast == a_wlast)
        else $error("%m W: WVALID dropped or payload changed before WREADY");
      if (arvalid)
        assert (araddr[5:0] == 6'd0 && arlen < 8'd64 && !crosses_4k(araddr[11:6], arlen))
        else $error("%m AR: burst unaligned, longer than 64 beats or across 4 KiB");
      if (awvalid)
        assert (awaddr[5:0] == 6'd0 && awlen < 8'd64 && !crosses_4k(awaddr[11:6], awlen))
        else $error("%m AW: burst unaligned, longer than 64 beats or across 4 KiB");
      if (w_fire) assert (wlast || a_wbeats < 8'd63) else $error("%m W: burst longer than 64 beats");
      if (rvalid) assert (rt_count != '0) else $error("%m R: beat with no read outstanding");
      if (r_fire) assert (rlast == (r_beat == a_rlen[rt_r])) else $error("%m R: RLAST not on the burst's last beat");
      if (bvalid) assert (wt_count != '0) else $error("%m B: response with no write outstanding");
      if (r_fire && rlast) assert (rt_count != '0) else $error("%m R: RLAST with no burst outstanding");
      if (sq_push && !quiesce) assert (!sq_full_q) else $error("%m: push into a full write queue");
      // A soft reset starts no new request: a VALID under quiesce was up before.
      if (quiesce && arvalid) assert (a_ar_wait) else $error("%m: new AR while quiescing");
      if (quiesce && awvalid && !sq_head) assert (aw_pend_q) else $error("%m: new burst AW while quiescing");
      if (quiesce && wvalid && !w_from_sq && !w_pend_q)
        assert (wstrb == '0 && w_owed) else $error("%m: a quiescing W beat with bytes enabled or for no burst");
      // Outstanding counters never wrap.
      assert (rt_count <= TRACK[TRACK_LOG2:0] && wt_count <= TRACK[TRACK_LOG2:0] && sq_count <= SQ[SQ_LOG2:0])
      else $error("%m: outstanding counter out of range");
    end
  end
`endif
`ifdef NNFAB_SIM_PULSE_CLOCK
  // ------------------------------------------------------ the gated clock
  // The enable: high at every edge at which a register of the port could
  // change, read off the always_ff blocks: reset, quiesce and clear_error;
  // a request or a beat offered on either side (every handshake, queue
  // push or pop, counter step and payload copy needs one of these VALIDs,
  // or a non-empty store queue, whose head raises AWVALID and WVALID); a
  // pending flag or an assertion flag that would fall. A burst outstanding
  // changes nothing until its R beat or B response arrives (RVALID, BVALID),
  // so in an idle scalar loop all three ports stand still, and so do they
  // while a load waits out the memory's latency.
  // The enable's terms on the port's own registers are one signal,
  // `held`: it reads only registers of gclk, so a Verilated model computes
  // it only when gclk ticks, and ORs its result with the inputs' terms at
  // every edge (public_flat_rd keeps Verilator from folding it back into
  // the enable's expression). ARVALID, AWVALID and WVALID need no term of
  // their own: each is raised by rd_valid, bw_aw_valid or bw_w_valid,
  // quiesce, or a queued beat (sq_head).
  logic held  /*verilator public_flat_rd*/;
  assign held = sq_head || ar_pend_q || aw_pend_q || w_pend_q || a_ar_wait || a_aw_wait || a_w_wait;
  nnfab_sim_clock_gate #(
      .GROUP(1)
  ) u_gate (
      .clk (clk),
      .wake(1'b0),
      .busy(rst || quiesce || clear_error || rd_valid || rvalid || bvalid || sq_push || bw_aw_valid || bw_w_valid ||
            held),
      .gclk(gclk)
  );
  // The proof: at every edge of clk that gclk misses, no register of the
  // port would change had it ticked, written from the always_ff blocks term
  // by term (not from the enable): no reset, no handshake or step (AR, R,
  // queue push and pop, AW, W, B), no VALID (so no payload copy), each
  // pending flag and assertion flag equal to its next value, the error
  // registers unchanged. The pending and assertion flags and the queue's
  // head are registers of gclk, which cannot change while it stands: they
  // are checked at the first edge it misses; the terms that read inputs at
  // every one (the pattern of the trace ring's proof). A VALID low implies
  // its handshake; an empty queue, no pop.
  always_ff @(posedge clk) begin
    if (!u_gate.en_q) begin
      assert (!rst && !r_fire && !sq_push_ok && !b_fire && !arvalid && !awvalid && !wvalid && !bw_aw_valid &&
              !quiesce && !clear_error)
      else $error("%m: the gated clock stopped at a request, a beat, a response or a reset");
      if (u_gate.was_on)
        assert (!sq_head && !ar_pend_q && !aw_pend_q && !w_pend_q && !a_ar_wait && !a_aw_wait && !a_w_wait)
        else $error("%m: the gated clock stopped while the data port was not quiescent");
    end
  end
`endif
endmodule
`undef NNFAB_PORT_CLK
