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
//
// Wide mode (docs/rtl.md "Element engine", issue 15): when every source and
// the result are 4-byte elements whose innermost stride is 1 or 0 (a
// broadcast), and the function is an integer one but DIV, the walker steps
// in groups of up to LANES consecutive elements of one output row that lie
// in one beat of the result and of each source; C1/C2 pick the group's
// operands from the cached beats and LANES nnfab_alu instances compute them
// in one cycle; the group goes out as one result. A source of stride 1 reads
// bursts of up to BURST beats (never past its row's last beat nor a 4
// KB page): the beats its next groups use, so few reads cover many groups.
// Each source's beats wait in a small FIFO (BURST deep) between the
// shared beat FIFO and its cached beat, so a burst never blocks another
// source's beat. Everything else (byte elements, other strides, DIV,
// CVT, FLOAT32 comparisons) keeps the one-element path: groups of one
// element.
//
// FLOAT32 wide mode (docs/rtl.md "FLOAT32 wide mode"): the same walk for a
// FLOAT32 function of the FP pipe but DIV and CVT with a FLOAT32 result
// (ADD, SUB, MUL with their activation, MAX, MIN, ABS, NEG), with groups of
// up to FP_LANES elements (a group also ends where the output reaches a
// multiple of FP_LANES words: dout counts to that instead of the beat's end);
// lane i of the group goes into FP lane i (lane 0 the full nnfab_tensor_fp,
// the others without divider and converter). A group's size rides in a
// small FIFO beside the pipe, pushed at issue and popped when its results
// leave, so groups leave in order with their sizes whatever the latency.
`include "nnfab_isa.svh"

module nnfab_tensor_elem #(
    parameter int READ_AHEAD_LOG2 = 6,  // wide mode: beats asked for and not yet staged
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
    input  logic          sq_full,
    output logic [7:0]    rd_len
);
  localparam int READ_AHEAD = 1 << READ_AHEAD_LOG2;
  // The one-element path keeps this many single-beat reads in flight (the
  // cycle model's elem_read_ahead).
  localparam logic [READ_AHEAD_LOG2:0] NARROW_AHEAD = (READ_AHEAD_LOG2 + 1)'(NNFAB_CYCLE_elem_read_ahead);
  localparam int RESULTS = 1 << RESULTS_LOG2;
  // Beats per read of a stride-1 source at most (isa.json elem_burst; the
  // staging FIFOs hold 8, the lengths are 4 bits).
  localparam int BURST = NNFAB_CYCLE_elem_burst;
  localparam int STAGE_LOG2 = 4;  // each source's staging FIFO: two bursts
  localparam int LANES = 16;  // isa.json elem_lanes: a whole beat of 4-byte elements; the walk's thermometers are 16 bits
  localparam int FP_LANES = NNFAB_CYCLE_elem_fp_lanes;  // isa.json elem_fp_lanes: FLOAT32 wide mode's lanes (at most LANES)
  localparam int REC_W = 26;  // per source: new beat (1), byte offset (6); the group's size (5)
  localparam int RES_W = LANES * 32 + 5;  // the group's results, its size
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
  logic wide;  // this instruction runs in wide mode
  logic wide_in;  // ... decided at start
  logic [4:0] dspan;  // words of the output a group stays in: 16 (a beat), FP_LANES in FLOAT32 wide mode
  logic [2:0] st1;  // per source: innermost stride 1 (wide mode)
  logic [31:0] stride[3][4];
  logic [2:0] sb[3];
  logic [63:0] base[3];
  logic [1:0] nsrc_q;
  // fp and rbytes come from the tensor unit's function decode; registered
  // at start, so that the output address's update starts at a flip-flop
  // (u_tensor.fn_q -> out_addr was 16 cells in the whole core).
  logic fp_q, rb4;
  logic [2:0] rb;
  logic clear;  // empties the FIFOs: start of an instruction, abort
  assign clear = rst || abort || (state == E_IDLE && start);

  always_comb begin
    for (int k = 0; k < 4; k++) begin
      stride[0][k] = stride_a[(3-k)*32+:32];
      stride[1][k] = stride_b[(3-k)*32+:32];
      stride[2][k] = stride_c[(3-k)*32+:32];
    end
  end

  // Wide mode: 4-byte aligned 4-byte elements everywhere, innermost strides
  // 0 or 1, an integer function but DIV, or a FLOAT32 one but DIV and CVT
  // (a FLOAT32 result: comparisons give BOOL8, so rbytes excludes them).
  always_comb begin
    wide_in = fn != NNFAB_FN_DIV && (!fp || fn != NNFAB_FN_CVT) && rbytes == 3'd4 && dst[1:0] == 2'd0;
    if (nsrc > 2'd0) wide_in = wide_in && sbytes0 == 3'd4 && base0[1:0] == 2'd0 && stride[0][3][31:1] == 31'd0;
    if (nsrc > 2'd1) wide_in = wide_in && sbytes1 == 3'd4 && base1[1:0] == 2'd0 && stride[1][3][31:1] == 31'd0;
    if (nsrc > 2'd2) wide_in = wide_in && sbytes2 == 3'd4 && base2[1:0] == 2'd0 && stride[2][3][31:1] == 31'd0;
  end

  // Per source: innermost stride 1 in wide mode; the read order (stride-0
  // sources first, see nth_src).
  logic [2:0] st1_in;
  logic [1:0] ord_in[3];
  always_comb begin
    st1_in = wide_in ? {stride[2][3][0] && nsrc > 2'd2, stride[1][3][0] && nsrc > 2'd1, stride[0][3][0]} : 3'd0;
    case (st1_in)
      3'b001: begin ord_in[0] = 2'd1; ord_in[1] = 2'd2; ord_in[2] = 2'd0; end
      3'b010: begin ord_in[0] = 2'd0; ord_in[1] = 2'd2; ord_in[2] = 2'd1; end
      3'b011: begin ord_in[0] = 2'd2; ord_in[1] = 2'd0; ord_in[2] = 2'd1; end
      3'b101: begin ord_in[0] = 2'd1; ord_in[1] = 2'd0; ord_in[2] = 2'd2; end
      default: begin ord_in[0] = 2'd0; ord_in[1] = 2'd1; ord_in[2] = 2'd2; end
    endcase
  end

  // ================================================================ walker
  // W0: the index of the next element of each source, and what is left of
  // each output row: r = dim - 1 - i, so that "last of its row" is r == 0.
  logic [IW-1:0] cur[3], p0[3], p1[3], p2[3];  // index now, and at the start of each dimension's row
  logic [31:0] r1, r2, r3, dm1, dm2, dm3, wleft;
  logic dm3_small;  // dm3 < 16
  // r1 != 0 and r2 != 0, and the same of dm1 and dm2, kept as flip-flops:
  // the row select below starts at them instead of at a 32-bit zero test
  // (r1 -> zero test -> row -> ds was 17 cells in a whole-core run).
  logic r1_nz, r2_nz, dm1_nz, dm2_nz;
  // W1: the element addresses.
  logic w1_v;
  logic [63:0] addr[3], addr_q[3];
  // W2: per source, whether the element needs a new beat, its byte offset
  // and beat; how many new beats; the beat each source last read.
  logic w2_v;
  logic [2:0] w2_new;  // per source: the group's elements lie in a new beat
  logic [2:0] w2_rd;   // ... and that beat must be read (not one of a burst already asked for)
  logic [3:0] w2_len[3];  // the read's beats
  logic [1:0] w2_n;    // reads
  logic [4:0] w2_cnt, w1_cnt;  // the group's elements
  // Wide mode: the word of the current element of each source and of the
  // output in its beat, the group's size, and whether it ends its row.
  logic [3:0] ws[3], bw[3], ws_in[3];
  logic [4:0] dout, ds[3], ds_in[3];  // elements to the end of the output's, a stride-1 source's beat
  logic rlast;  // r3 < 16: the row ends within a group
  logic [4:0] gn;
  logic rowend;
  logic [3:0] span[3], w1_span[3];  // beats from the group's to its row's last (at most BURST)
  logic [3:0] w1_len[3];
  logic [2:0] w1_rd;
  logic [2:0] pend[3];  // beats of a burst asked for that later groups will take
  logic [IW-1:0] nxt[3];  // the index of the next group's first element
  logic [IW-1:0] row_next[3];  // ... when the group ends its row: the next row's first
  logic [5:0] w2_off[3];
  logic [57:0] w2_beat[3];
  logic [57:0] last_beat[3];
  logic last_ok[3];
  logic w_adv, w2_done, rd_fire, rec_push, rec_room, rq_room;
  logic [READ_AHEAD_LOG2:0] credit;  // beats asked for and not yet staged
  // The read queue: 4 entries, up to three written per cycle, one issued.
  logic [57:0] rq_beat[4];
  logic [1:0] rq_src[4];
  logic [3:0] rq_len[4];
  logic [1:0] rq_wp, rq_rp;
  logic [2:0] rq_cnt;
  logic [1:0] nth_src[3];  // the k-th source of W2 that needs a new beat

  // The beat check of W1's element.
  logic [2:0] w1_new;
  always_comb
    for (int s = 0; s < 3; s++) begin
      w1_new[s] = w1_v && s < {30'd0, nsrc_q} && (!last_ok[s] || last_beat[s] != addr_q[s][63:6]);
      // A burst never crosses a 4 KB page.
      w1_len[s] = !wide ? 4'd1 : addr_q[s][11:6] > 6'(64 - BURST) && 4'(7'd64 - {1'b0, addr_q[s][11:6]}) < w1_span[s] ?
          4'(7'd64 - {1'b0, addr_q[s][11:6]}) : w1_span[s];
      w1_rd[s] = w1_new[s] && pend[s] == 3'd0;
    end

  // W0, wide mode: the group runs to the first of: LANES elements, the end
  // of the output's beat, the end of a stride-1 source's beat, the row's end.
  // Each limit is kept as a distance in elements (dout, ds, and r3 with
  // rlast = r3 < 16), turned into a 16-bit thermometer (bit k: more than k
  // elements fit), and the group is their AND: one LUT level, then the
  // size's bits; every update below subtracts the size from 4- or 5-bit
  // values and takes the high parts by carry select, so the walk's loop
  // stays short.
  function automatic [15:0] thermo(input [4:0] x);  // x = 16: all ones
    for (int k = 0; k < 16; k++) thermo[k] = x > 5'(k);
  endfunction
  logic [15:0] tg;  // the group as a thermometer
  always_comb begin
    tg = thermo(dout) & thermo(ds[0]) & thermo(ds[1]) & thermo(ds[2]);
    for (int k = 0; k < 16; k++) if (rlast && 4'(k) > r3[3:0]) tg[k] = 1'b0;
    if (!wide) tg = 16'h0001;
    // The count of ones: bit b is set where the thermometer ends in one of
    // the ranges of counts that have it.
    gn[4] = tg[15];
    gn[3] = tg[7] & ~tg[15];
    gn[2] = (tg[3] & ~tg[7]) | (tg[11] & ~tg[15]);
    gn[1] = (tg[1] & ~tg[3]) | (tg[5] & ~tg[7]) | (tg[9] & ~tg[11]) | (tg[13] & ~tg[15]);
    gn[0] = 1'b0;
    for (int m = 0; m < 8; m++) gn[0] = gn[0] | (tg[2*m] & ~tg[2*m+1]);
    rowend = rlast && tg[r3[3:0]];
  end
  // r3 and wleft minus the group's size.
  logic [4:0] r3_lo, wl_lo, dout_lo;
  logic [31:0] r3_in, wleft_in;
  logic rlast_in, r3_hi0, r3_hi1;
  assign r3_lo = {1'b0, r3[3:0]} - gn;
  assign r3_in = {r3_lo[4] ? r3[31:4] - 28'd1 : r3[31:4], r3_lo[3:0]};
  assign r3_hi0 = r3[31:4] == 28'd0;
  assign r3_hi1 = r3[31:4] == 28'd1;
  assign rlast_in = r3_lo[4] ? r3_hi1 : r3_hi0;
  assign wl_lo = {1'b0, wleft[3:0]} - gn;
  assign wleft_in = {wl_lo[4] ? wleft[31:4] - 28'd1 : wleft[31:4], wl_lo[3:0]};
  assign dout_lo = dout - gn;
  // The walk's index adds by carry select: the low 20 bits add while both
  // candidates of the high 20 are formed, so no carry runs through all 40
  // bits (with the muxes behind it the walk's loop was 18 cells).
  function automatic [IW-1:0] add_cs(input [IW-1:0] a, input [31:0] b);
    logic [20:0] lo;
    logic [19:0] hi0, hi1;
    lo = {1'b0, a[19:0]} + {1'b0, b[19:0]};
    hi0 = a[IW-1:20] + {8'd0, b[31:20]};
    hi1 = a[IW-1:20] + {8'd0, b[31:20]} + 20'd1;
    add_cs = {lo[20] ? hi1 : hi0, lo[19:0]};
  endfunction
  function automatic [IW-5:0] inc36(input [IW-5:0] a);
    logic [16:0] lo;
    lo = {1'b0, a[15:0]} + 17'd1;
    inc36 = {lo[16] ? a[IW-5:16] + 20'd1 : a[IW-5:16], lo[15:0]};
  endfunction
  for (genvar g = 0; g < 3; g++) begin : g_walk
    logic [7:0] reach;  // only its beat part [7:4] matters
    /* verilator lint_off UNUSEDSIGNAL */
    logic [3:0] reach_word;
    /* verilator lint_on UNUSEDSIGNAL */
    assign reach_word = reach[3:0];
    logic [IW-5:0] cur_hi1;
    logic [3:0] cur_lo;
    logic [4:0] ds_lo;
    logic carry;
    logic [IW-1:0] step, row;
    logic [3:0] row_ws;
    // The beats from this group's to its row's last element's.
    assign reach = {4'd0, ws[g]} + (r3[31:7] != 25'd0 ? 8'd127 : {1'b0, r3[6:0]});
    assign span[g] = !st1[g] ? 4'd1 : reach[7:4] > 4'(BURST - 2) ? 4'(BURST) : reach[7:4] + 4'd1;
    // The next index: in the row (wide: + gn, by carry select on the
    // precomputed high half), or the start of the next row.
    // The carry out of cur[3:0] + gn is read off the thermometer (gn > 15 -
    // cur[3:0]) beside gn's bits instead of after their add, and ws moves
    // by gn like cur's low bits (ws = bw + cur[3:0] mod 16 for a stride-1
    // source): the walk's loop was 17 cells through gn, the add and the
    // carry select.
    assign carry = st1[g] && tg[4'd15 - cur[g][3:0]];
    assign cur_lo = cur[g][3:0] + (st1[g] ? gn[3:0] : 4'd0);
    assign cur_hi1 = inc36(cur[g][IW-1:4]);
    assign step = {carry ? cur_hi1 : cur[g][IW-1:4], cur_lo};
    assign row = r2_nz ? add_cs(p2[g], stride[g][2]) :
        r1_nz ? add_cs(p1[g], stride[g][1]) : add_cs(p0[g], stride[g][0]);
    assign nxt[g] = !rowend ? (wide ? step : add_cs(cur[g], stride[g][3])) : row;
    assign row_next[g] = row;
    // The word in its beat of the next group's first element, and the
    // distance to the beat's end (16 when the source is not stride-1).
    assign row_ws = bw[g] + row[3:0];
    assign ws_in[g] = rowend ? row_ws : ws[g] + (st1[g] ? gn[3:0] : 4'd0);
    assign ds_lo = ds[g] - gn;
    assign ds_in[g] = !st1[g] ? 5'd16 : rowend ? 5'd16 - {1'b0, row_ws} : ds_lo == 5'd0 ? 5'd16 : ds_lo;
  end

  logic [42:0] lo;
  always_comb begin
    for (int s = 0; s < 3; s++) begin
      // base + index * size: the low 42 bits add, the high 22 bits take the
      // carry from a precomputed increment (carry select).
      lo = {1'b0, base[s][41:0]} + {1'b0, {2'b00, cur[s]} << (sb[s] == 3'd4 ? 2 : 0)};
      addr[s] = {lo[42] ? base[s][63:42] + 22'd1 : base[s][63:42], lo[41:0]};
    end
  end

  // W2's new beats in the order `ord` (decided at start): the stride-0
  // sources first, then the stride-1 ones, each in source order (the
  // one-element path: sources 0, 1, 2). A stride-0 source's single beat
  // thus never waits at the beat FIFO's head behind a stride-1 source's
  // burst whose beats wait for room in their staging FIFO (with the order
  // the other way round, each new beat of a broadcast column cost the
  // consumer 2 cycles: the old model's zero_beats term).
  logic [1:0] ord[3];
  logic [1:0] ord_rd;  // w2_rd in that order (the first two)
  always_comb for (int k = 0; k < 2; k++) ord_rd[k] = w2_rd[ord[k]];
  assign nth_src[0] = ord_rd[0] ? ord[0] : ord_rd[1] ? ord[1] : ord[2];
  assign nth_src[1] = ord_rd[0] && ord_rd[1] ? ord[1] : ord[2];
  assign nth_src[2] = ord[2];
  assign rq_room = {1'b0, rq_cnt} + {2'd0, w2_n} <= 4'd4;
  // A read issues when its beats fit the credit: READ_AHEAD in wide mode,
  // elem_read_ahead single beats on the one-element path.
  logic [READ_AHEAD_LOG2+1:0] credit_after;
  assign credit_after = {1'b0, credit} + {{(READ_AHEAD_LOG2 - 2) {1'b0}}, rq_len[rq_rp]};
  assign rd_valid = state == E_RUN && rq_cnt != 3'd0 &&
      credit_after <= (wide ? {1'b0, READ_AHEAD[READ_AHEAD_LOG2:0]} : {1'b0, NARROW_AHEAD});
  assign rd_addr = {rq_beat[rq_rp], 6'd0};
  assign rd_len = {4'd0, rq_len[rq_rp] - 4'd1};
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
    rec_in[25:21] = w2_cnt;
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

  // The source and length of each read, in the same order as the beats;
  // tag_beat counts the head read's beats already popped.
  logic tag_v, tag_pop;
  logic [1:0] tag;
  logic [5:0] tag_out;
  logic [3:0] tag_len, tag_beat;
  logic [READ_AHEAD_LOG2+1:0] tag_count;
  assign tag = tag_out[5:4];
  assign tag_len = tag_out[3:0];
  assign tag_pop = beat_pop && tag_beat + 4'd1 == tag_len;
  nnfab_fifo #(
      .WIDTH(6),
      .DEPTH_LOG2(READ_AHEAD_LOG2)
  ) u_tags (
      .clk(clk),
      .clear(clear),
      .wr_en(rd_fire),
      .wr_data({rq_src[rq_rp], rq_len[rq_rp]}),
      .pop(tag_pop),
      .out_valid(tag_v),
      .out_data(tag_out),
      .count(tag_count)
  );

  // ============================================================= consumer
  // Staging: the head beat goes into its source's staging FIFO (a burst's
  // beats wait there, so a later source's beat behind them still arrives);
  // C0 moves a staging FIFO's head into the source's cached beat.
  logic [511:0] stage[3];
  logic [2:0] stage_v, take, room_s;
  logic [2:0] rec_new;
  logic rec_ready;
  logic [511:0] cache[3];
  logic c_go, room;
  logic [RESULTS_LOG2:0] reserved;  // groups from C1 to the result FIFO's output
  always_comb
    for (int s = 0; s < 3; s++) rec_new[s] = rec_out[s*7+6];
  // C0: the head record goes when each of its new beats is staged.
  assign rec_ready = (stage_v | ~rec_new) == 3'b111;
  assign rec_pop = c_go && rec_v && rec_ready;
  assign take = rec_pop ? rec_new : 3'd0;
  assign beat_pop = beat_v && tag_v && room_s[tag];
  assign room = reserved != RESULTS[RESULTS_LOG2:0];

  // 16 beats per source (two bursts): in FLOAT32 wide mode with two
  // stride-1 sources the consumer takes a beat of each every other cycle,
  // as fast as the read port brings them, but the beats come a burst of A,
  // then a burst of B; A's next burst arrives while up to a burst of A is
  // still waiting for B's, and with room for only one burst the beat FIFO's
  // head stalled behind it (sim 15 % above the model).
  for (genvar g = 0; g < 3; g++) begin : g_stage
    logic [STAGE_LOG2+1:0] cnt;
    assign room_s[g] = cnt < (STAGE_LOG2 + 2)'(1 << STAGE_LOG2);
    nnfab_fifo #(
        .WIDTH(512),
        .DEPTH_LOG2(STAGE_LOG2)
    ) u_stage (
        .clk(clk),
        .clear(clear),
        .wr_en(beat_pop && tag == 2'(g)),
        .wr_data(beat_out),
        .pop(take[g]),
        .out_valid(stage_v[g]),
        .out_data(stage[g]),
        .count(cnt)
    );
  end

  // C1: the element's byte offsets. The line is read through a copy padded
  // by one word: for a source whose address is not meaningful (an unused
  // source) the 32-bit select would otherwise reach past bit 511, which
  // hardware reads as don't-care but a C++ simulation reads out of bounds.
  logic c1_v;
  logic [5:0] c1_off[3];
  logic [4:0] c1_cnt, c2_cnt, aq_cnt;  // the group's elements
  // The select is a function called in the registered branch that takes
  // its result (C1 -> C2 on c_go): a Verilated model skips it while the
  // engine does not move (docs/sim.md "Evaluation gating").
  function automatic [31:0] operand(input [511:0] line, input [5:0] off, input [2:0] size);
    logic [543:0] line_pad;
    line_pad = {32'd0, line};
    if (size == 3'd4) operand = line_pad[{1'b0, off, 3'd0}+:32];
    else operand = {24'd0, line_pad[{1'b0, off, 3'd0}+:8]};
  endfunction
  // Wide mode: lane i's word of a group (4-byte elements, one beat).
  function automatic [31:0] lane_word(input [511:0] line, input [3:0] w);
    lane_word = line[{w, 5'd0}+:32];
  endfunction

  // C2: the operands (lane 0 on the one-element path).
  logic c2_v;
  logic [31:0] v_q[LANES][3];
  logic [31:0] alu_y[LANES], alu_q[LANES];
  logic [31:0] div_q;
  logic aq_v;  // alu_q holds a result for the result FIFO
  logic is_div, div_start, div_busy, div_done, div_wait;
  assign is_div = fn == NNFAB_FN_DIV && !fp_q;
  // INT32 DIV: the element waits in C2 for the iterative divider, and the
  // consumer with it.
  assign div_wait = c2_v && is_div && !div_done;
  assign div_start = c2_v && is_div && !div_busy;
  assign c_go = state == E_RUN && room && !div_wait;

  // One nnfab_alu per lane; lane 0 is the one-element path's.
  for (genvar g = 0; g < LANES; g++) begin : g_lane
    nnfab_alu u_alu (
        .fn(fn),
        .onehot(32'd0),
        .a(v_q[g][0]),
        .b(v_q[g][1]),
        .c(v_q[g][2]),
        .y(alu_y[g])
    );
  end

  nnfab_divider u_div (
      .clk(clk),
      .rst(rst || abort),
      .start(div_start),
      .a(v_q[0][0]),
      .b(v_q[0][1]),
      .busy(div_busy),
      .done(div_done),
      .q(div_q)
  );

  // FLOAT32: one group per cycle into the FP lanes (one element on the
  // one-element path, lane 0); results leave in issue order after the
  // function's fixed latency, the group's size beside them in u_fpn.
  logic fp_in, fp_out;
  logic [FP_LANES-1:0] fp_lv;
  logic [31:0] fp_y[FP_LANES];
  logic [4:0] fp_n;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [FP_LANES-1:0] fp_quiet;  // nothing in flight in the lane (nnfab_tensor's clock-gate check)
  /* verilator lint_on UNUSEDSIGNAL */
  assign fp_in = c_go && c2_v && fp_q;
  assign fp_out = fp_lv[0];
  for (genvar g = 0; g < FP_LANES; g++) begin : g_fp
    nnfab_tensor_fp #(
        .FULL(g == 0 ? 1 : 0)
    ) u_fp (
        .clk(clk),
        .rst(rst || abort),
        // The extra lanes only in FLOAT32 wide mode (never DIV or CVT).
        .in_valid(fp_in && (g == 0 || wide)),
        .fn(fn),
        .to_int(fp_to_int),
        .act(act),
        .a(v_q[g][0]),
        .b(v_q[g][1]),
        .out_valid(fp_lv[g]),
        .y(fp_y[g])
    );
    assign fp_quiet[g] = u_fp.quiet;
  end

  // The sizes of the groups in the FP lanes, in issue order (at most
  // RESULTS groups are between C1 and the result FIFO's output).
  /* verilator lint_off UNUSEDSIGNAL */
  logic fpn_v;
  logic [RESULTS_LOG2+1:0] fpn_count;
  /* verilator lint_on UNUSEDSIGNAL */
  nnfab_fifo #(
      .WIDTH(5),
      .DEPTH_LOG2(RESULTS_LOG2)
  ) u_fpn (
      .clk(clk),
      .clear(clear),
      .wr_en(fp_in),
      .wr_data(c2_cnt),
      .pop(fp_out),
      .out_valid(fpn_v),
      .out_data(fp_n),
      .count(fpn_count)
  );

  // =============================================================== output
  logic res_v, res_pop;
  logic [RES_W-1:0] res_in, res_out;
  logic [LANES*32-1:0] res_y;
  logic [4:0] res_n;
  logic [RESULTS_LOG2+1:0] res_count;
  always_comb begin
    res_in[RES_W-1:RES_W-5] = fp_q ? fp_n : aq_cnt;
    for (int i = 0; i < LANES; i++) res_in[i*32+:32] = alu_q[i];
    if (fp_q) for (int i = 0; i < FP_LANES; i++) res_in[i*32+:32] = fp_y[i];
  end
  assign res_y = res_out[LANES*32-1:0];
  assign res_n = res_out[RES_W-1:RES_W-5];

  nnfab_fifo #(
      .WIDTH(RES_W),
      .DEPTH_LOG2(RESULTS_LOG2)
  ) u_res (
      .clk(clk),
      .clear(clear),
      .wr_en(aq_v || fp_out),
      .wr_data(res_in),
      .pop(res_pop),
      .out_valid(res_v),
      .out_data(res_out),
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
  assign out_lo = {1'b0, out_addr[31:0]} + (rb4 ? {26'd0, res_n, 2'b00} : {30'd0, rb});
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
      credit <= credit + (rd_fire ? {{(READ_AHEAD_LOG2 - 3) {1'b0}}, rq_len[rq_rp]} : '0) -
          {{READ_AHEAD_LOG2{1'b0}}, beat_pop};
      if (tag_pop) tag_beat <= 4'd0;
      else if (beat_pop) tag_beat <= tag_beat + 4'd1;
      reserved <= reserved + {{RESULTS_LOG2{1'b0}}, rec_pop} - {{RESULTS_LOG2{1'b0}}, res_pop};
      rq_cnt <= rq_cnt + (w2_done ? {1'b0, w2_n} : 3'd0) - {2'd0, rd_fire};
      // C2 -> the ALU's register (INT32 but DIV) or the divider's result.
      aq_v <= (c_go && c2_v && !fp_q && !is_div) || (c2_v && is_div && div_done);
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
          wide <= wide_in;
          // FLOAT32 wide mode: a group also ends where the output reaches
          // a multiple of FP_LANES words, so it never has more than
          // FP_LANES elements; the limit rides on dout, and the group's
          // thermometer keeps its inputs (a lane mask ANDed into it made
          // the walk's loop 17 cells).
          dspan <= wide_in && fp ? 5'(FP_LANES) : 5'd16;
          st1 <= st1_in;
          for (int k = 0; k < 3; k++) ord[k] <= ord_in[k];
          bw[0] <= base0[5:2];
          bw[1] <= base1[5:2];
          bw[2] <= base2[5:2];
          ws[0] <= base0[5:2];
          ws[1] <= base1[5:2];
          ws[2] <= base2[5:2];
          // A source's beat limits the group only when it is stride-1.
          ds[0] <= wide_in && nsrc > 2'd0 && stride[0][3][0] ? 5'd16 - {1'b0, base0[5:2]} : 5'd16;
          ds[1] <= wide_in && nsrc > 2'd1 && stride[1][3][0] ? 5'd16 - {1'b0, base1[5:2]} : 5'd16;
          ds[2] <= wide_in && nsrc > 2'd2 && stride[2][3][0] ? 5'd16 - {1'b0, base2[5:2]} : 5'd16;
          dout <= wide_in && fp ? 5'(FP_LANES) - ({1'b0, dst[5:2]} & 5'(FP_LANES - 1)) : 5'd16 - {1'b0, dst[5:2]};
          rlast <= dim3 - 32'd1 < 32'd16;
          tag_beat <= 4'd0;
          for (int s = 0; s < 3; s++) begin
            pend[s] <= 3'd0;
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
          r1_nz <= dim1 != 32'd1;
          r2_nz <= dim2 != 32'd1;
          dm1_nz <= dim1 != 32'd1;
          dm2_nz <= dim2 != 32'd1;
          dm3 <= dim3 - 32'd1;
          dm3_small <= dim3 - 32'd1 < 32'd16;
          fp_q <= fp;
          rb <= rbytes;
          rb4 <= rbytes == 3'd4;
          wleft <= elements;
          oleft <= elements;
          out_addr <= dst;
          credit <= '0;
          reserved <= '0;
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
        w2_cnt <= w1_cnt;
        for (int s = 0; s < 3; s++) begin
          w2_new[s] <= w1_new[s];
          w2_rd[s] <= w1_rd[s];
          w2_len[s] <= w1_len[s];
          w2_off[s] <= addr_q[s][5:0];
          w2_beat[s] <= addr_q[s][63:6];
          if (w1_v) begin
            last_beat[s] <= addr_q[s][63:6];
            last_ok[s] <= 1'b1;
          end
          // A burst's further beats are taken by the next groups that need
          // a new beat of this source.
          if (w1_new[s]) pend[s] <= pend[s] == 3'd0 ? 3'(w1_len[s] - 4'd1) : pend[s] - 3'd1;
        end
        w2_n <= {1'b0, w1_rd[0]} + {1'b0, w1_rd[1]} + {1'b0, w1_rd[2]};
        // W0 -> W1: the addresses of the next group.
        w1_v <= wleft != 32'd0;
        w1_cnt <= gn;
        for (int s = 0; s < 3; s++) begin
          addr_q[s] <= addr[s];
          w1_span[s] <= span[s];
        end
        if (wleft != 32'd0) begin
          wleft <= wleft_in;
          dout <= dout_lo == 5'd0 ? dspan : dout_lo;
          // Next output index, row-major with dimension 3 fastest.
          for (int s = 0; s < 3; s++) begin
            cur[s] <= nxt[s];
            ws[s] <= ws_in[s];
            ds[s] <= ds_in[s];
            // At a row's end nxt is the next row's start, g_walk's `row`,
            // which does not depend on the group: taking it directly keeps
            // the group's size (tg, carry) off these registers' inputs
            // (ds -> tg -> nxt -> p0 was 17 cells with the FP lanes).
            if (rowend) begin
              if (r2_nz) begin
                p2[s] <= row_next[s];
              end else if (r1_nz) begin
                p1[s] <= row_next[s];
                p2[s] <= row_next[s];
              end else begin
                p0[s] <= row_next[s];
                p1[s] <= row_next[s];
                p2[s] <= row_next[s];
              end
            end
          end
          rlast <= rowend ? dm3_small : rlast_in;
          if (!rowend) begin
            r3 <= r3_in;
          end else begin
            r3 <= dm3;
            if (r2_nz) begin
              r2 <= r2 - 32'd1;
              r2_nz <= r2 != 32'd1;
            end else begin
              r2 <= dm2;
              r2_nz <= dm2_nz;
              if (r1_nz) begin
                r1 <= r1 - 32'd1;
                r1_nz <= r1 != 32'd1;
              end else begin
                r1 <= dm1;
                r1_nz <= dm1_nz;
              end
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
            rq_len[rq_wp+2'(k)] <= w2_len[nth_src[k]];
          end
      if (w2_done) rq_wp <= rq_wp + w2_n;
      if (rd_fire) rq_rp <= rq_rp + 2'd1;

      // ----------------------------------------------------- consumer
      // Staging and C0: a staged beat moves into the cached beat when its
      // record goes.
      for (int s = 0; s < 3; s++) if (take[s]) cache[s] <= stage[s];
      if (c_go) begin
        // C0 -> C1
        c1_v <= rec_pop;
        c1_cnt <= rec_out[25:21];
        for (int s = 0; s < 3; s++) c1_off[s] <= rec_out[s*7+:6];
        // C1 -> C2
        c2_v <= c1_v;
        c2_cnt <= c1_cnt;
        for (int s = 0; s < 3; s++) begin
          v_q[0][s] <= operand(cache[s], c1_off[s], sb[s]);
          for (int i = 1; i < LANES; i++)
            v_q[i][s] <= lane_word(cache[s], c1_off[s][5:2] + (st1[s] ? 4'(i) : 4'd0));
        end
      end
      aq_cnt <= c2_cnt;
      if (c2_v && is_div && div_done) begin
        alu_q[0] <= div_q;
        c2_v <= c_go && c1_v;  // C2 takes C1's element if it moved on
      end else for (int i = 0; i < LANES; i++) alu_q[i] <= alu_y[i];

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
        // Wide mode: word j of the beat takes lane j - the group's first
        // word when that is below the group's size.
        for (int i = 0; i < 64; i++)
          if (rb4 ? {1'b0, 4'(i / 4) - out_addr[5:2]} < res_n : 6'(i) == out_addr[5:0]) begin
            buf_data[i*8+:8] <= rb4 ? res_y[{4'(i / 4) - out_addr[5:2], 5'(8 * (i % 4))}+:8] :
                res_y[7:0];
            buf_strb[i] <= 1'b1;
          end
        out_addr <= next_out;
        oleft <= oleft - {27'd0, res_n};
        if (oleft == {27'd0, res_n}) state <= E_FLUSH;
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
      assert (!w2_v || w2_n == {1'b0, w2_rd[0]} + {1'b0, w2_rd[1]} + {1'b0, w2_rd[2]})
      else $error("nnfab_tensor_elem: read count differs from the reads");
      assert (rq_cnt <= 3'd4) else $error("nnfab_tensor_elem: read queue overrun");
      assert (credit <= READ_AHEAD[READ_AHEAD_LOG2:0]) else $error("nnfab_tensor_elem: read credit overrun");
      // The cycle model's wide-mode figures are this engine's.
      assert (LANES == NNFAB_CYCLE_elem_lanes && BURST >= 2 && BURST <= 8 && READ_AHEAD >= 8 * BURST)
      else $error("nnfab_tensor_elem: LANES or the burst differ from isa.json elem_lanes, elem_burst");
      assert (FP_LANES == 1 || FP_LANES == 2 || FP_LANES == 4 || FP_LANES == 8 || FP_LANES == 16)
      else $error("nnfab_tensor_elem: elem_fp_lanes must divide a beat's 16 words");
      assert (!fp_out || fpn_v) else $error("nnfab_tensor_elem: FP results without their group's size");
      assert (fp_lv == '0 || fp_lv == '1 || !wide) else $error("nnfab_tensor_elem: FP lanes out of step");
    end
`endif
endmodule
