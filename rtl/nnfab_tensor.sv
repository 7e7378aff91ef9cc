// The tensor unit's control (docs/isa.md TENSOR): descriptor check and fetch,
// the region checks in the ISA's order (descriptor, destination, A, B, C;
// FAULT_INFO the first failing offset) before anything is written, then one
// of two engines:
//  - nnfab_tensor_vec: every source contiguous and of the result's element
//    size, not DIV: 64-byte beats, bursts, one output beat per cycle;
//  - nnfab_tensor_elem: everything else (broadcast and other strides, mixed
//    element sizes, DIV, FLOAT32 but MOV): one element at a time through the
//    scalar ALU, the divider or the FP pipe (nnfab_tensor_fp).
// The checks run on one shared, pipelined multiplier (nnfab_check_mul, 3
// cycles per product, one product per cycle) over a few dozen cycles: they
// are per-instruction work, not per element.
// Ports (docs/rtl.md "Data ports"): everything but the vector engine's B
// reads and result bursts goes through the data port (m_axi_data); the
// vector engine reads B through port B (m_axi_srcb) and writes its result
// bursts through the write port (m_axi_dst). writes_idle covers both write
// ports, so the descriptor read waits for every earlier write either way.
`include "nnfab_isa.svh"

module nnfab_tensor (
    input  logic         clk,
    input  logic         rst,
    input  logic         start,
    input  logic [4:0]   fn,
    input  logic [1:0]   ty,
    input  logic [4:0]   rc,      // the RC field: FLOAT32 ADD/SUB/MUL/DIV's fused activation
    input  logic [31:0]  dst,
    input  logic [31:0]  src_a,
    input  logic [31:0]  src_b,
    input  logic [31:0]  src_c,
    input  logic [31:0]  desc,
    input  logic [63:0]  data_addr,
    input  logic [31:0]  data_size,
    // The data region's windows (docs/isa.md "Memory model"), from the
    // sequencer's registers, fixed while the program runs: where B and D
    // begin (bits 5:0 zero), where A and B end (D ends at DATA_SIZE), the
    // bias WINDOW_ADDR - WINDOW_START of B and D (A's is DATA_ADDR).
    input  logic [31:0]  srcb_start,
    input  logic [31:0]  dst_start,
    input  logic [31:0]  a_end,
    input  logic [31:0]  b_end,
    input  logic [63:0]  bias_b,
    input  logic [63:0]  bias_d,
    input  logic         abort,
    input  logic         writes_idle,
    output logic         busy,
    output logic         done,
    output logic         fault,
    output logic         illegal,  // with fault: ILLEGAL_INSTRUCTION (an FC descriptor's strides or activation)
    output logic [31:0]  fault_info,
    // data port
    output logic         rd_valid,
    output logic [63:0]  rd_addr,
    output logic [7:0]   rd_len,
    input  logic         rd_ready,
    input  logic         r_valid,
    input  logic         r_last,
    input  logic [511:0] r_data,
    output logic         r_ready,
    output logic         sq_push,
    output logic [63:0]  sq_addr,
    output logic [511:0] sq_data,
    output logic [63:0]  sq_strb,
    input  logic         sq_full,
    // port B (m_axi_srcb): the vector engine's B operand
    output logic         b_rd_valid,
    output logic [63:0]  b_rd_addr,
    output logic [7:0]   b_rd_len,
    input  logic         b_rd_ready,
    input  logic         b_r_valid,
    input  logic         b_r_last,
    input  logic [511:0] b_r_data,
    output logic         b_r_ready,
    // the write port (m_axi_dst): the vector engine's result bursts
    output logic         bw_aw_valid,
    output logic [63:0]  bw_aw_addr,
    output logic [7:0]   bw_aw_len,
    input  logic         bw_aw_ready,
    output logic         bw_w_valid,
    output logic [511:0] bw_w_data,
    output logic [63:0]  bw_w_strb,
    output logic         bw_w_last,
    input  logic         bw_w_ready
);
  typedef enum logic [4:0] {
    T_IDLE,
    T_DESC_CHECK,
    T_DESC_READ,
    T_DESC_WAIT,
    T_SUFFIX,
    T_DST,
    T_TERM,
    T_SRC,
    T_DECIDE,
    T_RUN,
    T_FAULT,
    T_DONE,
    T_ABORT,
    T_FC_MUL,
    T_FC_CHK,
    T_FC_RUN,
    T_ILLEGAL
  } tstate_t;

  tstate_t state;

  // The unit's own control (the state machine below, the descriptor, the
  // checks and their multiplier) on t_clk: clk for synthesis; in
  // simulation it stands still in T_IDLE (nnfab_sim_clock_gate, docs/sim.md
  // "Gated clocks"), so that a Verilated model skips the control's
  // registers and the logic computed from them (descriptor fields,
  // absolute addresses, region checks) between tensor instructions.
  // Enabled at start, in reset, outside T_IDLE and four edges past it (the
  // check multiplier's pipeline registers copy its operands, which are
  // constant in T_IDLE, in three). The assertion at the end of the module
  // checks the edges its enable misses. In the harness's model t_clk is the
  // clock the control shares with the data ports (GROUP 1, nnfab_core.sv
  // "Shared gated clocks").
  logic t_clk;
  nnfab_sim_clock_gate #(
      .DRAIN(8'd4),
      .GROUP(1)
  ) u_tgate (
      .clk (clk),
      .wake(start),
      .busy(rst || state != T_IDLE),
      .gclk(t_clk)
  );

  logic [4:0] fn_q;
  logic [1:0] ty_q, act_q;
  logic [31:0] dst_q, desc_q, size_q;
  logic [31:0] base[3];
  logic [63:0] data_addr_q;
  logic [511:0] desc_beat;
  logic [31:0] dim[4];
  logic [31:0] stride[3][4];
  logic [1:0] nsrc;
  logic [2:0] sbytes[3];
  logic [2:0] rbytes;

  always_comb begin
    for (int k = 0; k < 4; k++) begin
      dim[k] = desc_beat[(NNFAB_DESC_DIM+k)*32+:32];
      stride[0][k] = desc_beat[(NNFAB_DESC_STRIDE_A+k)*32+:32];
      stride[1][k] = desc_beat[(NNFAB_DESC_STRIDE_B+k)*32+:32];
      stride[2][k] = desc_beat[(NNFAB_DESC_STRIDE_C+k)*32+:32];
    end
  end

  function automatic [2:0] type_bytes(input [1:0] t);
    type_bytes = t == NNFAB_TYPE_BOOL8 ? 3'(NNFAB_TYPE_BYTES_BOOL8) : 3'(NNFAB_TYPE_BYTES_INT32);
  endfunction

  assign nsrc = NNFAB_FNS_THREE_OPERANDS[fn_q] ? 2'd3 : NNFAB_FNS_TWO_OPERANDS[fn_q] ? 2'd2 : 2'd1;
  assign rbytes = NNFAB_FNS_RESULT_BOOL[fn_q] ? 3'(NNFAB_TYPE_BYTES_BOOL8) : type_bytes(ty_q);
  // SEL's A is a BOOL8 mask whatever TYPE is.
  assign sbytes[0] = fn_q == NNFAB_FN_SEL ? 3'(NNFAB_TYPE_BYTES_BOOL8) : type_bytes(ty_q);
  assign sbytes[1] = type_bytes(ty_q);
  assign sbytes[2] = type_bytes(ty_q);

  // Element sizes are powers of two (1 or 4 bytes): alignment is a bit mask
  // and a byte count a shift, never a divider or a multiplier.
  function automatic misaligned(input [2:0] off, input [2:0] bytes);
    misaligned = (off & (bytes - 3'd1)) != 3'd0;
  endfunction
  // Windows (docs/isa.md "Memory model"; docs/rtl.md "Data region
  // windows"): each operand lies in the window of its offset, D if
  // off >= DST_START, else B if off >= SRCB_START, else A, and must end
  // within that window. The offsets are known at start, so the choice is
  // made while the descriptor is read, a register stage per state:
  // T_DESC_CHECK registers the two compares per operand (win_d, win_b),
  // T_DESC_READ the window's end and bias (w_end, w_bias), T_DESC_WAIT the
  // region limits below. Each of those states lasts at least one cycle and
  // the limits are first read in T_DST or T_FC_CHK, so no cycle is added.
  // Operand 0 is the destination, 1..3 the sources A, B, C.
  logic win_d[4], win_b[4];
  logic unused_ok;  // the window starts' bits 5:0 are zero
  assign unused_ok = &{1'b0, srcb_start[5:0], dst_start[5:0]};
  logic [31:0] w_end[4];
  logic [63:0] w_bias[4];
  logic [31:0] opnd[4];
  assign opnd[0] = dst_q;
  assign opnd[1] = base[0];
  assign opnd[2] = base[1];
  assign opnd[3] = base[2];

  // n elements of `bytes` from off fit [off, end) of the operand's window,
  // without wrap-around, when off <= end && n * bytes <= end - off, i.e.
  // n <= (end - off) / bytes (a shift). T_DESC_WAIT registers, for the
  // destination and each source, whether off > end (neg) and
  // (end - off) / bytes (lim), so that a check is one compare, not a
  // subtract, a shift and a compare.
  logic [32:0] dst_avail, src_avail[3];
  logic dst_neg, src_neg[3];
  logic [31:0] dst_lim, src_lim[3];
  function automatic [31:0] in_elements(input [31:0] avail, input [2:0] bytes);
    in_elements = bytes == 3'd4 ? {2'b00, avail[31:2]} : bytes == 3'd2 ? {1'b0, avail[31:1]} : avail[31:0];
  endfunction
  assign dst_avail = {1'b0, w_end[0]} - {1'b0, dst_q};
  always_comb
    for (int i = 0; i < 3; i++) src_avail[i] = {1'b0, w_end[i+1]} - {1'b0, base[i]};

  // ---------------------------------------------------- check sequence
  // T_SUFFIX: suffix[k-1] = suffix[k] * dim[k] for k = 3..1; T_DST:
  // elements = suffix[0] * dim[0] and the destination check; per source,
  // T_TERM k = 0..3: the span term (dim[k] - 1) * stride[k], then T_SRC: its
  // check. A term or product above DATA_SIZE fails its region anyway (the
  // HLS core's dataSize / span test), so products saturate at 32 bits with
  // an overflow flag (nnfab_check_mul) and the span `last` (1 + four terms
  // of at most DATA_SIZE) fits 35 bits. suffix[2] is dim[3] itself. A
  // suffix or DST step issues its product (m_pend set) and acts when it
  // comes back (m_valid); a source's four terms are independent, so T_TERM
  // issues them on consecutive cycles (ki) and sums them as they come (k).
  logic [1:0] k, s;
  logic [2:0] ki;
  logic [31:0] dim_m1[4];   // dim[k] - 1, registered in T_SUFFIX
  logic [31:0] suffix[4];   // suffix[k] = dim[k+1] * ... * dim[3] (when !big)
  logic [31:0] elements;
  logic [34:0] last;        // 1 + the span terms so far: the source's elements
  logic big, src_big;
  logic contiguous[3];
  logic [31:0] mul_a, mul_b, mul_y;
  logic m_start, m_pend, m_valid, m_over, m_flush;

  always_comb begin
    case (state)
      T_SUFFIX: begin
        mul_a = suffix[k];
        mul_b = dim[k];
      end
      T_DST: begin
        mul_a = suffix[0];
        mul_b = dim[0];
      end
      // FC: batch * units, batch * input_size, units * input_size
      T_FC_MUL: begin
        mul_a = ki == 3'd2 ? dim[1] : dim[0];
        mul_b = ki == 3'd0 ? dim[1] : dim[2];
      end
      default: begin
        mul_a = dim_m1[ki[1:0]];
        mul_b = stride[s][ki[1:0]];
      end
    endcase
  end

  logic any_zero, dst_ok, src_ok;
  assign any_zero = dim[0] == 32'd0 || dim[1] == 32'd0 || dim[2] == 32'd0 || dim[3] == 32'd0;
  // The multiplier's start without the abort term: a function of the
  // control's registers alone, so a Verilated model computes it only when
  // the control's clock ticks; `abort` follows the sequencer's state at
  // every edge. public_flat_rd keeps Verilator from folding it back into
  // m_start (the data ports' `held`, nnfab_data_port.sv).
  logic m_next  /*verilator public_flat_rd*/;
  assign m_next = (!m_pend && (state == T_DST || (state == T_SUFFIX && !any_zero && k != 2'd3))) ||
      (state == T_TERM && ki != 3'd4) || (state == T_FC_MUL && ki < 3'd3);
  assign m_start = !abort && m_next;
  assign m_flush = abort || state == T_IDLE;

  nnfab_check_mul u_mul (
      .clk(t_clk),
      .rst(rst),
      .flush(m_flush),
      .start(m_start),
      .a(mul_a),
      .b(mul_b),
      .valid(m_valid),
      .y(mul_y),
      .over(m_over)
  );

  // The product fits the destination (hence is <= DATA_SIZE).
  assign dst_ok = !big && !m_over && !misaligned(dst_q[2:0], rbytes) && !dst_neg && mul_y <= dst_lim;
  assign src_ok = !src_big && !misaligned(base[s][2:0], sbytes[s]) && !src_neg[s] && last <= {3'd0, src_lim[s]};

  // ---------------------------------------------------------- engines
  logic e_start, e_busy, e_done, v_start, v_busy, v_done;
  logic [31:0] total_bytes;
  assign total_bytes = rbytes == 3'd4 ? {elements[29:0], 2'b00} : rbytes == 3'd2 ? {elements[30:0], 1'b0} : elements[31:0];
  logic [63:0] abs_base[3], abs_dst;
  // bias + offset (bias = DATA_ADDR for window A, WINDOW_ADDR -
  // WINDOW_START for B and D): the low word adds, the high word takes the
  // carry from a parallel increment (carry select; a 64-bit chain is too
  // long).
  function automatic [63:0] absolute(input [63:0] region, input [31:0] off);
    logic [32:0] lo;
    lo = {1'b0, region[31:0]} + {1'b0, off};
    absolute = {lo[32] ? region[63:32] + 32'd1 : region[63:32], lo[31:0]};
  endfunction
  assign abs_dst = absolute(w_bias[0], dst_q);
  assign abs_base[0] = absolute(w_bias[1], base[0]);
  assign abs_base[1] = absolute(w_bias[2], base[1]);
  assign abs_base[2] = absolute(w_bias[3], base[2]);

  // FLOAT32 elements go through the FP pipe of the element engine, except
  // SEL and MOV, which copy bits (the integer ALU does); CVT either way.
  logic fp;
  assign fp = fn_q == NNFAB_FN_CVT || (ty_q == NNFAB_TYPE_FLOAT32 && fn_q != NNFAB_FN_SEL && fn_q != NNFAB_FN_MOV);

  // FC: the descriptor's legality, the no-op case, the three region products.
  // fc_bad and fc_zero are registered with the descriptor beat, from the
  // beat as it arrives, so that T_FC_MUL's first decision starts at a
  // flip-flop (the compare and the 12-word zero test in front of the state
  // update were 17 cells in the whole core).
  logic fc_bad, fc_zero, fc_bad_in, fc_zero_in;
  logic [31:0] fc_p[3];
  logic fc_over[3];
`ifdef SYNTHESIS
  always_comb begin
    fc_bad_in = r_data[(NNFAB_DESC_DIM+3)*32+:32] > 32'd3;
    for (int i = 0; i < 4; i++)
      fc_bad_in = fc_bad_in || r_data[(NNFAB_DESC_STRIDE_A+i)*32+:32] != 32'd0 ||
          r_data[(NNFAB_DESC_STRIDE_B+i)*32+:32] != 32'd0 || r_data[(NNFAB_DESC_STRIDE_C+i)*32+:32] != 32'd0;
  end
  assign fc_zero_in = r_data[NNFAB_DESC_DIM*32+:32] == 32'd0 || r_data[(NNFAB_DESC_DIM+1)*32+:32] == 32'd0 ||
      r_data[(NNFAB_DESC_DIM+2)*32+:32] == 32'd0;
`else
  // Simulation: the same tests, computed only in T_DESC_WAIT, the one
  // state that reads them (r_data is a top-level input, so they ran at
  // every evaluation; docs/sim.md "Speed"); they keep their last values
  // elsewhere.
  /* verilator lint_off LATCH */
  always_comb
    if (state == T_DESC_WAIT) begin
      fc_bad_in = r_data[(NNFAB_DESC_DIM+3)*32+:32] > 32'd3;
      for (int i = 0; i < 4; i++)
        fc_bad_in = fc_bad_in || r_data[(NNFAB_DESC_STRIDE_A+i)*32+:32] != 32'd0 ||
            r_data[(NNFAB_DESC_STRIDE_B+i)*32+:32] != 32'd0 || r_data[(NNFAB_DESC_STRIDE_C+i)*32+:32] != 32'd0;
      fc_zero_in = r_data[NNFAB_DESC_DIM*32+:32] == 32'd0 || r_data[(NNFAB_DESC_DIM+1)*32+:32] == 32'd0 ||
          r_data[(NNFAB_DESC_DIM+2)*32+:32] == 32'd0;
    end
  /* verilator lint_on LATCH */
`endif

  logic e_rd_valid, v_rd_valid, e_r_ready, v_r_ready, f_rd_valid, f_r_ready;
  logic [63:0] f_rd_addr;
  logic [7:0] f_rd_len;
  logic f_start, f_busy, f_done, e_sq_push, f_sq_push;
  logic [63:0] e_sq_addr, f_sq_addr, e_sq_strb, f_sq_strb;
  logic [511:0] e_sq_data, f_sq_data;
  assign f_start = state == T_FC_CHK && !fc_over[0] && !fc_over[1] && !fc_over[2] && !misaligned(dst_q[2:0], 3'd4) &&
      !dst_neg && fc_p[0] <= dst_lim && !misaligned(base[0][2:0], 3'd4) && !src_neg[0] && fc_p[1] <= src_lim[0] &&
      !misaligned(base[1][2:0], 3'd4) && !src_neg[1] && fc_p[2] <= src_lim[1] && !misaligned(base[2][2:0], 3'd4) &&
      !src_neg[2] && dim[1] <= src_lim[2];

  nnfab_tensor_fc u_fc (
      .clk(clk),
      .rst(rst),
      .start(f_start),
      .abort(abort),
      .act(dim[3][1:0]),
      .batch(dim[0]),
      .units(dim[1]),
      .insz(dim[2]),
      .x_base(abs_base[0]),
      .w_base(abs_base[1]),
      .b_base(abs_base[2]),
      .dst(abs_dst),
      .busy(f_busy),
      .done(f_done),
      .rd_valid(f_rd_valid),
      .rd_addr(f_rd_addr),
      .rd_len(f_rd_len),
      .rd_ready(rd_ready),
      .r_valid(r_valid),
      .r_last(r_last),
      .r_data(r_data),
      .r_ready(f_r_ready),
      .sq_push(f_sq_push),
      .sq_addr(f_sq_addr),
      .sq_data(f_sq_data),
      .sq_strb(f_sq_strb),
      .sq_full(sq_full)
  );
  // The element engine and the FC engine never run at the same time.
  assign sq_push = e_sq_push || f_sq_push;
  assign sq_addr = f_sq_push ? f_sq_addr : e_sq_addr;
  assign sq_data = f_sq_push ? f_sq_data : e_sq_data;
  assign sq_strb = f_sq_push ? f_sq_strb : e_sq_strb;
  logic [63:0] e_rd_addr, v_rd_addr;
  logic [7:0] v_rd_len, e_rd_len;
  logic d_rd_valid, d_r_ready;

  // The element engine on a clock of its own, e_clk: clk for synthesis; in
  // simulation it stands still while the engine is quiescent
  // (nnfab_sim_clock_gate, docs/sim.md "Gated clocks"), so that a Verilated
  // model skips the engine, its FP pipe, divider, FIFOs and sixteen ALU
  // lanes while no element instruction runs. Enabled at start, while busy,
  // in reset and abort, three edges past the last busy cycle (its FP pipe
  // and divider are empty when it goes idle: its last result has left; the
  // registered copies catch up within two edges), at the edge that loads a
  // new function code (e_fn below), and in T_DESC_CHECK, the cycle after
  // (the ALU lanes' result register copies the lanes every cycle, whatever
  // fn is). The assertion at the end of
  // the module checks at every edge e_clk misses that none of the engine's
  // registers would have changed at it.
  logic e_clk;
  nnfab_sim_clock_gate #(
      .DRAIN(8'd3)
  ) u_egate (
      .clk (clk),
      .wake(e_start || state == T_DESC_CHECK || e_fn_load),
      .busy(rst || abort || e_busy),
      .gclk(e_clk)
  );

  // The engine's function code (its ALU lanes, divider and FP units decode
  // it). In simulation it is a copy of fn_q on e_clk, loaded at the same
  // edge and with the same condition as fn_q (e_clk ticks at that edge:
  // e_fn_load is in its wake), so the two are equal at every edge (asserted
  // below). A Verilated model evaluates logic when a clock it depends on
  // ticks: reading fn_q, the sixteen lanes would be computed again at every
  // tick of t_clk, which scalar loads and stores give it (nnfab_core.sv
  // "Shared gated clocks"); reading e_fn, only when the engine ticks.
  logic e_fn_load;
  logic [4:0] e_fn;
  assign e_fn_load = !rst && state == T_IDLE && start;
`ifdef SYNTHESIS
  assign e_fn = fn_q;
`else
  always_ff @(posedge e_clk) if (e_fn_load) e_fn <= fn;
`endif

  nnfab_tensor_elem u_elem (
      .clk(e_clk),
      .rst(rst),
      .start(e_start),
      .abort(abort),
      .fn(e_fn),
      .fp(fp),
      .fp_to_int(ty_q == NNFAB_TYPE_FLOAT32),
      .act(act_q),
      .nsrc(nsrc),
      .sbytes0(sbytes[0]),
      .sbytes1(sbytes[1]),
      .sbytes2(sbytes[2]),
      .rbytes(rbytes),
      .base0(abs_base[0]),
      .base1(abs_base[1]),
      .base2(abs_base[2]),
      .dst(abs_dst),
      .dim1(dim[1]),
      .dim2(dim[2]),
      .dim3(dim[3]),
      .stride_a({stride[0][0], stride[0][1], stride[0][2], stride[0][3]}),
      .stride_b({stride[1][0], stride[1][1], stride[1][2], stride[1][3]}),
      .stride_c({stride[2][0], stride[2][1], stride[2][2], stride[2][3]}),
      .elements(elements[31:0]),
      .busy(e_busy),
      .done(e_done),
      .rd_valid(e_rd_valid),
      .rd_addr(e_rd_addr),
      .rd_ready(rd_ready),
      .r_valid(r_valid),
      .r_data(r_data),
      .r_ready(e_r_ready),
      .sq_push(e_sq_push),
      .sq_addr(e_sq_addr),
      .sq_data(e_sq_data),
      .sq_strb(e_sq_strb),
      .sq_full(sq_full),
      .rd_len(e_rd_len)
  );

  nnfab_tensor_vec u_vec (
      .clk(clk),
      .rst(rst),
      .start(v_start),
      .abort(abort),
      .fn(fn_q),
      .nsrc(nsrc),
      .byte_lanes(rbytes == 3'(NNFAB_TYPE_BYTES_BOOL8)),
      .src0(abs_base[0]),
      .src1(abs_base[1]),
      .src2(abs_base[2]),
      .dst(abs_dst),
      .total_bytes(total_bytes),
      .busy(v_busy),
      .done(v_done),
      .rd_valid(v_rd_valid),
      .rd_addr(v_rd_addr),
      .rd_len(v_rd_len),
      .rd_ready(rd_ready),
      .r_valid(r_valid),
      .r_last(r_last),
      .r_data(r_data),
      .r_ready(v_r_ready),
      .b_rd_valid(b_rd_valid),
      .b_rd_addr(b_rd_addr),
      .b_rd_len(b_rd_len),
      .b_rd_ready(b_rd_ready),
      .b_r_valid(b_r_valid),
      .b_r_last(b_r_last),
      .b_r_data(b_r_data),
      .b_r_ready(b_r_ready),
      .aw_valid(bw_aw_valid),
      .aw_addr(bw_aw_addr),
      .aw_len(bw_aw_len),
      .aw_ready(bw_aw_ready),
      .w_valid(bw_w_valid),
      .w_data(bw_w_data),
      .w_strb(bw_w_strb),
      .w_last(bw_w_last),
      .w_ready(bw_w_ready)
  );

  assign d_rd_valid = state == T_DESC_READ && writes_idle;
  assign d_r_ready = state == T_DESC_WAIT;
  assign rd_valid = d_rd_valid || e_rd_valid || v_rd_valid || f_rd_valid;
  assign rd_addr = d_rd_valid ? absolute(data_addr_q, desc_q) : e_rd_valid ? e_rd_addr : f_rd_valid ? f_rd_addr : v_rd_addr;
  assign rd_len = v_rd_valid ? v_rd_len : f_rd_valid ? f_rd_len : e_rd_valid ? e_rd_len : 8'd0;
  assign r_ready = d_r_ready || e_r_ready || v_r_ready || f_r_ready;
  assign busy = state != T_IDLE;
  assign done = state == T_DONE || state == T_FAULT || state == T_ILLEGAL;
  assign fault = state == T_FAULT || state == T_ILLEGAL;
  assign illegal = state == T_ILLEGAL;

  // The vector engine needs every source contiguous (row-major over DIM,
  // dimensions of extent 1 excepted) and of the result's element size.
  logic vec_ok;
  always_comb begin
    vec_ok = fn_q != NNFAB_FN_DIV && !fp;
    for (int i = 0; i < 3; i++)
      if (i < {30'd0, nsrc}) vec_ok = vec_ok && contiguous[i] && sbytes[i] == rbytes;
  end
  assign e_start = state == T_DECIDE && !vec_ok;
  assign v_start = state == T_DECIDE && vec_ok;

  always_ff @(posedge t_clk) begin
    if (rst) begin
      state <= T_IDLE;
      fault_info <= '0;
    end else if (abort && state != T_IDLE) begin
      state <= T_ABORT;
      if (!e_busy && !v_busy && !f_busy) state <= T_IDLE;
    end else begin
      case (state)
        T_IDLE:
        if (start) begin
          fn_q <= fn;
          ty_q <= ty;
          act_q <= ty == NNFAB_TYPE_FLOAT32 && NNFAB_FNS_FLOAT_ACTIVATION[fn] ? rc[1:0] : 2'd0;
          dst_q <= dst;
          base[0] <= src_a;
          base[1] <= src_b;
          base[2] <= src_c;
          desc_q <= desc;
          size_q <= data_size;
          data_addr_q <= data_addr;
          m_pend <= 1'b0;
          state <= T_DESC_CHECK;
        end
        // The descriptor is one aligned 64-byte beat in window A:
        // desc + 64 <= A_END is desc / 64 < A_END / 64.
        T_DESC_CHECK: begin
          for (int i = 0; i < 4; i++) begin
            win_d[i] <= opnd[i][31:6] >= dst_start[31:6];
            win_b[i] <= opnd[i][31:6] >= srcb_start[31:6];
          end
          if (desc_q[5:0] != 6'd0 || desc_q[31:6] >= a_end[31:6]) begin
            fault_info <= desc_q;
            state <= T_FAULT;
          end else begin
            state <= T_DESC_READ;
          end
        end
        // Reads wait until every earlier write is answered (AXI does not
        // order the two channels).
        T_DESC_READ: begin
          for (int i = 0; i < 4; i++) begin
            w_end[i] <= win_d[i] ? size_q : win_b[i] ? b_end : a_end;
            w_bias[i] <= win_d[i] ? bias_d : win_b[i] ? bias_b : data_addr_q;
          end
          if (d_rd_valid && rd_ready) state <= T_DESC_WAIT;
        end
        T_DESC_WAIT: begin
          dst_neg <= dst_avail[32];
          dst_lim <= in_elements(dst_avail[31:0], rbytes);
          for (int i = 0; i < 3; i++) begin
            src_neg[i] <= src_avail[i][32];
            src_lim[i] <= in_elements(src_avail[i][31:0], sbytes[i]);
          end
          if (r_valid) begin
            desc_beat <= r_data;
            fc_bad <= fc_bad_in;
            fc_zero <= fc_zero_in;
            suffix[3] <= 32'd1;
            k <= fn_q == NNFAB_FN_FC ? 2'd0 : 2'd3;
            ki <= 3'd0;
            big <= 1'b0;
            state <= fn_q == NNFAB_FN_FC ? T_FC_MUL : T_SUFFIX;
          end
        end
        // FC (docs/isa.md): strides 0 and an activation code 0..3, else
        // ILLEGAL_INSTRUCTION; a zero batch, units or input_size is a no-op;
        // then the regions in order: destination [batch, units], A [batch,
        // input_size], B [units, input_size], C [units], FLOAT32 each. The
        // three products issue on consecutive cycles and come back in order.
        T_FC_MUL:
        if (fc_bad) state <= T_ILLEGAL;
        else if (fc_zero) state <= T_DONE;
        else begin
          if (m_start) ki <= ki + 3'd1;
          if (m_valid) begin
            fc_p[k] <= mul_y;
            fc_over[k] <= m_over;
            k <= k + 2'd1;
            if (k == 2'd2) state <= T_FC_CHK;
          end
        end
        T_FC_CHK:
        if (fc_over[0] || misaligned(dst_q[2:0], 3'd4) || dst_neg || fc_p[0] > dst_lim) begin
          fault_info <= dst_q;
          state <= T_FAULT;
        end else if (fc_over[1] || misaligned(base[0][2:0], 3'd4) || src_neg[0] || fc_p[1] > src_lim[0]) begin
          fault_info <= base[0];
          state <= T_FAULT;
        end else if (fc_over[2] || misaligned(base[1][2:0], 3'd4) || src_neg[1] || fc_p[2] > src_lim[1]) begin
          fault_info <= base[1];
          state <= T_FAULT;
        end else if (misaligned(base[2][2:0], 3'd4) || src_neg[2] || dim[1] > src_lim[2]) begin
          fault_info <= base[2];
          state <= T_FAULT;
        end else state <= T_FC_RUN;
        T_FC_RUN: if (f_done) state <= T_DONE;
        T_SUFFIX: begin
          // A zero dimension makes the instruction a no-op.
          for (int i = 0; i < 4; i++) dim_m1[i] <= dim[i] - 32'd1;
          if (any_zero) state <= T_DONE;
          else if (k == 2'd3) begin
            suffix[2] <= dim[3];
            if (dim[3] > size_q) big <= 1'b1;
            k <= 2'd2;
          end else if (m_start) m_pend <= 1'b1;
          else if (m_valid) begin
            m_pend <= 1'b0;
            suffix[k-2'd1] <= mul_y;
            if (m_over || mul_y > size_q) big <= 1'b1;
            k <= k - 2'd1;
            if (k == 2'd1) state <= T_DST;
          end
        end
        T_DST:
        if (m_start) m_pend <= 1'b1;
        else if (m_valid) begin
          m_pend <= 1'b0;
          elements <= mul_y;
          if (!dst_ok) begin
            fault_info <= dst_q;
            state <= T_FAULT;
          end else begin
            s <= 2'd0;
            k <= 2'd0;
            ki <= 3'd0;
            last <= 35'd1;
            src_big <= 1'b0;
            contiguous[0] <= 1'b1;
            contiguous[1] <= 1'b1;
            contiguous[2] <= 1'b1;
            state <= T_TERM;
          end
        end
        T_TERM: begin
          if (m_start) ki <= ki + 3'd1;
          if (m_valid) begin
            last <= last + {3'd0, mul_y};
            if (m_over || mul_y > size_q) src_big <= 1'b1;
            if (dim[k] > 32'd1 && stride[s][k] != suffix[k]) contiguous[s] <= 1'b0;
            k <= k + 2'd1;
            if (k == 2'd3) state <= T_SRC;
          end
        end
        T_SRC:
        if (!src_ok) begin
          fault_info <= base[s];
          state <= T_FAULT;
        end else if (s + 2'd1 == nsrc) begin
          state <= T_DECIDE;
        end else begin
          s <= s + 2'd1;
          ki <= 3'd0;
          last <= 35'd1;
          src_big <= 1'b0;
          state <= T_TERM;
        end
        T_DECIDE: state <= T_RUN;
        T_RUN: if (e_done || v_done) state <= T_DONE;
        T_FAULT, T_DONE, T_ILLEGAL: state <= T_IDLE;
        default: state <= T_IDLE;
      endcase
    end
  end
`ifndef SYNTHESIS
  // The element engine's gated clock (e_clk above): at an edge of clk that
  // e_clk misses, none of the engine's registers would change if it
  // ticked. This reads the engine's internals (nnfab_tensor_elem's always_ff
  // term by term, and what its units need to hold: the FIFOs fetch
  // nothing, the divider is not busy, every FP unit's valid pipeline is
  // empty): E_IDLE without start, reset or abort (the state case, the
  // FIFOs' clear), no walker record, read, beat, record or result moving,
  // C2 empty (so the divider and the FP pipe take nothing and aq_v stays
  // low), the registered copies (aq_cnt, the ALU lanes' alu_q) equal to
  // what they copy. Those registers cannot change while e_clk stands; every
  // term is a function of them (the lanes' alu_y reads e_fn, a register of
  // e_clk too), so the register part is checked at the first edge e_clk
  // misses, the inputs (start, e_fn's load, reset, abort) at every one.
  always_ff @(posedge clk) begin
    assert (e_fn == fn_q) else $error("nnfab_tensor: the element engine's copy of fn differs from fn_q");
    if (!u_egate.en_q) begin
      assert (!e_start && !e_fn_load && !rst && !abort)
      else $error("nnfab_tensor: start, rst or abort at an edge e_clk missed (not settled by the falling edge)");
      if (u_egate.was_on) begin
        for (int i = 0; i < $size(u_elem.alu_q); i++)
          assert (u_elem.alu_q[i] == u_elem.alu_y[i])
          else $error("nnfab_tensor: e_clk stopped with ALU lane %0d's register behind its lane", i);
        assert (u_elem.state == 2'd0 && !u_elem.w2_done && !u_elem.rd_fire && !u_elem.beat_pop && !u_elem.tag_pop &&
                !u_elem.rec_pop && !u_elem.res_pop && !u_elem.c_go && !u_elem.c2_v && !u_elem.aq_v &&
                u_elem.aq_cnt == u_elem.c2_cnt && !u_elem.div_busy && !u_elem.sq_push && !u_elem.fp_out &&
                !u_elem.u_rec.fetch && !u_elem.u_beats.fetch && !u_elem.u_tags.fetch && !u_elem.u_res.fetch &&
                !u_elem.g_stage[0].u_stage.fetch && !u_elem.g_stage[1].u_stage.fetch &&
                !u_elem.g_stage[2].u_stage.fetch && u_elem.fp_quiet == '1 && !u_elem.u_fpn.fetch)
        else $error("nnfab_tensor: e_clk stopped while the element engine was not quiescent");
      end
    end
  end

  // The control's gated clock (t_clk above): at an edge of clk that t_clk
  // misses, none of its registers would change if it ticked. The state
  // machine's always_ff does nothing in T_IDLE without start or reset; the
  // check multiplier (nnfab_check_mul, term by term) holds when its valid
  // pipeline is empty and each of its registers equals what it copies or
  // computes. Its operands are T_IDLE's (dim_m1, stride: this domain's
  // registers), so the register part is checked at the first edge t_clk
  // misses, start and rst at every one.
  always_ff @(posedge clk) begin
    if (!u_tgate.en_q) begin
      assert (!start && !rst)
      else $error("nnfab_tensor: start or rst at an edge t_clk missed (not settled by the falling edge)");
      if (u_tgate.was_on)
        assert (state == T_IDLE && u_mul.v == '0 && u_mul.lo_x == mul_a[15:0] && u_mul.lo_y == mul_b[15:0] &&
                u_mul.mid_x == (mul_a[31:16] != 16'd0 ? mul_a[31:16] : mul_b[31:16]) &&
                u_mul.mid_y == (mul_a[31:16] != 16'd0 ? mul_b[15:0] : mul_a[15:0]) &&
                u_mul.both_hi2 == (mul_a[31:16] != 16'd0 && mul_b[31:16] != 16'd0) &&
                u_mul.lo3 == u_mul.lo_x * u_mul.lo_y && u_mul.mid3 == u_mul.mid_x * u_mul.mid_y &&
                u_mul.both_hi3 == u_mul.both_hi2 && u_mul.y == {u_mul.hi[15:0], u_mul.lo3[15:0]} &&
                u_mul.over == (u_mul.both_hi3 || u_mul.mid3[31:16] != 16'd0 || u_mul.hi[16]))
        else $error("nnfab_tensor: t_clk stopped while the control was not quiescent");
    end
  end

  // The FP issue path: the decoder admits only activation codes 0..3, and
  // FLOAT32 never reaches the vector engine but as MOV (a bit copy).
  // Each behind an `if` on its rare cause, which a Verilated model tests
  // first.
  always_ff @(posedge clk)
    if (!rst) begin
      if (start && state == T_IDLE && ty == NNFAB_TYPE_FLOAT32 && NNFAB_FNS_FLOAT_ACTIVATION[fn])
        assert (rc[4:2] == 3'd0) else $error("nnfab_tensor: FLOAT32 activation code %0d above RELU6", rc);
      if (v_start)
        assert (ty_q != NNFAB_TYPE_FLOAT32 || fn_q == NNFAB_FN_MOV)
        else $error("nnfab_tensor: FLOAT32 function %0d sent to the vector engine", fn_q);
    end
`endif
endmodule
