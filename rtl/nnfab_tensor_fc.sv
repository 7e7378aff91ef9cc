// The tensor unit's FULLY_CONNECTED engine (docs/isa.md FC, docs/rtl.md
// "FULLY_CONNECTED"): one nnfab_fp_fc_lane. Outputs go in waves of one batch
// row b and up to 8 consecutive units u0 .. u0 + n - 1, one per slot of the
// lane's adder pipeline; in a wave the terms go in the contract's order,
//   for i = 0 .. input_size - 1: for s = 0 .. n - 1: x[b][i] * w[u0 + s][i]
// then the bias terms bias[u0 + s] * 1.0 with the activation, so every sum is
// summed strictly in order (acc = +0; acc = acc + round(x * w); then
// act(acc + bias)). Operands come from cached 64-byte beats: one for x (and
// the bias), one per slot for its weight row (a weight row's beat serves 16
// terms). When the next term misses, every stream whose next operand is not
// cached is fetched at once, single-beat reads issued back to back (one
// memory latency for all of them; answers come in order). The operands of a
// slot's term are registered the cycle before the slot's turn in the lane.
// The wave's results are written as single-beat strobed writes in output
// order once the last of them has left the lane.
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
    input  logic          rd_ready,
    input  logic          r_valid,
    input  logic [511:0]  r_data,
    output logic          r_ready,
    output logic          sq_push,
    output logic [63:0]   sq_addr,
    output logic [511:0]  sq_data,
    output logic [63:0]   sq_strb,
    input  logic          sq_full
);
  localparam logic [31:0] ONE = 32'h3F800000;

  typedef enum logic [2:0] {
    F_IDLE,
    F_WAVE,
    F_RUN,
    F_FETCH,
    F_DRAIN,
    F_WRITE,
    F_DONE
  } fstate_t;

  // 64-bit pointer + a 32-bit step: the low word adds, the high word takes
  // the carry from a parallel increment (carry select).
  function automatic [63:0] add64(input [63:0] p, input [31:0] d);
    logic [32:0] lo;
    lo = {1'b0, p[31:0]} + {1'b0, d};
    add64 = {lo[32] ? p[63:32] + 32'd1 : p[63:32], lo[31:0]};
  endfunction

  fstate_t state;
  logic [1:0] act_q;
  logic [31:0] units_q, insz_q, row_bytes, b_left, u_left, i_left;
  logic [63:0] w_base_q, b_base_q, x_row, wave_w, wave_b, out_ptr;
  logic [63:0] wp[8];
  logic [63:0] xp, bp, init_p;
  logic [3:0] n, init_k;
  logic [2:0] cur_s;
  logic bias_phase, first_term;
  // cached beats
  logic [511:0] xc;
  logic [57:0] xc_tag;
  logic xc_ok;
  logic [511:0] wc[8];
  logic [57:0] wc_tag[8];
  logic wc_ok[8];
  // Streams 0..7: the slots' weight rows; 8: x (or the bias).
  logic [8:0] need, pend;
  logic [3:0] need_k, pend_k;
  logic [57:0] beat_of[9];
  // the wave's results
  logic [31:0] res[8];
  logic [3:0] res_cnt, wr_k;

  // ---- the lane
  logic [2:0] lane_slot, out_slot;
  logic t_valid, t_first, t_last, out_valid;
  logic [31:0] t_x, t_w, y;
  nnfab_fp_fc_lane u_lane (
      .clk(clk),
      .rst(rst || abort),
      .slot(lane_slot),
      .in_valid(t_valid),
      .first(t_first),
      .last(t_last),
      .act(act_q),
      .x(t_x),
      .w(t_w),
      .out_valid(out_valid),
      .out_slot(out_slot),
      .y(y)
  );

  // ---- the next term: slot cur_s, operands from the cached beats
  logic [63:0] ax, aw;
  logic [511:0] wline;
  logic x_hit, w_hit, turn, issue;
  always_comb begin
    ax = bias_phase ? bp : xp;
    aw = wp[cur_s];
    wline = wc[cur_s];
    x_hit = xc_ok && xc_tag == ax[63:6];
    w_hit = bias_phase || (wc_ok[cur_s] && wc_tag[cur_s] == aw[63:6]);
  end
  // Which streams miss their next operand (weights only outside the bias
  // phase, only the wave's slots), and the lowest one still to issue / to be
  // answered (issued in increasing order, so answers come in that order).
  logic [8:0] miss;
  always_comb begin
    for (int k = 0; k < 8; k++) begin
      beat_of[k] = wp[k][63:6];
      miss[k] = !bias_phase && 4'(k) < n && !(wc_ok[k] && wc_tag[k] == wp[k][63:6]);
    end
    beat_of[8] = ax[63:6];
    miss[8] = !x_hit;
    need_k = 4'd8;
    pend_k = 4'd8;
    for (int k = 8; k >= 0; k--) begin
      if (need[k]) need_k = 4'(k);
      if (pend[k]) pend_k = 4'(k);
    end
  end

  // The registered term enters the lane in cur_s's turn: prepare it when the
  // lane's slot is the one before.
  assign turn = lane_slot + 3'd1 == cur_s;
  assign issue = state == F_RUN && turn && x_hit && w_hit;

  assign busy = state != F_IDLE;
  assign done = state == F_DONE;
  assign rd_valid = state == F_FETCH && need != 9'd0;
  assign rd_addr = {beat_of[need_k], 6'd0};
  assign r_ready = state == F_FETCH;
  assign sq_push = state == F_WRITE && wr_k != n && !sq_full;
  assign sq_addr = {out_ptr[63:6], 6'd0};
  assign sq_data = {16{res[wr_k[2:0]]}};
  always_comb
    for (int k = 0; k < 16; k++) sq_strb[k*4+:4] = out_ptr[5:2] == 4'(k) ? 4'hF : 4'h0;

  always_ff @(posedge clk) begin
    if (rst || abort) begin
      state <= F_IDLE;
      t_valid <= 1'b0;
      xc_ok <= 1'b0;
      for (int k = 0; k < 8; k++) wc_ok[k] <= 1'b0;
    end else begin
      t_valid <= issue;
      if (issue) begin
        t_x <= xc[{ax[5:2], 5'd0}+:32];
        t_w <= bias_phase ? ONE : wline[{aw[5:2], 5'd0}+:32];
        t_first <= first_term;
        t_last <= bias_phase;
      end
      if (out_valid) begin
        res[out_slot] <= y;
        res_cnt <= res_cnt + 4'd1;
      end
      case (state)
        F_IDLE:
        if (start) begin
          act_q <= act;
          units_q <= units;
          insz_q <= insz;
          row_bytes <= {insz[29:0], 2'b00};
          b_left <= batch;
          u_left <= units;
          w_base_q <= w_base;
          b_base_q <= b_base;
          x_row <= x_base;
          wave_w <= w_base;
          wave_b <= b_base;
          out_ptr <= dst;
          xc_ok <= 1'b0;
          for (int k = 0; k < 8; k++) wc_ok[k] <= 1'b0;
          init_p <= w_base;
          init_k <= 4'd0;
          state <= F_WAVE;
        end
        // Each slot's weight pointer: row u0 + s, one row apart (8 cycles).
        F_WAVE:
        if (init_k != 4'd8) begin
          wp[init_k[2:0]] <= init_p;
          init_p <= add64(init_p, row_bytes);
          init_k <= init_k + 4'd1;
        end else begin
          n <= u_left > 32'd8 ? 4'd8 : u_left[3:0];
          xp <= x_row;
          bp <= wave_b;
          cur_s <= 3'd0;
          i_left <= insz_q;
          bias_phase <= 1'b0;
          first_term <= 1'b1;
          res_cnt <= 4'd0;
          state <= F_RUN;
        end
        F_RUN:
        if (!x_hit || !w_hit) begin
          need <= miss;
          pend <= 9'd0;
          state <= F_FETCH;
        end else if (issue) begin
          if (bias_phase) bp <= add64(bp, 32'd4);
          else wp[cur_s] <= add64(aw, 32'd4);
          if ({1'b0, cur_s} + 4'd1 == n) begin
            cur_s <= 3'd0;
            if (bias_phase) state <= F_DRAIN;
            else begin
              first_term <= 1'b0;
              xp <= add64(xp, 32'd4);
              i_left <= i_left - 32'd1;
              if (i_left == 32'd1) bias_phase <= 1'b1;
            end
          end else cur_s <= cur_s + 3'd1;
        end
        F_FETCH: begin
          // Issue the next missing stream's beat; take the oldest answer.
          if (rd_valid && rd_ready) need[need_k] <= 1'b0;
          if (r_valid) begin
            if (pend_k == 4'd8) begin
              xc <= r_data;
              xc_tag <= beat_of[8];
              xc_ok <= 1'b1;
            end else begin
              wc[pend_k[2:0]] <= r_data;
              wc_tag[pend_k[2:0]] <= beat_of[pend_k];
              wc_ok[pend_k[2:0]] <= 1'b1;
            end
          end
          pend <= (pend | (rd_valid && rd_ready ? 9'd1 << need_k : 9'd0)) & ~(r_valid ? 9'd1 << pend_k : 9'd0);
          if (need == 9'd0 && pend == 9'd0) state <= F_RUN;
        end
        F_DRAIN:
        if (res_cnt == n) begin
          wr_k <= 4'd0;
          state <= F_WRITE;
        end
        F_WRITE:
        if (sq_push) begin
          out_ptr <= add64(out_ptr, 32'd4);
          wr_k <= wr_k + 4'd1;
        end else if (wr_k == n) begin
          // Next wave: the next 8 units of this row, or the next row.
          init_k <= 4'd0;
          state <= F_WAVE;
          if (u_left == {28'd0, n}) begin
            b_left <= b_left - 32'd1;
            if (b_left == 32'd1) state <= F_DONE;
            u_left <= units_q;
            x_row <= add64(x_row, row_bytes);
            wave_w <= w_base_q;
            wave_b <= b_base_q;
            init_p <= w_base_q;
          end else begin
            u_left <= u_left - {28'd0, n};
            wave_w <= add64(wave_w, {row_bytes[28:0], 3'b000});
            wave_b <= add64(wave_b, 32'd32);
            init_p <= add64(wave_w, {row_bytes[28:0], 3'b000});
          end
        end
        F_DONE: state <= F_IDLE;
        default: state <= F_IDLE;
      endcase
    end
  end

`ifndef SYNTHESIS
  // A wave's results come out only for the wave's slots, at most n of them;
  // operands are aligned words (the tensor unit's region checks).
  always_ff @(posedge clk)
    if (!rst && !abort) begin
      assert (!out_valid || ({1'b0, out_slot} < n && res_cnt < n))
      else $error("nnfab_tensor_fc: result for slot %0d outside the wave (n = %0d)", out_slot, n);
      assert (state != F_RUN || ax[1:0] == 2'd0)
      else $error("nnfab_tensor_fc: operand address %0h not word-aligned", ax);
      assert (!r_valid || state != F_FETCH || pend != 9'd0)
      else $error("nnfab_tensor_fc: a read answer nobody asked for");
    end
`endif
endmodule
