// The tensor unit's element engine: any strides (broadcast included), any
// element sizes, DIV, FLOAT32 (through nnfab_tensor_fp). One element per
// cycle (docs/rtl.md "Element engine"), in two decoupled halves:
//
//  walker   W0 the output index walk (row-major, dimension 3 fastest), each
//              source's element index advanced incrementally;
//           W1 each source's element address (base + index * size);
//           W2 the beat check: does the element lie in the beat the source's
//              previous element came from? If not, the source needs a new
//              beat: W2 puts its single-beat read into the read queue (up to
//              three in one cycle, sources in order; the queue issues one
//              per cycle) and pushes the element's record (per source: new
//              beat or not, byte offset) into the record FIFO.
//  staging     each beat that comes back goes, in order, into its source's
//              staging register (its source rides along in the tag FIFO);
//  consumer C0 the record at the FIFO's head takes its new beats from the
//              staging registers into the sources' cached beats, all in one
//              cycle;
//           C1 each source's element picked from its cached beat;
//           C2 the integer ALU into a register, the iterative divider
//              (INT32 DIV: the consumer waits for it), or the FP pipe;
//  output      results, in order, through the result FIFO into a beat-wide
//              buffer that goes out as a strobed single-beat posted write
//              when the next result falls into another beat.
//
// Reads are issued and answered in (element, source) order, so one shared
// beat FIFO serves every source, and a beat for a later element never
// blocks one that C0 is waiting for. Credits keep every FIFO from
// overflowing: a read issues only while fewer than READ_AHEAD beats are
// asked for and not yet staged (the beat FIFO holds them all, so R never
// waits), and C0 passes an element on only while fewer than RESULTS
// elements are between C1 and the result FIFO's output (the FP units have
// no stall input: what is in flight must fit).
// The walker runs up to the record FIFO's depth ahead of the consumer, so a
// source's next beats are read while the current one is being used.
`include "nnfab_isa.svh"

module nnfab_tensor_elem #(
    parameter int READ_AHEAD_LOG2 = 3,  // beats asked for and not yet staged (isa.json elem_read_ahead)
    parameter int RECORDS_LOG2 = 6,     // elements the walker may run ahead of the consumer
    parameter int RESULTS_LOG2 = 6      // elements from C1 to the result FIFO's output
) (
    input  logic          clk,
    input  logic          rst,
    input  logic          start,
    input  logic          abort,
    input  logic [4:0]    fn,
    input  logic          fp,        // FLOAT32 arithmetic, comparisons, ABS/NEG, CVT: nnfab_tensor_fp
    input  logic          fp_to_int, // CVT from FLOAT32
    input  logic [1:0]    act,       // fused activation of FLOAT32 ADD/SUB/MUL/DIV
    input  logic [1:0]    nsrc,
    input  logic [2:0]    sbytes0,
    input  logic [2:0]    sbytes1,
    input  logic [2:0]    sbytes2,
    input  logic [2:0]    rbytes,
    input  logic [63:0]   base0,
    input  logic [63:0]   base1,
    input  logic [63:0]   base2,
    input  logic [63:0]   dst,
    input  logic [31:0]   dim1,
    input  logic [31:0]   dim2,
    input  logic [31:0]   dim3,
    input  logic [127:0]  stride_a,  // {k0, k1, k2, k3}
    input  logic [127:0]  stride_b,
    input  logic [127:0]  stride_c,
    input  logic [31:0]   elements,
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
  localparam int READ_AHEAD = 1 << READ_AHEAD_LOG2;
  localparam int RESULTS = 1 << RESULTS_LOG2;
  localparam int REC_W = 21;  // per source: new beat (1), byte offset (6)
  localparam logic [RECORDS_LOG2+1:0] REC_DEPTH = 1 << RECORDS_LOG2;
  localparam logic [READ_AHEAD_LOG2+1:0] BEAT_DEPTH = 1 << READ_AHEAD_LOG2;
  localparam logic [RESULTS_LOG2+1:0] RES_DEPTH = 1 << RESULTS_LOG2;

  typedef enum logic [1:0] {
    E_IDLE,
    E_RUN,
    E_FLUSH,
    E_DONE
  } estate_t;

  // Element indexes grow by at most one stride past the last element read,
  // so 40 bits never wrap (indexes read are below 2^32).
  localparam int IW = 40;

  estate_t state;
  logic [31:0] stride[3][4];
  logic [2:0] sb[3];
  logic [63:0] base[3];
  logic [1:0] nsrc_q;
  logic clear;  // empties the FIFOs: start of an instruction, abort
  assign clear = rst || abort || (state == E_IDLE && start);

  always_comb begin
    for (int k = 0; k < 4; k++) begin
      stride[0][k] = stride_a[(3-k)*32+:32];
      stride[1][k] = stride_b[(3-k)*32+:32];
      stride[2][k] = stride_c[(3-k)*32+:32];
    end
  end

  // ================================================================ walker
  // W0: the index of the next element of each source, and what is left of
  // each output row: r = dim - 1 - i, so that "last of its row" is r == 0.
  logic [IW-1:0] cur[3], p0[3], p1[3], p2[3];  // index now, and at the start of each dimension's row
  logic [31:0] r1, r2, r3, dm1, dm2, dm3, wleft;
  // W1: the element addresses.
  logic w1_v;
  logic [63:0] addr[3], addr_q[3];
  // W2: per source, whether the element needs a new beat, its byte offset
  // and beat; how many new beats; the beat each source last read.
  logic w2_v;
  logic [2:0] w2_new;
  logic [1:0] w2_n;
  logic [5:0] w2_off[3];
  logic [57:0] w2_beat[3];
  logic [57:0] last_beat[3];
  logic last_ok[3];
  logic w_adv, w2_done, rd_fire, rec_push, rec_room, rq_room;
  logic [READ_AHEAD_LOG2:0] credit;  // beats asked for and not yet staged
  // The read queue: 4 entries, up to three written per cycle, one issued.
  logic [57:0] rq_beat[4];
  logic [1:0] rq_src[4];
  logic [1:0] rq_wp, rq_rp;
  logic [2:0] rq_cnt;
  logic [1:0] nth_src[3];  // the k-th source of W2 that needs a new beat

  // The beat check of W1's element.
  logic [2:0] w1_new;
  always_comb
    for (int s = 0; s < 3; s++)
      w1_new[s] = w1_v && s < {30'd0, nsrc_q} && (!last_ok[s] || last_beat[s] != addr_q[s][63:6]);

  logic [42:0] lo;
  always_comb begin
    for (int s = 0; s < 3; s++) begin
      // base + index * size: the low 42 bits add, the high 22 bits take the
      // carry from a precomputed increment (carry select).
      lo = {1'b0, base[s][41:0]} + {1'b0, {2'b00, cur[s]} << (sb[s] == 3'd4 ? 2 : 0)};
      addr[s] = {lo[42] ? base[s][63:42] + 22'd1 : base[s][63:42], lo[41:0]};
    end
  end

  // W2's new beats in source order: the first, second and third set bit.
  assign nth_src[0] = w2_new[0] ? 2'd0 : w2_new[1] ? 2'd1 : 2'd2;
  assign nth_src[1] = w2_new[0] && w2_new[1] ? 2'd1 : 2'd2;
  assign nth_src[2] = 2'd2;
  assign rq_room = {1'b0, rq_cnt} + {2'd0, w2_n} <= 4'd4;
  assign rd_valid = state == E_RUN && rq_cnt != 3'd0 && credit != READ_AHEAD[READ_AHEAD_LOG2:0];
  assign rd_addr = {rq_beat[rq_rp], 6'd0};
  assign rd_fire = rd_valid && rd_ready;
  // W2 finishes when its reads fit into the read queue and its record into
  // the record FIFO.
  assign w2_done = w2_v && rec_room && rq_room;
  assign rec_push = w2_done;
  assign w_adv = state == E_RUN && (!w2_v || w2_done);

  // ============================================================== FIFOs
  logic [REC_W-1:0] rec_in, rec_out;
  logic rec_v, rec_pop;
  logic [RECORDS_LOG2+1:0] rec_count;
  always_comb begin
    rec_in = '0;
    for (int s = 0; s < 3; s++) rec_in[s*7+:7] = {w2_new[s], w2_off[s]};
  end
  assign rec_room = rec_count < REC_DEPTH;

  nnfab_fifo #(
      .WIDTH(REC_W),
      .DEPTH_LOG2(RECORDS_LOG2)
  ) u_rec (
      .clk(clk),
      .clear(clear),
      .wr_en(rec_push),
      .wr_data(rec_in),
      .pop(rec_pop),
      .out_valid(rec_v),
      .out_data(rec_out),
      .count(rec_count)
  );

  logic beat_v, beat_pop;
  logic [511:0] beat_out;
  logic [READ_AHEAD_LOG2+1:0] beat_count;
  assign r_ready = state == E_RUN;

  nnfab_fifo #(
      .WIDTH(512),
      .DEPTH_LOG2(READ_AHEAD_LOG2)
  ) u_beats (
      .clk(clk),
      .clear(clear),
      .wr_en(r_valid && r_ready),
      .wr_data(r_data),
      .pop(beat_pop),
      .out_valid(beat_v),
      .out_data(beat_out),
      .count(beat_count)
  );

  // The source of each beat asked for, in the same order as the beats.
  logic tag_v;
  logic [1:0] tag;
  logic [READ_AHEAD_LOG2+1:0] tag_count;
  nnfab_fifo #(
      .WIDTH(2),
      .DEPTH_LOG2(READ_AHEAD_LOG2)
  ) u_tags (
      .clk(clk),
      .clear(clear),
      .wr_en(rd_fire),
      .wr_data(rq_src[rq_rp]),
      .pop(beat_pop),
      .out_valid(tag_v),
      .out_data(tag),
      .count(tag_count)
  );

  // ============================================================= consumer
  // Staging: the head beat goes to its source's register when that is empty
  // or being taken by C0 in this cycle.
  logic [511:0] stage[3];
  logic [2:0] stage_v, take;
  logic [2:0] rec_new;
  logic rec_ready;
  logic [511:0] cache[3];
  logic c_go, room;
  logic [RESULTS_LOG2:0] reserved;  // elements from C1 to the result FIFO's output
  always_comb
    for (int s = 0; s < 3; s++) rec_new[s] = rec_out[s*7+6];
  // C0: the head record goes when each of its new beats is staged.
  assign rec_ready = (stage_v | ~rec_new) == 3'b111;
  assign rec_pop = c_go && rec_v && rec_ready;
  assign take = rec_pop ? rec_new : 3'd0;
  assign beat_pop = beat_v && tag_v && (!stage_v[tag] || take[tag]);
  assign room = reserved != RESULTS[RESULTS_LOG2:0];

  // C1: the element's byte offsets. The line is read through a copy padded
  // by one word: for a source whose address is not meaningful (an unused
  // source) the 32-bit select would otherwise reach past bit 511, which
  // hardware reads as don't-care but a C++ simulation reads out of bounds.
  logic c1_v;
  logic [5:0] c1_off[3];
  // The select is a function called in the registered branch that takes
  // its result (C1 -> C2 on c_go): a Verilated model skips it while the
  // engine does not move (docs/sim.md "Evaluation gating").
  function automatic [31:0] operand(input [511:0] line, input [5:0] off, input [2:0] size);
    logic [543:0] line_pad;
    line_pad = {32'd0, line};
    if (size == 3'd4) operand = line_pad[{1'b0, off, 3'd0}+:32];
    else operand = {24'd0, line_pad[{1'b0, off, 3'd0}+:8]};
  endfunction

  // C2: the operands.
  logic c2_v;
  logic [31:0] v_q[3];
  logic [31:0] alu_y, alu_q, div_q;
  logic aq_v;  // alu_q holds a result for the result FIFO
  logic is_div, div_start, div_busy, div_done, div_wait;
  assign is_div = fn == NNFAB_FN_DIV && !fp;
  // INT32 DIV: the element waits in C2 for the iterative divider, and the
  // consumer with it.
  assign div_wait = c2_v && is_div && !div_done;
  assign div_start = c2_v && is_div && !div_busy;
  assign c_go = state == E_RUN && room && !div_wait;

  nnfab_alu u_alu (
      .fn(fn),
      .a(v_q[0]),
      .b(v_q[1]),
      .c(v_q[2]),
      .y(alu_y)
  );

  nnfab_divider u_div (
      .clk(clk),
      .rst(rst || abort),
      .start(div_start),
      .a(v_q[0]),
      .b(v_q[1]),
      .busy(div_busy),
      .done(div_done),
      .q(div_q)
  );

  // FLOAT32: one element per cycle into the FP pipe; results leave in
  // issue order after the function's fixed latency.
  logic fp_in, fp_out;
  logic [31:0] fp_y;
  assign fp_in = c_go && c2_v && fp;
  nnfab_tensor_fp u_fp (
      .clk(clk),
      .rst(rst || abort),
      .in_valid(fp_in),
      .fn(fn),
      .to_int(fp_to_int),
      .act(act),
      .a(v_q[0]),
      .b(v_q[1]),
      .out_valid(fp_out),
      .y(fp_y)
  );

  // =============================================================== output
  logic res_v, res_pop;
  logic [31:0] res_y;
  logic [RESULTS_LOG2+1:0] res_count;

  nnfab_fifo #(
      .WIDTH(32),
      .DEPTH_LOG2(RESULTS_LOG2)
  ) u_res (
      .clk(clk),
      .clear(clear),
      .wr_en(aq_v || fp_out),
      .wr_data(fp ? fp_y : alu_q),
      .pop(res_pop),
      .out_valid(res_v),
      .out_data(res_y),
      .count(res_count)
  );

  logic [63:0] out_addr;
  logic [511:0] buf_data;
  logic [63:0] buf_strb;
  logic [57:0] buf_beat;
  logic buf_valid;
  logic [31:0] oleft;
  logic out_other_beat;
  // The next output byte address: a 32-bit add, the high half by carry select.
  logic [32:0] out_lo;
  logic [63:0] next_out;
  assign out_lo = {1'b0, out_addr[31:0]} + {30'd0, rbytes};
  assign next_out = {out_lo[32] ? out_addr[63:32] + 32'd1 : out_addr[63:32], out_lo[31:0]};
  assign out_other_beat = buf_valid && buf_beat != out_addr[63:6];
  // The buffer goes out when the next result falls into another beat, and
  // at the end; the result goes into the buffer in the same cycle.
  assign sq_push = buf_valid && !sq_full && ((state == E_RUN && res_v && out_other_beat) || state == E_FLUSH);
  assign res_pop = state == E_RUN && res_v && (!out_other_beat || sq_push);
  assign sq_addr = {buf_beat, 6'd0};
  assign sq_data = buf_data;
  assign sq_strb = buf_strb;

  assign busy = state != E_IDLE;
  assign done = state == E_DONE;

  always_ff @(posedge clk) begin
    if (rst || abort) begin
      state <= E_IDLE;
      buf_valid <= 1'b0;
      w1_v <= 1'b0;
      w2_v <= 1'b0;
      c1_v <= 1'b0;
      c2_v <= 1'b0;
      aq_v <= 1'b0;
    end else begin
      // Credits (the start below resets them).
      credit <= credit + {{READ_AHEAD_LOG2{1'b0}}, rd_fire} - {{READ_AHEAD_LOG2{1'b0}}, beat_pop};
      reserved <= reserved + {{RESULTS_LOG2{1'b0}}, rec_pop} - {{RESULTS_LOG2{1'b0}}, res_pop};
      rq_cnt <= rq_cnt + (w2_done ? {1'b0, w2_n} : 3'd0) - {2'd0, rd_fire};
      // C2 -> the ALU's register (INT32 but DIV) or the divider's result.
      aq_v <= (c_go && c2_v && !fp && !is_div) || (c2_v && is_div && div_done);
      case (state)
        E_IDLE:
        if (start) begin
          base[0] <= base0;
          base[1] <= base1;
          base[2] <= base2;
          sb[0] <= sbytes0;
          sb[1] <= sbytes1;
          sb[2] <= sbytes2;
          nsrc_q <= nsrc;
          for (int s = 0; s < 3; s++) begin
            cur[s] <= '0;
            p0[s] <= '0;
            p1[s] <= '0;
            p2[s] <= '0;
            last_ok[s] <= 1'b0;
          end
          r1 <= dim1 - 32'd1;
          r2 <= dim2 - 32'd1;
          r3 <= dim3 - 32'd1;
          dm1 <= dim1 - 32'd1;
          dm2 <= dim2 - 32'd1;
          dm3 <= dim3 - 32'd1;
          wleft <= elements;
          oleft <= elements;
          out_addr <= dst;
          credit <= '0;
          reserved <= '0;
          stage_v <= '0;
          rq_wp <= '0;
          rq_rp <= '0;
          rq_cnt <= '0;
          buf_valid <= 1'b0;
          w1_v <= 1'b0;
          w2_v <= 1'b0;
          c1_v <= 1'b0;
          c2_v <= 1'b0;
          aq_v <= 1'b0;
          state <= E_RUN;
        end
        E_FLUSH: if (!buf_valid || sq_push) state <= E_DONE;
        E_DONE: state <= E_IDLE;
        default: ;
      endcase

      // ------------------------------------------------------- walker
      if (w_adv) begin
        // W1 -> W2: the beat check.
        w2_v <= w1_v;
        for (int s = 0; s < 3; s++) begin
          w2_new[s] <= w1_new[s];
          w2_off[s] <= addr_q[s][5:0];
          w2_beat[s] <= addr_q[s][63:6];
          if (w1_v) begin
            last_beat[s] <= addr_q[s][63:6];
            last_ok[s] <= 1'b1;
          end
        end
        w2_n <= {1'b0, w1_new[0]} + {1'b0, w1_new[1]} + {1'b0, w1_new[2]};
        // W0 -> W1: the addresses of the next element.
        w1_v <= wleft != 32'd0;
        for (int s = 0; s < 3; s++) addr_q[s] <= addr[s];
        if (wleft != 32'd0) begin
          wleft <= wleft - 32'd1;
          // Next output index, row-major with dimension 3 fastest.
          for (int s = 0; s < 3; s++) begin
            if (r3 != 32'd0) begin
              cur[s] <= cur[s] + {8'd0, stride[s][3]};
            end else if (r2 != 32'd0) begin
              p2[s] <= p2[s] + {8'd0, stride[s][2]};
              cur[s] <= p2[s] + {8'd0, stride[s][2]};
            end else if (r1 != 32'd0) begin
              p1[s] <= p1[s] + {8'd0, stride[s][1]};
              p2[s] <= p1[s] + {8'd0, stride[s][1]};
              cur[s] <= p1[s] + {8'd0, stride[s][1]};
            end else begin
              p0[s] <= p0[s] + {8'd0, stride[s][0]};
              p1[s] <= p0[s] + {8'd0, stride[s][0]};
              p2[s] <= p0[s] + {8'd0, stride[s][0]};
              cur[s] <= p0[s] + {8'd0, stride[s][0]};
            end
          end
          if (r3 != 32'd0) begin
            r3 <= r3 - 32'd1;
          end else begin
            r3 <= dm3;
            if (r2 != 32'd0) r2 <= r2 - 32'd1;
            else begin
              r2 <= dm2;
              if (r1 != 32'd0) r1 <= r1 - 32'd1;
              else r1 <= dm1;
            end
          end
        end
      end
      // The read queue: W2's new beats in, one read out.
      if (w2_done)
        for (int k = 0; k < 3; k++)
          if (k < {30'd0, w2_n}) begin
            rq_beat[rq_wp+2'(k)] <= w2_beat[nth_src[k]];
            rq_src[rq_wp+2'(k)] <= nth_src[k];
          end
      if (w2_done) rq_wp <= rq_wp + w2_n;
      if (rd_fire) rq_rp <= rq_rp + 2'd1;

      // ----------------------------------------------------- consumer
      // Staging and C0: a staged beat moves into the cached beat when its
      // record goes.
      for (int s = 0; s < 3; s++) begin
        if (take[s]) cache[s] <= stage[s];
        if (beat_pop && tag == 2'(s)) begin
          stage[s] <= beat_out;
          stage_v[s] <= 1'b1;
        end else if (take[s]) stage_v[s] <= 1'b0;
      end
      if (c_go) begin
        // C0 -> C1
        c1_v <= rec_pop;
        for (int s = 0; s < 3; s++) c1_off[s] <= rec_out[s*7+:6];
        // C1 -> C2
        c2_v <= c1_v;
        for (int s = 0; s < 3; s++) v_q[s] <= operand(cache[s], c1_off[s], sb[s]);
      end
      if (c2_v && is_div && div_done) begin
        alu_q <= div_q;
        c2_v <= c_go && c1_v;  // C2 takes C1's element if it moved on
      end else alu_q <= alu_y;

      // ------------------------------------------------------- output
      if (sq_push) buf_valid <= 1'b0;
      if (res_pop) begin
        // Into the buffer (a fresh one when the last went out).
        if (!buf_valid || sq_push) begin
          buf_strb <= '0;
          buf_beat <= out_addr[63:6];
        end
        buf_valid <= 1'b1;
        // Per byte lane: a decode of the output address, not a 512-bit
        // shifter. INT32 results are 4-byte aligned (the destination check),
        // so byte i of the beat takes byte i % 4 of the result.
        for (int i = 0; i < 64; i++)
          if (rbytes == 3'd4 ? 4'(i / 4) == out_addr[5:2] : 6'(i) == out_addr[5:0]) begin
            buf_data[i*8+:8] <= rbytes == 3'd4 ? res_y[(i%4)*8+:8] : res_y[7:0];
            buf_strb[i] <= 1'b1;
          end
        out_addr <= next_out;
        oleft <= oleft - 32'd1;
        if (oleft == 32'd1) state <= E_FLUSH;
      end
    end
  end

`ifndef SYNTHESIS
  // The credits keep every FIFO within its depth; R only answers what the
  // walker asked for.
  always_ff @(posedge clk)
    if (!rst && !abort && state != E_IDLE) begin
      assert (!(r_valid && r_ready) || beat_count < BEAT_DEPTH)
      else $error("nnfab_tensor_elem: a read beat with the beat FIFO full");
      assert (!(aq_v || fp_out) || res_count < RES_DEPTH)
      else $error("nnfab_tensor_elem: a result with the result FIFO full");
      assert (!beat_pop || (beat_v && tag_v)) else $error("nnfab_tensor_elem: beat FIFO popped empty");
      assert (!beat_v || tag_v) else $error("nnfab_tensor_elem: a beat without its tag");
      assert (tag_count <= BEAT_DEPTH) else $error("nnfab_tensor_elem: tag FIFO overrun");
      assert (rq_cnt <= 3'd4) else $error("nnfab_tensor_elem: read queue overrun");
      assert (credit <= READ_AHEAD[READ_AHEAD_LOG2:0]) else $error("nnfab_tensor_elem: read credit overrun");
      // The cycle model's elem_read_ahead is this engine's read-ahead.
      assert (READ_AHEAD == NNFAB_CYCLE_elem_read_ahead)
      else $error("nnfab_tensor_elem: READ_AHEAD differs from isa.json elem_read_ahead");
    end
`endif
endmodule
