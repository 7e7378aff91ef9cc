// The tensor unit's vector engine: every source contiguous and of the
// result's element size, so source and destination are plain byte streams
// of total_bytes. It works in destination beats: output beat t covers the
// 64 source bytes at (src - dst%64) + 64t, i.e. the source's beats k0+t and
// k0+t+1 shifted by rel = (src - dst) % 64 bytes, the same shift for the
// whole instruction. Each source's beats are fetched in bursts of up to 64
// (never across 4 KiB) into its own FIFO with credits (a burst is issued
// only when its FIFO has room for it, so read data never waits on a full
// FIFO). Three AXI4 masters serve the engine (docs/rtl.md "Data ports"):
// A and C take turns on port A (the core's m_axi_data), B has port B
// (m_axi_srcb) to itself, and the destination's bursts go out through the
// write port (m_axi_dst), all in parallel. Steady state: one output beat
// per cycle, i.e. both operands read and the result written in the same
// cycle (one beat per source per output beat; C, when there is one, shares
// port A's bandwidth with A). The shift by rel is a rotation of each beat as
// it enters its source's FIFO (docs/rtl.md "Timing"): output byte j is
// byte j of the rotated beat k0+t when j + rel < 64, else byte j of the
// rotated beat k0+t+1, so a step is one byte select in front of the ALU
// and the ALU's result is the registered write beat; no window register
// stage (1,536 flip-flops) between the shift and the ALU. Beats outside a
// source's range (before its first or after its last byte) are not
// fetched: they are zero and their bytes are never strobed.
`include "nnfab_isa.svh"

module nnfab_tensor_vec #(
    parameter int FIFO_LOG2 = 7,  // 128 beats per source: two full bursts
    parameter int TAG_LOG2 = 3    // read bursts in flight
) (
    input  logic         clk,
    input  logic         rst,
    input  logic         start,
    input  logic         abort,
    input  logic [4:0]   fn,
    input  logic [1:0]   nsrc,
    input  logic         byte_lanes,
    input  logic [63:0]  src0,
    input  logic [63:0]  src1,
    input  logic [63:0]  src2,
    input  logic [63:0]  dst,
    input  logic [31:0]  total_bytes,  // >= 1
    output logic         busy,
    output logic         done,
    output logic         rd_valid,
    output logic [63:0]  rd_addr,
    output logic [7:0]   rd_len,
    input  logic         rd_ready,
    input  logic         r_valid,
    input  logic         r_last,
    input  logic [511:0] r_data,
    output logic         r_ready,
    // port B: source 1's bursts only
    output logic         b_rd_valid,
    output logic [63:0]  b_rd_addr,
    output logic [7:0]   b_rd_len,
    input  logic         b_rd_ready,
    input  logic         b_r_valid,
    input  logic         b_r_last,
    input  logic [511:0] b_r_data,
    output logic         b_r_ready,
    // the write port
    output logic         aw_valid,
    output logic [63:0]  aw_addr,
    output logic [7:0]   aw_len,
    input  logic         aw_ready,
    output logic         w_valid,
    output logic [511:0] w_data,
    output logic [63:0]  w_strb,
    output logic         w_last,
    input  logic         w_ready
);
  localparam int DEPTH = 1 << FIFO_LOG2;
  localparam int TAGS = 1 << TAG_LOG2;

  typedef enum logic [2:0] {
    V_IDLE,
    V_SETUP1,
    V_SETUP2,
    V_PRIME,
    V_STEP,
    V_FINISH,
    V_ABORT
  } vstate_t;

  // The next beat after a burst of n beats that never crosses 4 KiB: the page
  // number only increments, in two halves (docs/rtl.md "Timing").
  function automatic [57:0] after_burst(input [57:0] beat, input [6:0] n);
    logic [6:0] lo;
    logic [51:0] page;
    lo = {1'b0, beat[5:0]} + n;
    page = beat[57:6];
    if (lo[6]) page = {page[51:26] + {25'd0, page[25:0] == 26'h3FF_FFFF}, page[25:0] + 26'd1};
    after_burst = {page, lo[5:0]};
  endfunction

  vstate_t state;
  logic wq_valid;

  // ------------------------------------------------------------ clock
  // vclk clocks the whole engine. For synthesis it is clk. In simulation it
  // stands still while the engine is quiescent (nnfab_sim_clock_gate), so
  // that a Verilated model skips the engine's registers, its FIFOs and the
  // combinational logic behind them (the 80 ALU lanes, the windows, the
  // read rotations) while no vector instruction runs (docs/sim.md "Gated
  // clocks"). Quiescent: not started, in V_IDLE, no result beat waiting
  // (cleared by an abort), not in reset, and
  // three edges past the last such cycle, by which the FIFOs are cleared
  // and the registered copies (burst_q, space_q, fl_nz, fired, aw_fired,
  // aw_burst_q) have caught up with what they copy. The assertion at the
  // end of the module checks at every edge at which vclk stands still that
  // no register of the engine would have changed at it.
  logic vclk;
  nnfab_sim_clock_gate #(
      .DRAIN(8'd3)
  ) u_gate (
      .clk (clk),
      .wake(start || abort),
      .busy(rst || state != V_IDLE || wq_valid),
      .gclk(vclk)
  );

  // The function as one-hot selects per lane width (nnfab_vec_alu).
  logic [31:0] onehot32_q, onehot8_q;
  logic [1:0] n_q;
  logic [5:0] first_lo;     // low bits of the first destination beat
  logic [5:0] dm, end_lane;
  logic [31:0] steps;          // output beats
  logic [31:0] steps_m1;       // steps - 1: `x + 1 == steps` as an equality, no carry chain in front of WLAST
  logic [31:0] t;              // output beats produced
  logic [5:0] rel[3];
  logic [57:0] nxt[3];         // source beat after the current one (k0 + t + 1)
  logic [57:0] fs[3], ls[3];
  logic borrow[3];  // src % 64 < dst % 64: the window starts a beat before the source's first (k0 = fs - 1)
  logic [511:0] cur[3];        // rotated beat k0 + t (see f_in)
  logic real_q[3];             // nxt <= ls: the next beat is one of the source's

  // a <= b on 58-bit beat numbers in halves, compared in parallel (one
  // 58-bit chain is too long for a cycle).
  function automatic le58(input [57:0] a, input [57:0] b);
    le58 = a[57:29] < b[57:29] || (a[57:29] == b[57:29] && a[28:0] <= b[28:0]);
  endfunction

  logic used[3];
  always_comb
    for (int s = 0; s < 3; s++) used[s] = s < {30'd0, n_q};

  // ------------------------------------------------------------- reads
  logic [57:0] nf[3];          // next beat to fetch
  logic [31:0] fetch_left[3];
  logic [FIFO_LOG2+1:0] inflight[3];  // beats requested, not yet in the FIFO (<= DEPTH)
  logic [FIFO_LOG2+1:0] fcount[3];
  logic [FIFO_LOG2+1:0] space[3];
  logic [31:0] burst[3];
  // burst and space registered: want and the pick start at registers. They
  // are a cycle old: after a source's own request they are stale (fired
  // blocks it for that cycle); otherwise space only grew since (pops), and
  // burst changes only with the source's own request.
  logic [6:0] burst_q[3];
  logic [FIFO_LOG2+1:0] space_q[3];
  logic fired[3];
  logic fl_nz[3];              // fetch_left != 0, as old as burst_q
  logic want[3];
  // Port A: source 0 or 2 (pick: 1 = source 2), taking turns (rr: source 2
  // goes first when both want a burst); the tag of each burst in flight
  // says whose beats come back.
  logic rr, pick, pick_ok;
  logic tags[TAGS];
  logic [TAG_LOG2-1:0] tag_w, tag_r;
  logic [TAG_LOG2:0] tag_count;
  logic ar_fire, r_fire, r_tag;
  // Port B: source 1's bursts in flight.
  logic [TAG_LOG2:0] b_count;
  logic b_ar_fire, b_r_fire;
  // Per source: its burst was requested, its beat came back (on its port).
  logic s_ar[3], s_r[3];

  always_comb begin
    for (int s = 0; s < 3; s++) begin
      // Narrow arithmetic (docs/rtl.md "Timing"): the FIFO counts fit in
      // FIFO_LOG2 + 2 bits, and a burst is at most 64 beats.
      space[s] = DEPTH[FIFO_LOG2+1:0] - fcount[s] - inflight[s];
      burst[s] = {25'd0, 7'd64 - {1'b0, nf[s][5:0]}};
      if (fetch_left[s][31:7] == 25'd0 && fetch_left[s][6:0] < burst[s][6:0]) burst[s] = fetch_left[s];
      want[s] = used[s] && !fired[s] && fl_nz[s] &&
          {{(FIFO_LOG2 - 5) {1'b0}}, burst_q[s]} <= space_q[s];
    end
    // A and C take turns on port A.
    pick_ok = want[0] || want[2];
    pick = want[2] && (!want[0] || rr);
  end

  assign rd_valid = (state == V_PRIME || state == V_STEP) && pick_ok && tag_count != TAGS[TAG_LOG2:0];
  assign rd_addr = {pick ? nf[2] : nf[0], 6'd0};
  assign rd_len = {1'b0, pick ? burst_q[2] : burst_q[0]} - 8'd1;
  assign ar_fire = rd_valid && rd_ready;
  assign r_ready = tag_count != '0 && state != V_IDLE;
  assign r_fire = r_valid && r_ready;
  assign r_tag = tags[tag_r];

  assign b_rd_valid = (state == V_PRIME || state == V_STEP) && want[1] && b_count != TAGS[TAG_LOG2:0];
  assign b_rd_addr = {nf[1], 6'd0};
  assign b_rd_len = {1'b0, burst_q[1]} - 8'd1;
  assign b_ar_fire = b_rd_valid && b_rd_ready;
  assign b_r_ready = b_count != '0 && state != V_IDLE;
  assign b_r_fire = b_r_valid && b_r_ready;

  assign s_ar[0] = ar_fire && !pick;
  assign s_ar[1] = b_ar_fire;
  assign s_ar[2] = ar_fire && pick;
  assign s_r[0] = r_fire && !r_tag;
  assign s_r[1] = b_r_fire;
  assign s_r[2] = r_fire && r_tag;

  // --------------------------------------------------------- FIFOs
  logic f_wr[3], f_pop[3], f_valid[3];
  logic [511:0] f_data[3], f_in[3];
  logic [1023:0] r_twice[3];
  // A source's beats enter its FIFO rotated right by rel bytes: byte j of
  // the stored beat is byte (j + rel) % 64 of the read beat. The rotation
  // sits between the read data and the FIFO's memory, not between the
  // FIFO and the ALU.
  // Only while the engine works (its FIFOs take no beat when idle): an
  // untaken `if` is code a Verilated model skips (docs/sim.md "Evaluation
  // gating"); in hardware the state is one more input of the last mux.
  // The read data are top-level inputs, so a Verilated model evaluates
  // this block at every evaluation, idle or not: in simulation it has no
  // zero defaults (4,608 bits stored twice per cycle), and f_in keeps its
  // last value in V_IDLE, where no FIFO takes it (f_wr needs a read beat
  // taken, and r_ready and b_r_ready are low in V_IDLE).
`ifdef SYNTHESIS
  always_comb
    for (int s = 0; s < 3; s++) begin
      r_twice[s] = '0;
      f_in[s] = '0;
      if (state != V_IDLE) begin
        r_twice[s] = s == 1 ? {b_r_data, b_r_data} >> {rel[s], 3'd0} : {r_data, r_data} >> {rel[s], 3'd0};
        f_in[s] = r_twice[s][511:0];
      end
    end
`else
  /* verilator lint_off LATCH */
  always_comb
    if (state != V_IDLE)
      for (int s = 0; s < 3; s++) begin
        r_twice[s] = s == 1 ? {b_r_data, b_r_data} >> {rel[s], 3'd0} : {r_data, r_data} >> {rel[s], 3'd0};
        f_in[s] = r_twice[s][511:0];
      end
  /* verilator lint_on LATCH */
`endif

  genvar g;
  generate
    for (g = 0; g < 3; g++) begin : g_fifo
      assign f_wr[g] = s_r[g] && state != V_ABORT;
      nnfab_fifo #(
          .WIDTH(512),
          .DEPTH_LOG2(FIFO_LOG2)
      ) u_fifo (
          .clk(vclk),
          .clear(state == V_IDLE),
          .wr_en(f_wr[g]),
          .wr_data(f_in[g]),
          .pop(f_pop[g]),
          .out_valid(f_valid[g]),
          .out_data(f_data[g]),
          .count(fcount[g])
      );
`ifndef SYNTHESIS
      // Quiescence (the check at the end of the module): the FIFO cleared,
      // nothing written into it.
      always_ff @(posedge clk)
        if (!u_gate.en_q && u_gate.was_on)
          assert (u_fifo.wptr == '0 && u_fifo.rptr == '0 && fcount[g] == '0 && !f_wr[g])
          else $error("nnfab_tensor_vec: vclk stopped with FIFO %0d not cleared", g);
`endif
    end
  endgenerate

  // ------------------------------------------------------------ steps
  logic next_real[3], ready[3], all_ready, prime_ready, fire;
  logic [511:0] next_beat[3], window[3], result;
  // Byte j of the window comes from cur when j + rel < 64: registered at
  // V_SETUP1 (from rel, a compare that would add a carry chain in front of
  // the ALU).
  logic [63:0] from_cur[3];
  logic w_take;
  logic [511:0] wq_data;
  logic [63:0] wq_strb, strb;
  logic wq_last;
  logic [5:0] out_beat;  // low bits: where a burst ends

  // The windows and the ALU are computed only in V_STEP, the one state
  // whose step (fire) takes the result: a Verilated model skips them
  // otherwise (docs/sim.md "Evaluation gating"). For synthesis the gate is
  // constant (the values outside V_STEP are never used): as a state decode
  // in front of the select and behind the ALU it made the write beat's path
  // 17 cells instead of 15 (docs/performance.md, branch `gate`).
  logic step_gate;
`ifdef SYNTHESIS
  assign step_gate = 1'b1;
`else
  assign step_gate = state == V_STEP;
`endif

  always_comb begin
    all_ready = 1'b1;
    prime_ready = 1'b1;
    for (int s = 0; s < 3; s++) begin
      next_real[s] = real_q[s];
      next_beat[s] = next_real[s] ? f_data[s] : '0;
      ready[s] = !used[s] || !next_real[s] || f_valid[s];
      all_ready = all_ready && ready[s];
      // Priming loads beat k0, which is real when it is the source's first.
      // k0 == fs exactly when the window starts at the source's first beat
      // (no borrow): the registered flag, not a 58-bit compare in front of
      // the FIFOs' pop and count.
      prime_ready = prime_ready && (!used[s] || borrow[s] || f_valid[s]);
      window[s] = '0;
      if (step_gate)
        for (int j = 0; j < 64; j++)
          window[s][j*8+:8] = from_cur[s][j] ? cur[s][j*8+:8] : next_beat[s][j*8+:8];
    end
  end

  nnfab_vec_alu u_valu (
      .onehot32(onehot32_q),
      .onehot8(onehot8_q),
      .a(window[0]),
      .b(window[1]),
      .c(window[2]),
      .y(result)
  );

  // w_valid carries wq only outside V_ABORT (abort_w's empty beats then).
  assign w_take = wq_valid && w_ready && state != V_ABORT;
  assign fire = state == V_STEP && t != steps && all_ready && (!wq_valid || w_take);
  assign out_beat = first_lo + t[5:0];
  always_comb begin
    strb = '1;
    if (t == 32'd0) strb = strb & ({64{1'b1}} << dm);
    if (t == steps_m1) strb = strb & ({64{1'b1}} >> (6'd63 - end_lane));
  end
  always_comb
    for (int s = 0; s < 3; s++)
      f_pop[s] = used[s] && ((fire && next_real[s]) || (state == V_PRIME && prime_ready && !borrow[s]));

  // ----------------------------------------------------------- writes
  logic [57:0] aw_beat;
  logic [31:0] aw_left, aw_sent, w_sent;
  logic [6:0] aw_burst;
  // aw_burst registered like the read side's burst: the cycle after an AW
  // (and the first of V_PRIME, when aw_left is new) sends none.
  logic [6:0] aw_burst_q;
  logic aw_fired;
  logic aw_fire, abort_w;
  logic [5:0] abort_beat;
  assign aw_burst = (aw_left < {25'd0, 7'd64 - {1'b0, aw_beat[5:0]}}) ? aw_left[6:0] :
      7'd64 - {1'b0, aw_beat[5:0]};
  assign aw_valid = (state == V_PRIME || state == V_STEP || state == V_FINISH) && aw_left != 32'd0 && !aw_fired;
  assign aw_addr = {aw_beat, 6'd0};
  assign aw_len = {1'b0, aw_burst_q} - 8'd1;
  assign aw_fire = aw_valid && aw_ready;
  // After an abort, every beat promised by an accepted AW still goes out,
  // with no byte enabled.
  assign abort_w = state == V_ABORT && w_sent != aw_sent;
  assign abort_beat = first_lo + w_sent[5:0];
  assign w_valid = abort_w || (wq_valid && state != V_ABORT);
  assign w_data = wq_data;
  assign w_strb = abort_w ? '0 : wq_strb;
  assign w_last = abort_w ? (abort_beat == 6'd63 || w_sent == steps_m1) : wq_last;

  assign busy = state != V_IDLE;
  assign done = state == V_FINISH && w_sent == steps && aw_left == 32'd0;

  always_ff @(posedge vclk) begin
    if (ar_fire) tags[tag_w] <= pick;
  end

  // The write beat takes the ALU's result with `fire` as its only enable
  // (no reset): under the reset branch below, the flip-flop's D logic took
  // rst and the hold value in a LUT of its own behind the ALU.
  always_ff @(posedge vclk)
    if (fire) wq_data <= result;

  // Per-source geometry, over three cycles so that no cycle chains two
  // wide adds (docs/rtl.md "Timing"). V_IDLE: the inputs, total - 1, the
  // shift rel and whether the window starts a beat earlier (borrow).
  // V_SETUP1: the last byte (start + total - 1, carry select), the beat k0
  // the first window starts in (first beat - borrow) and the one after it
  // (nxt), by carry select on 29-bit halves. V_SETUP2: the beat counts.
  logic [63:0] src_in[3], src_q[3], src_end[3];
  logic [37:0] dst_q, dst_end;  // the destination's beat counts need 32 bits
  logic [31:0] end_off;
  logic [31:0] dend_beat;  // low word of the last destination beat

  // x + off (off < 2^32): the low word adds, the high word takes the carry
  // from a parallel increment.
  function automatic [63:0] add_off(input [63:0] x, input [31:0] off);
    logic [32:0] lo;
    lo = {1'b0, x[31:0]} + {1'b0, off};
    add_off = {lo[32] ? x[63:32] + 32'd1 : x[63:32], lo[31:0]};
  endfunction
  // x + 1 on 58-bit beat numbers, the high half by carry select.
  function automatic [57:0] inc58(input [57:0] x);
    inc58 = {x[28:0] == 29'h1FFF_FFFF ? x[57:29] + 29'd1 : x[57:29], x[28:0] + 29'd1};
  endfunction

  always_comb begin
    src_in[0] = src0;
    src_in[1] = src1;
    src_in[2] = src2;
    for (int s = 0; s < 3; s++) src_end[s] = add_off(src_q[s], end_off);
  end
  assign dst_end = dst_q + {6'd0, end_off};

  always_ff @(posedge vclk) begin
    if (rst) begin
      state <= V_IDLE;
      wq_valid <= 1'b0;
      tag_w <= '0;
      tag_r <= '0;
      tag_count <= '0;
      b_count <= '0;
    end else begin
      // Read bookkeeping runs in every state, so that an abort still sees
      // its bursts out (the data ports drop their beats).
      if (ar_fire) begin
        tag_w <= tag_w + 1'b1;
        rr <= !pick;
      end
      // Each source computes its own next state; the pick only enables one
      // (muxing by pick before the arithmetic would chain the two).
      for (int s = 0; s < 3; s++)
        if (s_ar[s]) begin
          nf[s] <= after_burst(nf[s], burst_q[s]);
          fetch_left[s] <= fetch_left[s] - {25'd0, burst_q[s]};
        end
      aw_burst_q <= aw_burst;
      aw_fired <= aw_fire || state == V_SETUP2;
      for (int s = 0; s < 3; s++) begin
        fl_nz[s] <= fetch_left[s] != 32'd0;
        burst_q[s] <= burst[s][6:0];
        space_q[s] <= space[s];
        // The first cycle of V_PRIME too: fetch_left is new then.
        fired[s] <= s_ar[s] || state == V_SETUP2;
      end
      if (r_fire && r_last) tag_r <= tag_r + 1'b1;
      tag_count <= tag_count + {{TAG_LOG2{1'b0}}, ar_fire} - {{TAG_LOG2{1'b0}}, r_fire && r_last};
      b_count <= b_count + {{TAG_LOG2{1'b0}}, b_ar_fire} - {{TAG_LOG2{1'b0}}, b_r_fire && b_r_last};
      for (int s = 0; s < 3; s++)
        inflight[s] <= inflight[s] + (s_ar[s] ? {{(FIFO_LOG2 - 5) {1'b0}}, burst_q[s]} : '0) -
            {{(FIFO_LOG2 + 1) {1'b0}}, s_r[s]};
      if (w_take || (abort_w && w_ready)) w_sent <= w_sent + 32'd1;
      if (fire) begin
        wq_valid <= 1'b1;
        wq_strb <= strb;
        wq_last <= out_beat == 6'd63 || t == steps_m1;
      end else if (w_take) wq_valid <= 1'b0;
      if (aw_fire) begin
        aw_beat <= after_burst(aw_beat, aw_burst_q);
        aw_left <= aw_left - {25'd0, aw_burst_q};
        aw_sent <= aw_sent + {25'd0, aw_burst_q};
      end

      case (state)
        V_IDLE:
        if (start) begin
          onehot32_q <= byte_lanes ? 32'd0 : 32'd1 << fn;
          onehot8_q <= byte_lanes ? 32'd1 << fn : 32'd0;
          n_q <= nsrc;
          dm <= dst[5:0];
          first_lo <= dst[11:6];
          dst_q <= dst[37:0];
          end_off <= total_bytes - 32'd1;
          aw_beat <= dst[63:6];
          aw_sent <= '0;
          w_sent <= '0;
          t <= '0;
          rr <= 1'b0;
          wq_valid <= 1'b0;
          for (int s = 0; s < 3; s++) begin
            src_q[s] <= src_in[s];
            rel[s] <= src_in[s][5:0] - dst[5:0];
            borrow[s] <= src_in[s][5:0] < dst[5:0];
            fs[s] <= src_in[s][63:6];
            nf[s] <= src_in[s][63:6];
            inflight[s] <= '0;
          end
          state <= V_SETUP1;
        end
        V_SETUP1: begin
          end_lane <= dst_end[5:0];
          dend_beat <= dst_end[37:6];
          for (int s = 0; s < 3; s++) begin
            ls[s] <= src_end[s][63:6];
            nxt[s] <= borrow[s] ? fs[s] : inc58(fs[s]);
            for (int j = 0; j < 64; j++) from_cur[s][j] <= {26'd0, rel[s]} + j < 64;
          end
          state <= V_SETUP2;
        end
        // Beat counts fit 32 bits (total_bytes does): the low words suffice.
        V_SETUP2: begin
          steps <= dend_beat - dst_q[37:6] + 32'd1;
          steps_m1 <= dend_beat - dst_q[37:6];
          aw_left <= dend_beat - dst_q[37:6] + 32'd1;
          for (int s = 0; s < 3; s++) fetch_left[s] <= ls[s][31:0] - fs[s][31:0] + 32'd1;
          state <= V_PRIME;
        end
        V_PRIME:
        begin
          // nxt and ls stay as loaded during V_PRIME.
          for (int s = 0; s < 3; s++) real_q[s] <= le58(nxt[s], ls[s]);
          if (prime_ready) begin
            for (int s = 0; s < 3; s++) cur[s] <= !borrow[s] ? f_data[s] : '0;
            state <= V_STEP;
          end
        end
        V_STEP: begin
          if (fire) begin
            t <= t + 32'd1;
            for (int s = 0; s < 3; s++) begin
              cur[s] <= next_beat[s];
              nxt[s] <= inc58(nxt[s]);
              // nxt + 1 <= ls, given nxt <= ls while real_q.
              real_q[s] <= real_q[s] && nxt[s] != ls[s];
            end
          end
          if (t == steps) state <= V_FINISH;
        end
        V_FINISH: if (done) state <= V_IDLE;
        // A result beat waiting at the abort is never sent: the beats its
        // accepted AWs promised go out empty (abort_w), and a beat left
        // valid would leave from V_IDLE with no AW of its own.
        V_ABORT: begin
          wq_valid <= 1'b0;
          if (w_sent == aw_sent && tag_count == '0 && b_count == '0) state <= V_IDLE;
        end
        default: state <= V_IDLE;
      endcase
      if (abort && state != V_IDLE && state != V_ABORT) state <= V_ABORT;
    end
  end

`ifndef SYNTHESIS
  // The gated clock's proof (docs/sim.md "Gated clocks"): at an edge of clk
  // at which vclk stands still, no register of the engine would change if
  // it ticked. Term by term, the update of every always_ff above (and the
  // FIFOs', in g_fifo): no reset, V_IDLE without start (the state case), no
  // AR, R, AW or W handshake and no step (every counter, pointer, tag and
  // queue holds), and each registered copy already equal to what it copies.
  // While vclk stands these registers cannot change, and every term is a
  // function of them alone or an input ANDed with one that is zero in
  // V_IDLE without a waiting beat (the handshakes: rd_valid, r_ready,
  // aw_valid are state decodes, w_take needs wq_valid), so the register
  // part is checked at the first edge that vclk misses; start, rst and
  // abort, the inputs that could wake the engine, at every such edge (the
  // gate samples them at the falling edge: they must be settled by then).
  always_ff @(posedge clk)
    if (!u_gate.en_q) begin
      assert (!start && !rst && !abort)
      else $error("nnfab_tensor_vec: start, rst or abort at an edge vclk missed (not settled by the falling edge)");
      if (u_gate.was_on) begin
        assert (state == V_IDLE && !wq_valid && !ar_fire && !b_ar_fire && !r_fire && !b_r_fire && !aw_fire &&
                !w_take && !(abort_w && w_ready) && !fire && aw_burst_q == aw_burst &&
                aw_fired == (aw_fire || state == V_SETUP2))
        else $error("nnfab_tensor_vec: vclk stopped while the engine was not quiescent");
        for (int s = 0; s < 3; s++)
          assert (!s_ar[s] && !s_r[s] && fl_nz[s] == (fetch_left[s] != 32'd0) && burst_q[s] == burst[s][6:0] &&
                  space_q[s] == space[s] && fired[s] == (s_ar[s] || state == V_SETUP2))
          else $error("nnfab_tensor_vec: vclk stopped with source %0d's registered copies not settled", s);
      end
    end
`endif
endmodule
