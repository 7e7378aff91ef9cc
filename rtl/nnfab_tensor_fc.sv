// The tensor unit's FULLY_CONNECTED engine (docs/isa.md FC, docs/rtl.md
// "FULLY_CONNECTED"): FC_LANES (16) nnfab_fp_fc_lanes in lockstep, each
// holding FC_INTERLEAVE (8) independent sums in its adder pipeline, fed from
// weight rows streamed in bursts.
//
// Waves: one batch row b and up to 128 consecutive units u0 + k, k = 16 s + L
// on lane L, slot s. A wave is a sequence of rounds t = 0 .. input_size: in
// round t < input_size every slot of every lane takes the term
// x[b][t] * w[u0 + k][t]; in round input_size the bias (bias · 1.0, with
// `last` and the activation). So each sum sees its terms in the contract's
// order (acc = +0; acc = acc + round(x * w) for increasing t; then
// act(acc + bias)) and is never split across lanes.
//
// Weights live in 16 banks (one 32-bit word per bank per cycle, block RAM):
// word t of row k is in bank (t + L) mod 16 at {s, L, chunk parity, t[6:4]},
// a ring of two chunks of 128 words per row. In a round every lane reads a
// different bank (the skew), and a 64-byte beat of one row (16 consecutive
// words, any alignment) writes 16 different banks (a rotation). x has its
// own 16 small banks (word t in bank t mod 16, the same ring), the bias too
// (unit 16 s + L in bank L, entry {chunk parity, s}; read in the bias round
// with w = 1.0).
//
// Fetch: chunk by chunk (128 words of every row of the wave: x's words, then
// the rows' words as one burst per row, 8 or 9 beats, split at 4 KB; with a
// wave's last chunk the bias), at most two chunks ahead of the rounds (the
// ring), across waves. A chunk's rounds start once all its beats are
// written; a round that cannot start leaves the lanes' turns empty (the lane
// adds -0). Results: all lanes give slot s's 16 sums in one cycle (units 16 s
// .. 16 s + 15), rotated to the output's alignment and written as one or two
// strobed beats per slot once the wave's rounds have drained; the next wave's
// rounds wait for those writes (its weights are already streaming in).
`include "nnfab_isa.svh"

module nnfab_tensor_fc (
    input  logic          clk,
    input  logic          rst,
    input  logic          start,
    input  logic          abort,
    input  logic [1:0]    act,
    input  logic [31:0]   batch,
    input  logic [31:0]   units,
    input  logic [31:0]   insz,
    input  logic [63:0]   x_base,
    input  logic [63:0]   w_base,
    input  logic [63:0]   b_base,
    input  logic [63:0]   dst,
    output logic          busy,
    output logic          done,
    output logic          rd_valid,
    output logic [63:0]   rd_addr,
    output logic [7:0]    rd_len,
    input  logic          rd_ready,
    input  logic          r_valid,
    input  logic          r_last,
    input  logic [511:0]  r_data,
    output logic          r_ready,
    output logic          sq_push,
    output logic [63:0]   sq_addr,
    output logic [511:0]  sq_data,
    output logic [63:0]   sq_strb,
    input  logic          sq_full
);
  localparam int LANES = NNFAB_FC_LANES;
  localparam logic [31:0] ONE = 32'h3F800000;
  localparam int QD = 16;  // descriptor queue: bursts in flight

`ifndef SYNTHESIS
  // The skewed banks need one lane per word of a beat.
  initial
    if (LANES != 16 || NNFAB_FC_INTERLEAVE != 8 || NNFAB_MEM_BEAT_BYTES != 64)
      $error("nnfab_tensor_fc: built for 16 lanes of 8 slots and 64-byte beats");
`endif

  function automatic [63:0] add64(input [63:0] p, input [31:0] d);
    logic [32:0] lo;
    lo = {1'b0, p[31:0]} + {1'b0, d};
    add64 = {lo[32] ? p[63:32] + 32'd1 : p[63:32], lo[31:0]};
  endfunction

  // ------------------------------------------------------------ instruction
  logic [31:0] insz_m1_in;
  assign insz_m1_in = insz - 32'd1;  // insz >= 1 (the tensor unit's no-op check)
  logic run;  // between start and done
  // The lanes compute from a wave's first round read until its last result
  // has left: a lane's adder adds -0 to its idle slots every cycle it is
  // on, which is work for nothing while the wave's operands are still on
  // their way. lanes_on is that stretch (the lanes' `active`);
  // lane_slots[L] is lane L's `slots` within it: unit 16 s + L of the wave
  // is on lane L, slot s, so the lane's units fill slots 0 .. ceil((n - L)
  // / 16) - 1 and its FP units compute only those (a wave of 4 units leaves
  // lanes 4 .. 15 still and slots 1 .. 7 of lanes 0 .. 3; the words they
  // would give are outside every write's strobe).
  logic lanes_on;
  logic [63:0] lane_slots;  // lane L's slots in [4 L +: 4]
  logic reading;  // a round's bank read cycle
  logic [1:0] act_q;
  logic [31:0] insz_q, insz_m1, units_q, row_bytes;
  logic [24:0] last_chunk;  // (insz - 1) >> 7: the wave's last chunk (the bias comes with it)
  logic [7:0] last_words;   // weight words in the last chunk (1 .. 128)
  logic [63:0] w_base_q, b_base_q;

  // ------------------------------------------------------------ clock
  // fc_clk clocks the whole engine but the lanes' slot counter. For
  // synthesis it is clk. In simulation it stands still while the engine is
  // quiescent (nnfab_sim_clock_gate), so that the Verilated model skips
  // the engine, its 16 lanes' FP pipelines and the combinational logic
  // behind them (docs/sim.md "Gated clocks", "The FC engine waits with its
  // clock stopped"). Quiescent means that no register of the engine would
  // change at the edge in the hardware either: nothing left in any lane's
  // multiplier, adder or activation (their registers move only with an
  // operation in flight; the adders empty their 8 stages after `active`
  // falls), and the engine in one of two states:
  // - idle: not started, not running, not in reset or abort;
  // - waiting for a wave's operands (fc_wait): running, the lanes off, the
  //   rounds waiting for a chunk that has not arrived (no round, nothing in
  //   stage 1 or the operand pipeline), the fetcher done or waiting for a
  //   chunk's rounds, and no beat coming in this cycle. Then the rounds,
  //   the fetcher, the descriptor queue, the banks and the lanes' tag
  //   pipelines cannot move until a beat arrives, and r_valid (an input of
  //   this cycle) restarts the clock for the edge that takes it.
  // One register of the domain falls behind the hardware while the clock
  // stands: lane_slot_q (below), a copy of the free-running lane_slot, which
  // nothing reads until the edge that restarts the clock has refreshed it.
  // Two edges of drain after the last busy cycle: the operand stage's
  // copies of the round (p1_first, p1_last, p1_rot, then t_first, t_last)
  // catch up with `t` in two, also after a reset, where `t` keeps its value.
  logic fc_wait;
  logic lanes_moving;  // simulation only: a lane's FP unit has work in flight
`ifndef SYNTHESIS
  logic [15:0] lane_quiet;
  assign lanes_moving = lane_quiet != 16'hFFFF;
`else
  assign lanes_moving = 1'b0;
`endif
  logic fc_clk;
  nnfab_sim_clock_gate #(
      .DRAIN(8'd2)
  ) u_gate (
      .clk (clk),
      .wake(start),
      .busy(rst || abort || (run && !fc_wait) || lanes_moving),
      .gclk(fc_clk)
  );

  // The lanes' slot count (one for all 16; the operands of a round's read
  // cycle belong to slot lane_slot + 2), on clk: it runs free, also while
  // fc_clk stands still, as in the hardware.
  logic [2:0] lane_slot;
  always_ff @(posedge clk)
    if (rst || abort) lane_slot <= 3'd0;
    else lane_slot <= lane_slot + 3'd1;
  // The lanes' `slot`: lane_slot taken into fc_clk's domain (its next value
  // at each edge of fc_clk), equal to lane_slot in every cycle after an
  // edge of fc_clk, so in every cycle the lanes are active or take a term
  // (fc_clk ticks at every edge from a wave's first read until its last
  // result has left; the assertion below). The lanes test their slot
  // against `slots` combinationally; fed by lane_slot, a Verilated model
  // recomputed those 16 tests, and the multipliers' enables behind them,
  // at every edge of clk, also while the engine stood still. For synthesis
  // it equals lane_slot from the first edge on.
  logic [2:0] lane_slot_q;
  always_ff @(posedge fc_clk)
    if (rst || abort) lane_slot_q <= 3'd0;
    else lane_slot_q <= lane_slot + 3'd1;

  // ------------------------------------------------------------ fetcher
  // Its own wave walk (it runs ahead of the rounds, into the next wave).
  typedef enum logic [2:0] {
    G_IDLE,
    G_CHUNK,
    G_INIT,
    G_ISSUE,
    G_NEXT,
    G_END
  } gstate_t;
  gstate_t gstate;
  logic [31:0] g_b_left, g_u_left;
  logic [7:0] g_n;           // units in the fetcher's wave (1..128)
  logic [63:0] g_x_row, g_wave_w, g_wave_b, g_row;
  logic [24:0] g_chunk;      // chunk of the wave being issued
  logic g_par;               // its ring half (global chunk count mod 2)
  logic [7:0] g_words;       // weight words of every row in this chunk (0..128)
  logic [1:0] g_kind;        // 0: x, 1: weight row g_k, 2: bias
  logic [6:0] g_k;
  logic [63:0] g_p;          // first byte of the stream
  logic [63:0] g_q;          // next beat to ask for
  logic [3:0] g_rem;         // beats left in the stream (<= 9)
  logic [3:0] g_bi;          // beat index of g_q in the stream
  logic [1:0] lead;          // chunks issued - chunks whose rounds are done (0..2)
  logic [1:0] avail;         // chunks arrived - chunks whose rounds are done (0..2)

  localparam logic [1:0] K_X = 2'd0, K_W = 2'd1, K_B = 2'd2;

  // Stream length: beats from g_p to g_p + 4 m - 4.
  logic [7:0] g_m;
  logic [9:0] g_span;  // [5:0]: the last word's place in its beat (unused)
  assign g_m = g_kind == K_B ? g_n : g_words;
  assign g_span = {4'd0, g_p[5:0]} + {g_m, 2'b00} - 10'd4;
  logic unused_span;
  assign unused_span = &{1'b0, g_span[5:0]};
  // A burst stops at the stream's end and at a 4 KB boundary.
  logic [6:0] to4k;
  logic [3:0] blen;
  assign to4k = 7'd64 - {1'b0, g_q[11:6]};
  assign blen = to4k[6:4] != 3'd0 || to4k[3:0] >= g_rem ? g_rem : to4k[3:0];

  // Descriptor queue: one entry per burst, answered in order.
  logic [1:0] dq_kind[QD];
  logic [6:0] dq_k[QD];
  logic [3:0] dq_off[QD];
  logic [3:0] dq_bi[QD];
  logic dq_par[QD];
  logic dq_end[QD];          // the last burst of its chunk
  logic [7:0] dq_words[QD];  // the chunk's words per row (the beat's wave)
  logic [7:0] dq_n[QD];      // the wave's units
  logic [3:0] dq_head, dq_tail;
  logic [4:0] dq_count;
  logic g_last_burst, g_chunk_end, g_more_rows, g_to_bias, g_chunk_issued;
  assign g_last_burst = blen == g_rem;
  assign g_more_rows = g_kind == K_W && {1'b0, g_k} + 8'd1 != g_n;
  assign g_to_bias = g_kind == K_W && !g_more_rows && g_chunk == last_chunk;
  assign g_chunk_end = g_last_burst && (g_kind == K_B || (g_kind == K_W && !g_more_rows && !g_to_bias));
  assign g_chunk_issued = gstate == G_NEXT && g_kind != K_X && !g_more_rows && !g_to_bias;

  assign rd_valid = gstate == G_ISSUE && dq_count != 5'(QD);
  assign rd_addr = {g_q[63:6], 6'd0};
  assign rd_len = {4'd0, blen - 4'd1};
  assign r_ready = run;
  logic r_fire;  // a beat for this engine (the descriptor's beat comes before start)
  assign r_fire = r_valid && run;

  // ------------------------------------------------------------ beat writer
  // Stage 1 registers the beat and its descriptor; stage 2 (combinational)
  // rotates it onto the banks and writes them.
  logic s1_valid, s1_end, s1_par;
  logic [1:0] s1_kind;
  logic [6:0] s1_k;
  logic [3:0] s1_off, s1_bi, r_bcnt;
  logic [511:0] s1_data;
  logic [7:0] s1_words, s1_n;

  logic w_we[16], x_we[16], b_we[16];
  logic [10:0] w_wa[16];
  logic [3:0] x_wa[16], b_wa[16];
  logic [31:0] wr_word[16];
  logic [3:0] wr_j[16], wr_rot;
  logic signed [9:0] wr_rel[16];
  // The bank's word of the beat: word t = 16 bi - off + j of the stream (t
  // relative to the chunk; the unit for the bias) goes to bank (t + R) mod
  // 16, R = L (weights), 0 (x and the bias).
  assign wr_rot = s1_kind == K_W ? s1_k[3:0] : 4'd0;
  always_comb begin
    for (int b = 0; b < 16; b++) begin
      wr_j[b] = 4'd0;
      wr_rel[b] = 10'sd0;
      wr_word[b] = 32'd0;
      w_we[b] = 1'b0;
      x_we[b] = 1'b0;
      b_we[b] = 1'b0;
      w_wa[b] = 11'd0;
      x_wa[b] = 4'd0;
      b_wa[b] = 4'd0;
    end
    if (s1_valid)
    for (int b = 0; b < 16; b++) begin
      wr_j[b] = 4'(b) + s1_off - wr_rot;
      wr_rel[b] = $signed({2'b00, s1_bi, 4'd0}) - $signed({6'd0, s1_off}) + $signed({6'd0, wr_j[b]});
      wr_word[b] = s1_data[{wr_j[b], 5'd0}+:32];
      w_we[b] = 1'b0;
      x_we[b] = 1'b0;
      b_we[b] = 1'b0;
      w_wa[b] = {s1_k, s1_par, wr_rel[b][6:4]};
      x_wa[b] = {s1_par, wr_rel[b][6:4]};
      b_wa[b] = {s1_par, wr_rel[b][6:4]};  // unit 16 s + L: bank L, entry s
      if (wr_rel[b] >= 10'sd0) begin
        if (s1_kind == K_B) b_we[b] = wr_rel[b] < $signed({2'b00, s1_n});
        else if (wr_rel[b] < $signed({2'b00, s1_words})) begin
          w_we[b] = s1_kind == K_W;
          x_we[b] = s1_kind == K_X;
        end
      end
    end
  end

  // ------------------------------------------------------------ banks
  logic [10:0] w_ra[16];
  logic [3:0] x_ra, b_ra;
  logic [31:0] w_rd[16], x_rd[16], b_rd[16];
  for (genvar b = 0; b < 16; b++) begin : g_bank
    logic [31:0] wmem[2048];
    logic [31:0] xmem[16];
    logic [31:0] bmem[16];
    always_ff @(posedge fc_clk) begin
      if (w_we[b]) wmem[w_wa[b]] <= wr_word[b];
      if (x_we[b]) xmem[x_wa[b]] <= wr_word[b];
      if (b_we[b]) bmem[b_wa[b]] <= wr_word[b];
      if (reading) begin
        w_rd[b] <= wmem[w_ra[b]];
        x_rd[b] <= xmem[x_ra];
        b_rd[b] <= bmem[b_ra];
      end
    end
  end

  // ------------------------------------------------------------ rounds
  typedef enum logic [2:0] {
    C_IDLE,
    C_ROUNDS,
    C_DRAIN,
    C_WRITE,
    C_DONE
  } cstate_t;
  cstate_t cstate;
  logic [31:0] c_b_left, c_u_left, t;  // t: the round (term index), 0 .. input_size
  logic [7:0] c_n;
  logic [63:0] c_out;                  // output of unit u0 of the wave
  logic c_par;                         // ring half of the round's chunk
  logic in_round, round_last;
  logic [2:0] sc;
  assign sc = lane_slot + 3'd2;        // the slot whose operands are read now
  logic t_is_bias, t_is_last_w;
  assign t_is_bias = t == insz_q;
  assign t_is_last_w = t == insz_m1;
  // A round starts in any slot's read cycle once its chunk has arrived and
  // reads the 8 slots from there on (each slot still sees its terms in
  // order, 8 or more cycles apart): no wait for slot 0 after a stall.
  logic round_go;
  logic [2:0] r_end_sc;  // the round's last slot: the one before its first
  assign round_go = cstate == C_ROUNDS && !in_round && avail != 2'd0;
  assign reading = round_go || in_round;
  assign round_last = in_round && sc == r_end_sc;
  // A chunk's rounds are done with its last round (t mod 128 = 127, or the
  // bias round).
  logic chunk_done;
  assign chunk_done = round_last && (t_is_bias || (t[6:0] == 7'd127 && !t_is_last_w));
  // The read addresses follow sc, which follows the free-running lane_slot:
  // a Verilated model would compute them at every edge, also while the
  // engine stands still. In simulation they are computed only while
  // reading, the one time the banks read them, and keep their last value
  // otherwise (docs/sim.md "Evaluation gating"); the hardware is the same
  // block without the `if`.
`ifdef SYNTHESIS
  always_comb begin
`else
  /* verilator lint_off LATCH */
  always_comb if (reading) begin
`endif
    for (int b = 0; b < 16; b++) w_ra[b] = {sc, 4'(b) - t[3:0], c_par, t[6:4]};
    x_ra = {c_par, t[6:4]};
    b_ra = {c_par, sc};
  end
`ifndef SYNTHESIS
  /* verilator lint_on LATCH */
`endif
  // Read cycle -> bank outputs (p1) -> lane operands (t_*) -> the lane.
  logic p1_valid, p1_first, p1_last;
  logic [3:0] p1_rot;
  logic t_valid, t_first, t_last;
  logic [31:0] t_x[16], t_w[16];
  always_ff @(posedge fc_clk) begin
    if (rst || abort) begin
      p1_valid <= 1'b0;
      t_valid <= 1'b0;
    end else begin
      p1_valid <= reading;
      p1_first <= t == 32'd0;
      p1_last <= t_is_bias;
      p1_rot <= t[3:0];
      t_valid <= p1_valid;
      t_first <= p1_first;
      t_last <= p1_last;
    end
  end
  logic [31:0] xw;
  assign xw = x_rd[p1_rot];
  // (Registers behind enables here and below: the Verilated model then
  // skips the engine's datapath while no FC runs.)
  always_ff @(posedge fc_clk)
    if (p1_valid)
      for (int l = 0; l < 16; l++) begin
        t_x[l] <= p1_last ? b_rd[l] : xw;
        t_w[l] <= p1_last ? ONE : w_rd[4'(l) + p1_rot];
      end

  // ------------------------------------------------------------ lanes
  logic out_valid[16];
  logic [2:0] out_slot[16];
  logic [31:0] y[16];
  for (genvar l = 0; l < 16; l++) begin : g_lane
    nnfab_fp_fc_lane u_lane (
        .clk(fc_clk),
        .rst(rst || abort),
        .active(lanes_on),
        .slots(lane_slots[l*4+:4]),
        .slot(lane_slot_q),
        .in_valid(t_valid),
        .first(t_first),
        .last(t_last),
        .act(act_q),
        .x(t_x[l]),
        .w(t_w[l]),
        .out_valid(out_valid[l]),
        .out_slot(out_slot[l]),
        .y(y[l])
    );
`ifndef SYNTHESIS
    // For the gate's assertion: nothing in the lane's FP units (their
    // registers move only with an operation coming or in flight) and no
    // last term reaching the activation.
    assign lane_quiet[l] = u_lane.u_mul.v == '0 && u_lane.u_add.v == '0 && u_lane.u_act.v == '0 && !u_lane.s_last;
`endif
  end

  // Results of the wave: slot s's 16 sums rotated to the output's word
  // alignment (unit 16 s + L goes to word (L + off) mod 16 of its beats).
  logic [511:0] res[8];
  logic [3:0] res_cnt;
  logic [3:0] o_off;
  assign o_off = c_out[5:2];
  always_ff @(posedge fc_clk)
    if (out_valid[0])
      for (int w = 0; w < 16; w++) res[out_slot[0]][w*32+:32] <= y[4'(w) - o_off];

  // Writes: per slot s with units (16 s < n), beat A at the slot's first
  // word and, when not aligned, beat B after it.
  logic [2:0] wr_s;
  logic wr_b;
  logic [63:0] wr_addr;
  logic [15:0] wr_words;
  logic [7:0] wr_unit[16];  // the unit of word w within the wave
  // Per word w of a beat, taken when the wave's writes begin (C_DRAIN ->
  // C_WRITE; c_out stays put until the wave is written): its unit's place in
  // the slot, (w - off) mod 16, and whether it is written by beat B (w <
  // off). The unit is then a concatenation instead of an add on c_out's
  // bits: c_out -> add -> compare with c_n -> wr_step -> cstate was 17 cells
  // in a whole-core run.
  logic [3:0] wr_lo[16];
  logic [15:0] wr_in_b;
  logic wr_off_nz;  // o_off != 0: the wave's beats are not aligned
  always_comb begin
    for (int w = 0; w < 16; w++) begin
      wr_unit[w] = {1'b0, wr_s, wr_lo[w]};
      wr_words[w] = (wr_b ? wr_in_b[w] : !wr_in_b[w]) && wr_unit[w] < c_n;
    end
    for (int w = 0; w < 16; w++) sq_strb[w*4+:4] = {4{wr_words[w]}};
  end
  assign sq_addr = wr_addr;
  assign sq_data = res[wr_s];
  assign sq_push = cstate == C_WRITE && wr_words != 16'd0 && !sq_full;
  logic wr_step;  // the current (slot, beat) is written or has no words
  assign wr_step = cstate == C_WRITE && (wr_words == 16'd0 || !sq_full);

  assign busy = run;
  assign done = cstate == C_DONE;
  assign fc_wait = !lanes_on && cstate == C_ROUNDS && !in_round && avail == 2'd0 && !s1_valid && !p1_valid &&
                   !t_valid && !r_valid && (gstate == G_END || (gstate == G_CHUNK && lead == 2'd2));

  always_ff @(posedge fc_clk) begin
    if (rst || abort) begin
      run <= 1'b0;
      lanes_on <= 1'b0;
      lane_slots <= '0;
      gstate <= G_IDLE;
      cstate <= C_IDLE;
      dq_head <= 4'd0;
      dq_tail <= 4'd0;
      dq_count <= 5'd0;
      s1_valid <= 1'b0;
      r_bcnt <= 4'd0;
      in_round <= 1'b0;
      lead <= 2'd0;
      avail <= 2'd0;
    end else begin
      // ---- start
      if (start && !run) begin
        run <= 1'b1;
        act_q <= act;
        insz_q <= insz;
        units_q <= units;
        row_bytes <= {insz[29:0], 2'b00};
        insz_m1 <= insz - 32'd1;
        last_chunk <= insz_m1_in[31:7];
        last_words <= {1'b0, insz_m1_in[6:0]} + 8'd1;
        w_base_q <= w_base;
        b_base_q <= b_base;
        // fetcher: wave 0
        g_b_left <= batch;
        g_u_left <= units;
        g_n <= units > 32'd128 ? 8'd128 : units[7:0];
        g_x_row <= x_base;
        g_wave_w <= w_base;
        g_wave_b <= b_base;
        g_chunk <= 25'd0;
        g_par <= 1'b0;
        gstate <= G_CHUNK;
        // rounds: wave 0
        c_b_left <= batch;
        c_u_left <= units;
        c_n <= units > 32'd128 ? 8'd128 : units[7:0];
        c_out <= dst;
        c_par <= 1'b0;
        t <= 32'd0;
        res_cnt <= 4'd0;
        cstate <= C_ROUNDS;
      end

      // ---- fetcher
      case (gstate)
        // A chunk: x's words, every row's words, in the last chunk the bias.
        G_CHUNK:
        if (lead != 2'd2) begin
          g_words <= g_chunk == last_chunk ? last_words : 8'd128;
          g_row <= add64(g_wave_w, {g_chunk[22:0], 9'd0});
          g_p <= add64(g_x_row, {g_chunk[22:0], 9'd0});
          g_k <= 7'd0;
          g_kind <= K_X;
          gstate <= G_INIT;
        end
        G_INIT: begin
          g_q <= {g_p[63:6], 6'd0};
          g_rem <= g_span[9:6] + 4'd1;
          g_bi <= 4'd0;
          gstate <= G_ISSUE;
        end
        G_ISSUE:
        if (rd_valid && rd_ready) begin
          g_q <= add64(g_q, {22'd0, blen, 6'd0});
          g_rem <= g_rem - blen;
          g_bi <= g_bi + blen;
          if (g_last_burst) gstate <= G_NEXT;
        end
        // The stream after: x -> row 0, row k -> row k + 1 or the bias or
        // the next chunk; the bias -> the next wave.
        G_NEXT: begin
          gstate <= G_INIT;
          if (g_kind == K_X) begin
            g_kind <= K_W;
            g_p <= g_row;
          end else if (g_more_rows) begin
            g_k <= g_k + 7'd1;
            g_row <= add64(g_row, row_bytes);
            g_p <= add64(g_row, row_bytes);
          end else if (g_to_bias) begin
            g_kind <= K_B;
            g_p <= g_wave_b;
          end else begin
            g_par <= !g_par;
            gstate <= G_CHUNK;
            if (g_kind == K_W) g_chunk <= g_chunk + 25'd1;
            else begin
              // next wave: the next 128 units of this batch row, or the next row
              g_chunk <= 25'd0;
              if (g_u_left <= 32'd128) begin
                g_b_left <= g_b_left - 32'd1;
                if (g_b_left == 32'd1) gstate <= G_END;
                g_u_left <= units_q;
                g_n <= units_q > 32'd128 ? 8'd128 : units_q[7:0];
                g_x_row <= add64(g_x_row, row_bytes);
                g_wave_w <= w_base_q;
                g_wave_b <= b_base_q;
              end else begin
                g_u_left <= g_u_left - 32'd128;
                g_n <= g_u_left > 32'd256 ? 8'd128 : g_u_left[7:0] - 8'd128;
                g_wave_w <= add64(g_wave_w, {row_bytes[24:0], 7'd0});
                g_wave_b <= add64(g_wave_b, 32'd512);
              end
            end
          end
        end
        default: ;
      endcase

      // ---- descriptor queue
      if (rd_valid && rd_ready) begin
        dq_kind[dq_tail] <= g_kind;
        dq_k[dq_tail] <= g_k;
        dq_off[dq_tail] <= g_p[5:2];
        dq_bi[dq_tail] <= g_bi;
        dq_par[dq_tail] <= g_par;
        dq_end[dq_tail] <= g_chunk_end;
        dq_words[dq_tail] <= g_words;
        dq_n[dq_tail] <= g_n;
        dq_tail <= dq_tail + 4'd1;
      end
      dq_count <= dq_count + {4'd0, rd_valid && rd_ready} - {4'd0, r_fire && r_last};
      if (r_fire && r_last) dq_head <= dq_head + 4'd1;

      // ---- beats into stage 1
      s1_valid <= r_fire;
      if (r_fire) begin
        r_bcnt <= r_last ? 4'd0 : r_bcnt + 4'd1;
        s1_data <= r_data;
        s1_kind <= dq_kind[dq_head];
        s1_k <= dq_k[dq_head];
        s1_off <= dq_off[dq_head];
        s1_bi <= dq_bi[dq_head] + r_bcnt;
        s1_par <= dq_par[dq_head];
        s1_end <= dq_end[dq_head] && r_last;
        s1_words <= dq_words[dq_head];
        s1_n <= dq_n[dq_head];
      end

      // ---- chunk accounting: issued (lead), written (avail), rounds done
      lead <= lead + {1'b0, g_chunk_issued} - {1'b0, chunk_done};
      avail <= avail + {1'b0, s1_valid && s1_end} - {1'b0, chunk_done};

      // ---- rounds
      if (round_go) begin
        in_round <= 1'b1;
        r_end_sc <= sc - 3'd1;
      end
      // The wave's first read starts the lanes: its terms enter them two
      // cycles later.
      if (reading) begin
        lanes_on <= 1'b1;
        // ceil((n - L) / 16), 0 when n <= L (n <= 128: no overflow)
        for (int l = 0; l < 16; l++) lane_slots[l*4+:4] <= 4'((c_n + 8'd15 - 8'(l)) >> 4);
      end
      if (round_last) begin
        in_round <= 1'b0;
        if (t_is_bias) begin
          t <= 32'd0;
          cstate <= C_DRAIN;
        end else t <= t + 32'd1;
        if (chunk_done) c_par <= !c_par;
      end
      if (out_valid[0]) res_cnt <= res_cnt + 4'd1;
      case (cstate)
        C_DRAIN:
        if (res_cnt == 4'd8) begin
          // Every slot's result has left the lanes.
          lanes_on <= 1'b0;
          lane_slots <= '0;
          res_cnt <= 4'd0;
          wr_s <= 3'd0;
          wr_b <= 1'b0;
          wr_addr <= {c_out[63:6], 6'd0};
          for (int w = 0; w < 16; w++) begin
            wr_lo[w] <= 4'(w) - o_off;
            wr_in_b[w] <= 4'(w) < o_off;
          end
          wr_off_nz <= o_off != 4'd0;
          cstate <= C_WRITE;
        end
        C_WRITE:
        if (wr_step) begin
          // next (slot, beat): beat B only when the output is not aligned
          if (!wr_b && wr_off_nz) begin
            wr_b <= 1'b1;
            wr_addr <= add64(wr_addr, 32'd64);
          end else begin
            wr_b <= 1'b0;
            wr_s <= wr_s + 3'd1;
            if (!wr_b) wr_addr <= add64(wr_addr, 32'd64);
            if ({1'b0, wr_s, 4'd0} + 8'd16 >= c_n) begin
              // wave written: the next one
              cstate <= C_ROUNDS;
              if (c_u_left <= 32'd128) begin
                c_b_left <= c_b_left - 32'd1;
                if (c_b_left == 32'd1) cstate <= C_DONE;
                c_u_left <= units_q;
                c_n <= units_q > 32'd128 ? 8'd128 : units_q[7:0];
                c_out <= add64(c_out, {22'd0, c_n, 2'b00});
              end else begin
                c_u_left <= c_u_left - 32'd128;
                c_n <= c_u_left > 32'd256 ? 8'd128 : c_u_left[7:0] - 8'd128;
                c_out <= add64(c_out, 32'd512);
              end
            end
          end
        end
        C_DONE: begin
          cstate <= C_IDLE;
          gstate <= G_IDLE;
          run <= 1'b0;
        end
        default: ;
      endcase
    end
  end


`ifndef SYNTHESIS
  // The gated clock (fc_clk above): at an edge of clk that fc_clk misses,
  // none of the engine's registers would change if it ticked. From the
  // always_ff blocks term by term, in either of the gate's two states:
  // idle (not running, fetcher and rounds idle) or waiting (running, the
  // rounds in C_ROUNDS between rounds with no chunk arrived, the fetcher at
  // its end or waiting for a chunk's rounds, so that no state case acts and
  // rd_valid, round_go and reading are low: no burst, descriptor, bank read
  // or write, chunk count or round moves); in both, the lanes off, stage 1
  // and the operand pipeline empty, the operand stage's copies (p1_first,
  // p1_last, p1_rot, t_first, t_last) equal to what they copy, no result
  // leaving (res, res_cnt), and in every lane (active = lanes_on is low, so
  // the tag pipelines hold) the multiplier, adder and activation empty
  // with no last term coming. Those are registers of the stopped domain,
  // so they are checked at the first edge fc_clk misses; the inputs at
  // every one: start, rst and abort, and r_valid, which would fill stage 1
  // while running. rd_ready and sq_full are read only in G_ISSUE and
  // C_WRITE.
  always_ff @(posedge clk) begin
    if (!u_gate.en_q) begin
      assert (!start && !rst && !abort && !(run && r_valid))
      else $error("nnfab_tensor_fc: start, rst, abort or a beat at an edge fc_clk missed (not settled by the falling edge)");
      if (u_gate.was_on)
        assert ((run ? cstate == C_ROUNDS && avail == 2'd0 && (gstate == G_END || (gstate == G_CHUNK && lead == 2'd2))
                     : gstate == G_IDLE && cstate == C_IDLE) &&
                !lanes_on && lane_slots == '0 && !s1_valid && !in_round && !p1_valid && !t_valid &&
                p1_first == (t == 32'd0) && p1_last == t_is_bias && p1_rot == t[3:0] && t_first == p1_first &&
                t_last == p1_last && !out_valid[0] && lane_quiet == 16'hFFFF)
        else $error("nnfab_tensor_fc: fc_clk stopped while the engine was not quiescent");
    end
  end

  always_ff @(posedge fc_clk)
    if (!rst && !abort && run) begin
      assert (!(r_valid && dq_count == 5'd0))
      else $error("nnfab_tensor_fc: a read answer nobody asked for");
      assert (!(out_valid[0] && res_cnt == 4'd8))
      else $error("nnfab_tensor_fc: more results than slots");
      assert (!(lanes_on || t_valid) || lane_slot_q == lane_slot)
      else $error("nnfab_tensor_fc: the lanes' slot is not the engine's while they compute");
    end
`endif
endmodule
