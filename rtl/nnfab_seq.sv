// The sequencer: start (size check, context restore, program load), the
// checks of every instruction boundary in the order of the HLS core
// (bus error, loop watchdog, execution budget, PREEMPT, INSN_LIMIT, pc range,
// legality), execution of scalar instructions, branches, loads and stores in
// one cycle each (loads wait for their beat, DIV for the divider, TENSOR for
// the tensor unit), the counters, and the stop (context save, draining posted
// writes, STATUS/HALT_PC/FAULT_INFO, then waiting in S_FINISH while the trace
// ring writes its entries to TRACE_ADDR).
//
// Pipeline (docs/rtl.md "Sequencer pipeline"): the instruction that
// executes is held decoded in a register (d_word and its precomputed flags).
// While it executes, the program memory already holds both of its possible
// successors (port A the fall-through, port B the branch target, fetched the
// cycle before from the registered pc and the registered target); the branch
// decision only selects one of them into the decode register, so a taken
// branch costs no bubble and no path runs from the program memory through
// execute. The operands are read (and forwarded) for both candidates a cycle
// ahead too, and the region check's constants are computed in decode; a
// load/store outside the region is resolved a cycle late (S_MEMFAULT), which
// undoes the cycle and retirement counted for it, so the fault stays precise.
`include "nnfab_isa.svh"

module nnfab_seq (
    input  logic          clk,
    input  logic          rst,
    // control slave
    input  logic          ap_start,
    output logic          start_accepted,
    output logic          core_idle,
    output logic          core_done,
    input  logic [63:0]   arg_prog_addr,
    input  logic [63:0]   arg_data_addr,
    input  logic [63:0]   arg_ctx_addr,
    input  logic [31:0]   arg_prog_size,
    input  logic [31:0]   arg_data_size,
    input  logic [63:0]   arg_srcb_addr,
    input  logic [63:0]   arg_dst_addr,
    input  logic [31:0]   arg_srcb_start,
    input  logic [31:0]   arg_dst_start,
    input  logic [31:0]   arg_mode,
    input  logic [31:0]   arg_insn_limit,
    input  logic [63:0]   arg_loop_budget,
    input  logic [63:0]   arg_exec_budget,
    input  logic          preempt,
    output logic [31:0]   watchdog_state,
    output logic [31:0]   status,
    output logic [31:0]   halt_pc,
    output logic [31:0]   fault_info,
    output logic [63:0]   cycles,
    output logic [63:0]   iterations,
    output logic [63:0]   instret,
    // program loader and memory
    output logic          load_start,
    output logic [63:0]   load_addr,
    output logic [10:0]   load_beats,
    input  logic          load_done,
    input  logic          load_error,
    input  logic [31:0]   load_error_addr,
    output logic          fetch_en,
    output logic [12:0]   fetch_a,
    output logic [12:0]   fetch_b,
    input  logic [63:0]   insn_a,
    input  logic [63:0]   insn_b,
    // data port
    output logic          rd_valid,
    output logic [63:0]   rd_addr,
    output logic [7:0]    rd_len,
    input  logic          rd_ready,
    input  logic          r_valid,
    input  logic          r_error,
    input  logic [511:0]  r_data,
    output logic          r_ready,
    output logic          sq_push,
    output logic [63:0]   sq_addr,
    output logic [511:0]  sq_data,
    output logic [63:0]   sq_strb,
    input  logic          sq_full,
    input  logic          writes_idle,
    input  logic          reads_idle,
    output logic          drain,
    output logic          clear_error,
    input  logic          bus_error,
    input  logic [31:0]   bus_error_addr,
    // tensor unit
    output logic          t_start,
    output logic [4:0]    t_fn,
    output logic [1:0]    t_type,
    output logic [4:0]    t_rc,   // the RC field (FLOAT32 fused activation)
    output logic [31:0]   t_dst,
    output logic [31:0]   t_src_a,
    output logic [31:0]   t_src_b,
    output logic [31:0]   t_src_c,
    output logic [31:0]   t_desc,
    output logic [63:0]   t_data_addr,
    output logic [31:0]   t_data_size,
    // the data region's windows (docs/isa.md "Memory model"), fixed from
    // the second cycle after the start: where B and D begin (bits 5:0
    // zero), where A and B end (D ends at DATA_SIZE), and the bias of B and
    // D (WINDOW_ADDR - WINDOW_START; A's is DATA_ADDR)
    output logic [31:0]   t_srcb_start,
    output logic [31:0]   t_dst_start,
    output logic [31:0]   t_a_end,
    output logic [31:0]   t_b_end,
    output logic [63:0]   t_bias_b,
    output logic [63:0]   t_bias_d,
    output logic          t_abort,
    input  logic          t_busy,
    input  logic          t_done,
    input  logic          t_fault,
    input  logic          t_illegal,  // with t_fault: ILLEGAL_INSTRUCTION (an FC descriptor)
    input  logic [31:0]   t_fault_info,
    // trace ring (rtl/nnfab_trace_ring.sv): a traced branch retires, and
    // the class of each cycle counted in CYCLES after the program load
    output logic          tr_event,
    output logic          tr_taken,
    output logic          tr_backedge,
    output logic [12:0]   tr_pc,
    output logic          tr_cycle,
    output logic [2:0]    tr_class,
    output logic          tr_issue,   // S_RUN: CYCLES is sampled as cycles_at_issue
    output logic          tr_cancel,  // S_MEMFAULT: the faulting load/store's cycle leaves CYCLES
    output logic          tr_revert,  // a TENSOR fault: CYCLES goes back to cycles_at_issue
    // the ring's dump at the stop: S_FINISH waits while tr_hold (the ring
    // writes its entries to TRACE_ADDR; CYCLES no longer counts)
    output logic          tr_finish,
    input  logic          tr_hold
);
  typedef enum logic [3:0] {
    S_IDLE,
    S_CHECK,
    S_CTX_RD,
    S_CTX_CHECK,
    S_LOAD,
    S_PRIME,
    S_PRIME2,
    S_RUN,
    S_LOAD_WAIT,
    S_DIV,
    S_TENSOR,
    S_MEMFAULT,
    S_SAVE,
    S_DRAIN,
    S_ABORT,
    S_FINISH
  } state_t;

  localparam int CTX_BEATS = NNFAB_CONTEXT_BYTES / NNFAB_MEM_BEAT_BYTES;
  localparam int BEAT_WORDS = NNFAB_MEM_BEAT_BYTES / 4;
  // The beats of the context holding r0..r15 and r16..r31.
  localparam logic [2:0] REGS_BEAT = 3'(NNFAB_CTX_REGS / BEAT_WORDS);

  state_t state;
  // arguments latched at start
  logic [63:0] data_addr, ctx_addr, loop_budget, exec_budget;
  logic [34:0] mem_lim_w, mem_lim_b;  // A_END - 4, A_END - 1 (signed)
  // The windows: latched at start (S_IDLE), their ends and biases computed
  // in S_CHECK (docs/rtl.md "Data region windows").
  logic [57:0] srcb_addr, dst_addr;    // bits 63:6
  logic [25:0] srcb_start, dst_start;  // bits 31:6
  logic [31:0] a_end, b_end;
  logic [63:0] bias_b, bias_d;
  logic [29:0] data_addr_hi_p1;      // DATA_ADDR[63:34] + 1
  logic [31:0] data_size, insn_limit, instructions;
  logic resume;
  // architectural state
  logic [31:0] pc;
  logic wd_armed;
  logic [30:0] wd_arms;
  logic [63:0] loop_start, cycles_at_issue;
  logic [31:0] retired;
  // stop
  logic [31:0] stop_status, stop_pc, stop_info;
  // context I/O
  logic [2:0] ctx_issued, ctx_got;
  logic ctx_borrow;
  logic prog_size_bad;  // PROG_SIZE's check, registered (the argument is stable while idle)
  logic ctx_hdr_ok;  // the header beat's MAGIC, WD_ARMED and WD_ARMS rules
  // load in flight
  logic [5:0] ld_lane;
  logic ld_byte;
  logic [4:0] ld_rd;
  logic mf_retired;

  // ------------------------------------------------------------ decode
  // The executing instruction (d_word) and what decode precomputed for it a
  // cycle early: legality, the pc range check, and one-hot flags for the
  // loads/stores and the branch kinds.
  logic [63:0] d_word;
  logic d_legal, d_pc_out;
  logic [8:0] d_flags;
  logic [2:0] cls;
  logic [4:0] fn, rd, ra, rb, rc;
  logic [1:0] ty;
  logic backedge, legal;
  logic [31:0] imm;
  (* keep *) logic [31:0] alu_y;  // a fence for ABC: the forward mux is one LUT after it
  logic [31:0] va, vb, vc;  // the operands, read (and forwarded) a cycle ahead
  logic d_ld, d_st, d_word_acc, d_wr, d_li, d_swap, d_t_lt, d_t_gt, d_t_eq;
  assign {d_t_eq, d_t_gt, d_t_lt, d_swap, d_li, d_wr, d_word_acc, d_st, d_ld} = d_flags;
  assign legal = d_legal;

  logic dec_legal_unused;
  nnfab_decoder u_dec (
      .insn(d_word),
      .cls(cls),
      .fn(fn),
      .rd(rd),
      .ra(ra),
      .rb(rb),
      .rc(rc),
      .ty(ty),
      .backedge(backedge),
      .imm(imm),
      .legal(dec_legal_unused)
  );

  // The flags of a fetched word, registered with it.
  // s ? b : a as AND-OR: Yosys' opt_share would otherwise move a $mux of two
  // adders' results in front of one shared adder (two chains in a row).
  function automatic [34:0] pick35(input s, input [34:0] b, input [34:0] a);
    pick35 = ({35{s}} & b) | ({35{!s}} & a);
  endfunction

  function automatic [8:0] flags_of(input [7:0] w);  // the opcode byte
    logic [2:0] c;
    logic [4:0] f;
    logic ctrl, brcmp;
    c = w[7:5];
    f = w[4:0];
    ctrl = c == NNFAB_CLASS_CTRL;
    brcmp = c == NNFAB_CLASS_BRCMP;
    flags_of[0] = ctrl && (f == NNFAB_OP_LDW || f == NNFAB_OP_LDB);
    flags_of[1] = ctrl && (f == NNFAB_OP_STW || f == NNFAB_OP_STB);
    flags_of[2] = f == NNFAB_OP_LDW || f == NNFAB_OP_STW;
    // writes rd through write port 0 in its execute cycle
    flags_of[3] = (c == NNFAB_CLASS_SALU && f != NNFAB_FN_DIV) || (ctrl && (f == NNFAB_OP_LI || f == NNFAB_OP_SWAP));
    flags_of[4] = ctrl && f == NNFAB_OP_LI;
    flags_of[5] = ctrl && f == NNFAB_OP_SWAP;
    // Taken when ra < rb (6), ra > rb (7), ra == rb (8): the one signed
    // comparison serves every branch. BNZ/BZ compare ra with rb = r0 = 0 and
    // JMP r0 with r0 (unused fields are zero in a legal instruction).
    flags_of[6] = (brcmp && (f == NNFAB_FN_NE || f == NNFAB_FN_LT || f == NNFAB_FN_LE)) ||
        (ctrl && (f == NNFAB_OP_BNZ || f == NNFAB_OP_JMP));
    flags_of[7] = (brcmp && (f == NNFAB_FN_NE || f == NNFAB_FN_GT || f == NNFAB_FN_GE)) ||
        (ctrl && (f == NNFAB_OP_BNZ || f == NNFAB_OP_JMP));
    flags_of[8] = (brcmp && (f == NNFAB_FN_EQ || f == NNFAB_FN_LE || f == NNFAB_FN_GE)) ||
        (ctrl && (f == NNFAB_OP_BZ || f == NNFAB_OP_JMP));
  endfunction

  // The legality rules on both fetched successors, before the branch decision.
  logic legal_a, legal_b;
  logic [2:0] unused_cls_a, unused_cls_b;
  logic [4:0] unused_fn_a, unused_rd_a, unused_ra_a, unused_rb_a, unused_rc_a;
  logic [4:0] unused_fn_b, unused_rd_b, unused_ra_b, unused_rb_b, unused_rc_b;
  logic [1:0] unused_ty_a, unused_ty_b;
  logic unused_be_a, unused_be_b;
  logic [31:0] imm_a, imm_b;
  nnfab_decoder u_dec_a (
      .insn(insn_a),
      .cls(unused_cls_a),
      .fn(unused_fn_a),
      .rd(unused_rd_a),
      .ra(unused_ra_a),
      .rb(unused_rb_a),
      .rc(unused_rc_a),
      .ty(unused_ty_a),
      .backedge(unused_be_a),
      .imm(imm_a),
      .legal(legal_a)
  );
  nnfab_decoder u_dec_b (
      .insn(insn_b),
      .cls(unused_cls_b),
      .fn(unused_fn_b),
      .rd(unused_rd_b),
      .ra(unused_ra_b),
      .rb(unused_rb_b),
      .rc(unused_rc_b),
      .ty(unused_ty_b),
      .backedge(unused_be_b),
      .imm(imm_b),
      .legal(legal_b)
  );
  logic [8:0] flags_a, flags_b;
`ifdef SYNTHESIS
  assign flags_a = flags_of(insn_a[NNFAB_F_OPCODE_LSB+:8]);
  assign flags_b = flags_of(insn_b[NNFAB_F_OPCODE_LSB+:8]);
`else
  // Simulation form (docs/sim.md "Simulation forms"): flags_of's 256
  // answers computed once, so that each cycle's two decodes are a table
  // read each instead of the comparisons (the largest single item of a
  // scalar cycle in the Verilated model's profile).
  logic [8:0] flags_lut[256];
  initial for (int i = 0; i < 256; i++) flags_lut[i] = flags_of(i[7:0]);
  assign flags_a = flags_lut[insn_a[NNFAB_F_OPCODE_LSB+:8]];
  assign flags_b = flags_lut[insn_b[NNFAB_F_OPCODE_LSB+:8]];
`endif
  logic unused_dec;
  assign unused_dec = &{1'b0, dec_legal_unused, unused_cls_a, unused_cls_b, unused_fn_a, unused_rd_a, unused_ra_a,
                        unused_rb_a, unused_rc_a, unused_fn_b, unused_rd_b, unused_ra_b, unused_rb_b, unused_rc_b,
                        unused_ty_a, unused_ty_b, unused_be_a, unused_be_b, insn_a[31:28], insn_b[31:28], rb, rc, d_k[33:32]};

  // The context image (and the register file's `all` behind it) is built
  // only in S_SAVE, the one state that reads it: a Verilated model skips an
  // untaken `if`, so the 2,048 bits are not copied on every cycle
  // (docs/sim.md "Evaluation gating"). For synthesis the gate is constant:
  // the image is read only in S_SAVE anyway, and the hardware stays as it
  // was timed.
  logic save_gate;
`ifdef SYNTHESIS
  assign save_gate = 1'b1;
`else
  assign save_gate = state == S_SAVE;
`endif
  logic rf_clear, rf_we0, rf_we1, rf_bulk_we, rf_bulk_half;
  logic [4:0] rf_wa0, rf_wa1;
  logic [31:0] rf_wd0, rf_wd1;
  logic [1023:0] rf_all;
  logic [31:0] rf_dst;  // RD's value (the register file's fourth read port)

  logic [95:0] rfv_a, rfv_b;
  nnfab_regfile u_rf (
      .clk(clk),
      .clear(rf_clear),
      .ra_a(insn_a[NNFAB_F_RA_LSB+:15]),
      .ra_b(insn_b[NNFAB_F_RA_LSB+:15]),
      .v_a(rfv_a),
      .v_b(rfv_b),
      .ra_d(rd),
      .v_d(rf_dst),
      .we0(rf_we0),
      .wa0(rf_wa0),
      .wd0(rf_wd0),
      .we1(rf_we1),
      .wa1(rf_wa1),
      .wd1(rf_wd1),
      .bulk_we(rf_bulk_we),
      .bulk_half(rf_bulk_half),
      .bulk_data(r_data),
      .all_en(save_gate),
      .all(rf_all)
  );

  nnfab_alu #(
      .LATE_LAST(1)
  ) u_alu (
      .fn(fn),
      .onehot(32'd0),
      .a(va),
      .b(vb),
      .c(vc),
      .y(alu_y)
  );

  logic div_start, div_busy, div_done;
  logic [31:0] div_q;
  // The divider's clock: clk for synthesis; in the harness's model a member
  // of the host group's clock (nnfab_core.sv "Shared gated clocks"), so that
  // its restoring step is not evaluated at every edge of scalar code. Its
  // registers change only in reset, at a start and while busy (the proof
  // is with the assertions below).
  logic div_clk;
  nnfab_sim_clock_gate #(
      .GROUP(2)
  ) u_div_gate (
      .clk (clk),
      .wake(div_start),
      .busy(rst || div_busy),
      .gclk(div_clk)
  );
  nnfab_divider u_div (
      .clk(div_clk),
      .rst(rst),
      .start(div_start),
      .a(va),
      .b(vb),
      .busy(div_busy),
      .done(div_done),
      .q(div_q)
  );

  // Addresses of the program, the data region and the context are 64-byte
  // aligned (MEM_BEAT_BYTES): their low bits are ignored (docs/rtl.md).
  logic unused_ok;
  assign unused_ok = &{1'b0, arg_prog_addr[5:0], arg_data_addr[5:0], ctx_addr[5:0], div_busy, arg_srcb_addr[5:0],
                       arg_dst_addr[5:0], arg_srcb_start[5:0], arg_dst_start[5:0], w_a_end[34:32]};

  // ------------------------------------------------- 64-bit arithmetic
  // A 64-bit carry chain is 16 CARRY4 cells, more than a 300 MHz cycle
  // holds (docs/rtl.md "Timing"): counters, differences and comparisons of
  // 64-bit values are built from 32-bit halves that work in parallel.
  function automatic [63:0] inc64(input [63:0] x);
    inc64 = {x[63:32] + {31'd0, x[31:0] == 32'hFFFF_FFFF}, x[31:0] + 32'd1};
  endfunction
  function automatic [63:0] dec64(input [63:0] x);
    dec64 = {x[63:32] - {31'd0, x[31:0] == 32'd0}, x[31:0] - 32'd1};
  endfunction
  // a - b: the high half computed for both borrows of the low half (carry select).
  function automatic [63:0] sub64(input [63:0] a, input [63:0] b);
    logic [32:0] lo;
    lo = {1'b0, a[31:0]} - {1'b0, b[31:0]};
    sub64 = {lo[32] ? a[63:32] + ~b[63:32] : a[63:32] - b[63:32], lo[31:0]};
  endfunction
  function automatic ge64(input [63:0] a, input [63:0] b);
    ge64 = a[63:32] > b[63:32] || (a[63:32] == b[63:32] && a[31:0] >= b[31:0]);
  endfunction
  function automatic gt64(input [63:0] a, input [63:0] b);
    gt64 = a[63:32] > b[63:32] || (a[63:32] == b[63:32] && a[31:0] > b[31:0]);
  endfunction

  // ------------------------------------------------- boundary checks
  // The budget and slice checks are registered: each edge computes the
  // check for both values the counter can have at the next cycle (unchanged,
  // or one more when this cycle counts) and the next cycle selects with the
  // registered step. Exact, with no extra cycle: CYCLES, INSTRET and the
  // loop's elapsed cycles change by 0 or 1 per clock while a program runs;
  // where they jump (start, resume, a faulting TENSOR) the core is not at a
  // boundary the next cycle (docs/rtl.md "Timing").
  logic [63:0] loop_elapsed;  // CYCLES - LOOP_START, kept as a register
  // loop_elapsed's low word is all ones: the carry into the high word of
  // its increment, registered (the 32-bit compare in front of the high
  // word's chain and the writers' multiplexer made the counter 16-17 cells).
  // It is only used when a cycle counts (checked by an assertion).
  logic le_lo_max;
  logic [63:0] exec_budget_m1;
  logic [31:0] insn_limit_m1;
  logic exec_on, loop_on, slice_on;  // budget != 0 / limit != 0
  logic exec_ge0, exec_ge1, loop_gt0, loop_gt1, slice_ge0, slice_ge1, step_cycle, step_retire, loop_rearmed;
  logic loop_expired, exec_expired, slice_end, pc_out;
  logic [31:0] instructions_m1;  // pc + 1 >= instructions as pc >= instructions - 1 (instructions >= 1)
  assign exec_expired = exec_on && (step_cycle ? exec_ge1 : exec_ge0);
  assign loop_expired = wd_armed && loop_on && !loop_rearmed && (step_cycle ? loop_gt1 : loop_gt0);
  assign slice_end = slice_on && (step_retire ? slice_ge1 : slice_ge0);
  assign pc_out = d_pc_out;
  // One of S_RUN's boundary checks stops the instruction (the case below
  // picks which, in the HLS core's order). One signal, so that a Verilated
  // model tests it once for each output of the case it splits the block
  // into, instead of walking the chain of checks for each.
  logic boundary_stop;
  assign boundary_stop = bus_error || loop_expired || exec_expired || preempt || slice_end || pc_out || !legal;

  // ------------------------------------------------------ load/store
  logic is_ld, is_st, is_word, mem_ok;
  logic [31:0] offset;
  logic [63:0] abs_addr;
  assign is_ld = d_ld;
  assign is_st = d_st;
  assign is_word = d_word_acc;
  assign offset = va + imm;  // FAULT_INFO
  // In the region when offset + bytes <= A_END (the end of window A:
  // scalars reach window A only), i.e. when
  // ra <= K = A_END - bytes - imm (35-bit signed): decode computes K
  // for both fetched candidates, so execute only compares ra with a
  // register (docs/rtl.md "Sequencer pipeline"). K <= DATA_SIZE - 1 fits
  // 32 bits when it is not negative.
  logic [34:0] d_k;
  assign mem_ok = (!is_word || offset[1:0] == 2'b00) && !d_k[34] && va <= d_k[31:0];
  // DATA_ADDR (64-byte aligned) + ra + imm: decode adds imm to the low 34
  // bits of DATA_ADDR, execute adds ra; the high 30 bits by carry select
  // from a registered increment (the sum carries out at most once).
  logic [34:0] d_base, addr_lo;
  assign addr_lo = {1'b0, d_base[33:0]} + {3'd0, va};
  assign abs_addr = {d_base[34] || addr_lo[34] ? data_addr_hi_p1 : data_addr[63:34], addr_lo[33:0]};

  // ------------------------------------------------------ branches
  // Its own comparator (not the ALU's result mux) and the registered one-hot
  // kind: register file -> compare -> one LUT level.
  logic taken, br_eq, br_lt, br_gt;
  logic signed [31:0] sva, svb;
  assign sva = va;
  assign svb = vb;
  assign br_eq = va == vb;
  assign br_lt = sva < svb;
  assign br_gt = svb < sva;
  assign taken = (br_lt && d_t_lt) || (br_gt && d_t_gt) || (br_eq && d_t_eq);

  // ------------------------------------------------------ fetch
  // When the instruction advances, the decode register takes the fetched
  // successor the branch chose, and the memory is addressed with that
  // successor's own two successors: pc + 2 or target + 1 (fall-through) and
  // the target field of the chosen word. A stalled instruction keeps the
  // memory's outputs (read enable low).
  logic advance, sel_b;
  logic [12:0] imm_p1, pc_p2, pc_p1;
  // (the taken flags are cleared in S_PRIME, so sel_b is low in S_PRIME2;
  // an instruction that completes in S_LOAD_WAIT, S_DIV or S_TENSOR has none)
  assign sel_b = taken;
  assign imm_p1 = imm[12:0] + 13'd1;
  assign pc_p1 = pc[12:0] + 13'd1;
  assign pc_p2 = pc[12:0] + 13'd2;
  assign fetch_en = advance || state == S_PRIME || state == S_PRIME2;
  always_comb begin
    if (state == S_PRIME) begin
      fetch_a = pc[12:0];
      fetch_b = pc[12:0];
    end else if (state == S_PRIME2) begin
      fetch_a = pc_p1;
      fetch_b = imm_a[12:0];
    end else begin
      fetch_a = fetch_a_run;
      fetch_b = fetch_b_run;
    end
  end
  logic [12:0] fetch_a_run, fetch_b_run;
  nnfab_mux2 #(.W(13)) u_fetch_a (.s(sel_b), .a(pc_p2), .b(imm_p1), .y(fetch_a_run));
  nnfab_mux2 #(.W(13)) u_fetch_b (.s(sel_b), .a(imm_a[12:0]), .b(imm_b[12:0]), .y(fetch_b_run));

  // The decode register's next value: the candidate the branch chose.
  logic [63:0] n_word;
  logic n_legal;
  logic [8:0] n_flags;
  logic [34:0] n_k, n_base;
  nnfab_mux2 #(.W(64)) u_n_word (.s(sel_b), .a(insn_a), .b(insn_b), .y(n_word));
  nnfab_mux2 #(.W(1)) u_n_legal (.s(sel_b), .a(legal_a), .b(legal_b), .y(n_legal));
  nnfab_mux2 #(.W(9)) u_n_flags (.s(sel_b), .a(flags_a), .b(flags_b), .y(n_flags));
`ifdef SYNTHESIS
  // The region constants (K and DATA_ADDR + imm above) of both candidates.
  logic [34:0] k_a, k_b, kw_a, kb_a, kw_b, kb_b, base_a, base_b;
  assign kw_a = mem_lim_w - {3'd0, imm_a};
  assign kb_a = mem_lim_b - {3'd0, imm_a};
  assign kw_b = mem_lim_w - {3'd0, imm_b};
  assign kb_b = mem_lim_b - {3'd0, imm_b};
  assign k_a = pick35(flags_a[2], kw_a, kb_a);
  assign k_b = pick35(flags_b[2], kw_b, kb_b);
  assign base_a = {1'b0, data_addr[33:0]} + {3'd0, imm_a};
  assign base_b = {1'b0, data_addr[33:0]} + {3'd0, imm_b};
  nnfab_mux2 #(.W(35)) u_n_k (.s(sel_b), .a(k_a), .b(k_b), .y(n_k));
  nnfab_mux2 #(.W(35)) u_n_base (.s(sel_b), .a(base_a), .b(base_b), .y(n_base));
`else
  // Simulation: the region constants of the chosen candidate alone, and
  // only when it is a load or store. d_k and d_base are read behind is_ld
  // or is_st alone (mem_ok, abs_addr), where the assertions check both
  // against the plain arithmetic; the hardware's four 35-bit sums a cycle
  // ahead cost a Verilated model every edge. Elsewhere they are zero.
  logic [31:0] n_imm;
  assign n_imm = sel_b ? imm_b : imm_a;
  always_comb begin
    n_k = '0;
    n_base = '0;
    if (n_flags[0] || n_flags[1]) begin
      n_k = (n_flags[2] ? mem_lim_w : mem_lim_b) - {3'd0, n_imm};
      n_base = {1'b0, data_addr[33:0]} + {3'd0, n_imm};
    end
  end
`endif

  // ------------------------------------------------------ context image
  // In simulation the zeros too are written only in S_SAVE (a default
  // before the `if` stored the 2,048 bits at every evaluation): the image
  // keeps its last value elsewhere, where nothing reads it.
  logic [2047:0] ctx_image;
`ifndef SYNTHESIS
  /* verilator lint_off LATCH */
`endif
  always_comb begin
`ifdef SYNTHESIS
    ctx_image = '0;
`endif
    if (save_gate) begin
`ifndef SYNTHESIS
      ctx_image = '0;
`endif
      ctx_image[NNFAB_CTX_MAGIC*32+:32] = NNFAB_CONTEXT_MAGIC;
      ctx_image[NNFAB_CTX_PC*32+:32] = pc;
      ctx_image[NNFAB_CTX_WD_ARMED*32+:32] = {31'd0, wd_armed};
      ctx_image[NNFAB_CTX_WD_ARMS*32+:32] = {1'b0, wd_arms};
      ctx_image[NNFAB_CTX_LOOP_START*32+:64] = loop_start;
      ctx_image[NNFAB_CTX_CYCLES*32+:64] = cycles;
      ctx_image[NNFAB_CTX_ITERATIONS*32+:64] = iterations;
      ctx_image[NNFAB_CTX_INSTRET*32+:64] = instret;
      ctx_image[NNFAB_CTX_REGS*32+:1024] = rf_all;
    end
  end
`ifndef SYNTHESIS
  /* verilator lint_on LATCH */
`endif

  // The validity rules of docs/isa.md; r0's word is checked as read (the
  // register file masks r0).
  logic ctx_valid, ctx_r0_zero;
  assign ctx_valid = ctx_hdr_ok && ctx_r0_zero;

  // ------------------------------------------------------ operands
  // The operands of the next instruction are read while the current one
  // executes, for both fetched candidates, and forwarded from what the
  // current one writes this cycle. The forward ignores stops: an instruction
  // that stops has no successor to read it. Write port 1 (SWAP's ra) wins
  // over port 0 like in the register file.
  logic [31:0] wd0_any, ld_data;
  logic [4:0] fwd0_addr;
  logic fwd0_en, fwd1_en;
  // The loaded word is aligned (a misaligned LDW faults in S_RUN and never
  // waits here): the word of the beat at lane[5:2], and a byte of it for
  // LDB. A 32-bit select of 16 words, not a shift of the 512-bit beat.
  logic [31:0] ld_word;
  assign ld_word = r_data[{ld_lane[5:2], 5'd0}+:32];
  assign ld_data = ld_byte ? {24'd0, ld_word[{ld_lane[1:0], 3'd0}+:8]} : ld_word;
  assign fwd0_en = (state == S_RUN && d_wr) || state == S_LOAD_WAIT || state == S_DIV;
  assign fwd1_en = state == S_RUN && d_swap;
  assign fwd0_addr = state == S_LOAD_WAIT ? ld_rd : rd;
  nnfab_mux2 #(.W(32)) u_wd0 (.s(fwd_alu), .a(wd0_other), .b(alu_y), .y(wd0_any));
  // The ALU's result is the latest: it enters through the last mux.
  logic fwd_alu;
  (* keep *) logic [31:0] wd0_other;
  assign fwd_alu = state == S_RUN && d_wr && !d_li && !d_swap;
  always_comb begin
    if (state == S_LOAD_WAIT) wd0_other = ld_data;
    else if (state == S_DIV) wd0_other = div_q;
    else if (d_li) wd0_other = imm;
    else wd0_other = va;  // SWAP
  end
  logic [95:0] opnd_next;
`ifndef SYNTHESIS
  // Simulation: the same forwarding for the chosen candidate alone (its
  // operand fields and register-file port), where the hardware checks
  // both candidates a cycle ahead and lets the branch pick. The same
  // value: port 1 (SWAP's rd) first, then port 0 (the ALU's result when
  // it writes, wd0_any), then the register.
  generate
    for (genvar p = 0; p < 3; p++) begin : g_opnd
      logic [4:0] x;
      logic [31:0] rv;
      logic use0, use1;
      assign x = sel_b ? insn_b[NNFAB_F_RA_LSB+5*p+:5] : insn_a[NNFAB_F_RA_LSB+5*p+:5];
      assign rv = sel_b ? rfv_b[p*32+:32] : rfv_a[p*32+:32];
      assign use0 = fwd0_en && fwd0_addr == x && x != 5'd0;
      assign use1 = fwd1_en && ra == x && x != 5'd0;
      assign opnd_next[p*32+:32] = use1 ? rf_dst : use0 ? wd0_any : rv;
    end
  endgenerate
`else
  generate
    for (genvar p = 0; p < 3; p++) begin : g_opnd
      logic [4:0] xa, xb;
      logic use0_a, use1_a, use0_b, use1_b, hit_a, hit_b, hit;
      logic [31:0] rest_a, rest_b, rest;
      assign xa = insn_a[NNFAB_F_RA_LSB+5*p+:5];
      assign xb = insn_b[NNFAB_F_RA_LSB+5*p+:5];
      assign use0_a = fwd0_en && fwd0_addr == xa && xa != 5'd0;
      assign use0_b = fwd0_en && fwd0_addr == xb && xb != 5'd0;
      assign use1_a = fwd1_en && ra == xa && xa != 5'd0;
      assign use1_b = fwd1_en && ra == xb && xb != 5'd0;
      // Everything but the ALU result and the branch decision, per candidate.
      assign rest_a = use1_a ? rf_dst : use0_a ? wd0_other : rfv_a[p*32+:32];
      assign rest_b = use1_b ? rf_dst : use0_b ? wd0_other : rfv_b[p*32+:32];
      assign hit_a = use0_a && !use1_a && fwd_alu;
      assign hit_b = use0_b && !use1_b && fwd_alu;
      nnfab_mux2 #(.W(32)) u_rest (.s(sel_b), .a(rest_a), .b(rest_b), .y(rest));
      nnfab_mux2 #(.W(1)) u_hit (.s(sel_b), .a(hit_a), .b(hit_b), .y(hit));
      nnfab_mux2 #(.W(32)) u_opnd (.s(hit), .a(rest), .b(alu_y), .y(opnd_next[p*32+:32]));
    end
  endgenerate
`endif

  // The context's beat addresses, CTX_ADDR + 64 * ctx_issued: the 2-bit sum
  // of bits 7:6 selects bits 63:8 or their increment. The increment
  // (ctx_hi_p1, built in two halves like inc64) is registered in S_CHECK,
  // before any context access: computed from ctx_addr in front of the
  // write queue's address it was the whole core's one 16-cell path.
  logic [63:0] ctx_beat_addr;
  logic [2:0] ctx_lo;
  logic [55:0] ctx_hi_p1;
  assign ctx_lo = {1'b0, ctx_addr[7:6]} + {1'b0, ctx_issued[1:0]};
  assign ctx_beat_addr = {ctx_lo[2] ? ctx_hi_p1 : ctx_addr[63:8], ctx_lo[1:0], 6'd0};

  // ------------------------------------------------------ next state
  state_t state_d;
  logic [31:0] pc_d;
  logic retire, count_cycle, stop, stop_save;
  assign advance = retire;
  logic [31:0] stop_status_d, stop_pc_d, stop_info_d;

  assign core_idle = state == S_IDLE;
  assign watchdog_state = {wd_armed, wd_arms};
  assign t_fn = fn;
  assign t_type = ty;
  assign t_rc = rc;
  assign t_dst = rf_dst;
  assign t_src_a = va;
  assign t_src_b = vb;
  assign t_src_c = vc;
  assign t_desc = imm;
  assign t_data_addr = data_addr;
  assign t_data_size = data_size;
  assign t_srcb_start = {srcb_start, 6'd0};
  assign t_dst_start = {dst_start, 6'd0};
  assign t_a_end = a_end;
  assign t_b_end = b_end;
  assign t_bias_b = bias_b;
  assign t_bias_d = bias_d;

  // ------------------------------------------------------ windows
  // S_CHECK computes, from the registers latched at start, the ends
  // A_END = min(SRCB_START, DST_START, DATA_SIZE) and B_END =
  // min(DST_START, DATA_SIZE), and the scalar limits A_END - 4 and
  // A_END - 1 as a pick among the three candidates' own differences (three
  // compares and three subtractions side by side, one LUT level after), so
  // that no subtraction follows a compare. Everything after S_CHECK reads
  // registers: the sequencer's decode (mem_lim) from S_PRIME2 on, the
  // tensor unit's checks from its first instruction.
  logic w_sb_lt_d, w_sb_lt_s, w_d_lt_s, w_pick_sb, w_pick_d;
  logic [31:0] w_sb, w_d;
  assign w_sb = {srcb_start, 6'd0};
  assign w_d = {dst_start, 6'd0};
  assign w_sb_lt_d = srcb_start < dst_start;
  assign w_sb_lt_s = w_sb < data_size;
  assign w_d_lt_s = w_d < data_size;
  assign w_pick_sb = w_sb_lt_d && w_sb_lt_s;     // A ends at SRCB_START
  assign w_pick_d = !w_sb_lt_d && w_d_lt_s;      // A ends at DST_START
  function automatic [34:0] pick3(input sb, input d, input [34:0] x_sb, input [34:0] x_d, input [34:0] x_s);
    pick3 = ({35{sb}} & x_sb) | ({35{d}} & x_d) | ({35{!sb && !d}} & x_s);
  endfunction
  logic [34:0] w_a_end;
  assign w_a_end = pick3(w_pick_sb, w_pick_d, {3'd0, w_sb}, {3'd0, w_d}, {3'd0, data_size});

  // In simulation sq_data has no zero default: it is read only with
  // sq_push (the core's write multiplexer, the port's queue), and every
  // branch that pushes sets it; a default stored 512 bits at each of the
  // three evaluations per cycle of this block (it reads top-level inputs).
`ifndef SYNTHESIS
  /* verilator lint_off LATCH */
`endif
  always_comb begin
    state_d = state;
    pc_d = pc;
    retire = 1'b0;
    count_cycle = 1'b0;
    stop = 1'b0;
    stop_save = 1'b0;
    stop_status_d = stop_status;
    stop_pc_d = pc;
    stop_info_d = 32'd0;
    start_accepted = 1'b0;
    load_start = 1'b0;
    rd_valid = 1'b0;
    rd_addr = '0;
    rd_len = 8'd0;
    r_ready = 1'b0;
    sq_push = 1'b0;
    sq_addr = {abs_addr[63:6], 6'd0};
`ifdef SYNTHESIS
    sq_data = '0;
`endif
    sq_strb = '0;
    drain = 1'b0;
    clear_error = 1'b0;
    t_start = 1'b0;
    t_abort = 1'b0;
    div_start = 1'b0;
    rf_clear = 1'b0;
    rf_we0 = 1'b0;
    rf_wa0 = rd;
    rf_wd0 = wd0_any;
    rf_we1 = 1'b0;
    rf_wa1 = ra;
    rf_wd1 = rf_dst;
    rf_bulk_we = 1'b0;
    rf_bulk_half = 1'b0;
    core_done = 1'b0;

    case (state)
      S_IDLE:
      if (ap_start) begin
        start_accepted = 1'b1;
        clear_error = 1'b1;
        state_d = S_CHECK;
      end
      S_CHECK: begin
        rf_clear = 1'b1;
        pc_d = 32'd0;
        if (prog_size_bad) begin
          stop = 1'b1;
          stop_status_d = NNFAB_STATUS_PROGRAM_FAULT;
          stop_pc_d = 32'd0;
          stop_info_d = arg_prog_size;
        end else if (resume) begin
          state_d = S_CTX_RD;
        end else if (arg_prog_size == 32'd0) begin
          state_d = S_PRIME;
        end else begin
          load_start = 1'b1;
          state_d = S_LOAD;
        end
      end
      S_CTX_RD: begin
        // Four single-beat reads (never crossing 4 KiB), then the check.
        rd_valid = ctx_issued != 3'(CTX_BEATS);
        rd_addr = ctx_beat_addr;
        r_ready = 1'b1;
        // The header beat goes straight into pc and the counters (cleared
        // again if the context is invalid), not into a 512-bit buffer.
        if (r_valid && ctx_got == 3'd0) pc_d = r_data[NNFAB_CTX_PC*32+:32];
        if (r_valid && (ctx_got == REGS_BEAT || ctx_got == REGS_BEAT + 3'd1)) begin
          rf_bulk_we = 1'b1;
          rf_bulk_half = ctx_got != REGS_BEAT;
        end
        if (bus_error) begin
          state_d = S_ABORT;
          stop_pc_d = 32'd0;
        end else if (ctx_got == 3'(CTX_BEATS)) begin
          state_d = S_CTX_CHECK;
        end
      end
      S_CTX_CHECK: begin
        if (!ctx_valid) begin
          stop = 1'b1;
          stop_status_d = NNFAB_STATUS_BAD_CONTEXT;
          stop_pc_d = 32'd0;
          stop_info_d = stop_info;  // MAGIC, kept there when the header arrived
          pc_d = 32'd0;
        end else if (arg_prog_size == 32'd0) begin
          state_d = S_PRIME;
        end else begin
          load_start = 1'b1;
          state_d = S_LOAD;
        end
      end
      S_LOAD: begin
        count_cycle = !resume;
        if (load_done) begin
          if (load_error) begin
            stop = 1'b1;
            stop_status_d = NNFAB_STATUS_BUS_ERROR;
            stop_pc_d = 32'd0;
            stop_info_d = load_error_addr;
          end else begin
            state_d = S_PRIME;
          end
        end
      end
      S_PRIME: state_d = S_PRIME2;
      S_PRIME2: state_d = S_RUN;
      S_RUN:
      if (boundary_stop) begin
        if (bus_error) begin
          state_d = S_ABORT;
        end else if (loop_expired) begin
          stop = 1'b1;
          stop_status_d = NNFAB_STATUS_LOOP_TIMEOUT;
        end else if (exec_expired) begin
          stop = 1'b1;
          stop_status_d = NNFAB_STATUS_EXEC_TIMEOUT;
        end else if (preempt) begin
          stop = 1'b1;
          stop_save = 1'b1;
          stop_status_d = NNFAB_STATUS_PREEMPTED;
        end else if (slice_end) begin
          stop = 1'b1;
          stop_save = 1'b1;
          stop_status_d = NNFAB_STATUS_SLICE_END;
        end else if (pc_out) begin
          stop = 1'b1;
          stop_status_d = NNFAB_STATUS_PROGRAM_FAULT;
          stop_info_d = pc;
        end else begin
          stop = 1'b1;
          stop_status_d = NNFAB_STATUS_ILLEGAL_INSTRUCTION;
          stop_info_d = d_word[31:0];
        end
      end else begin
        // A load or store outside the region (mem_ok, the latest signal of
        // this cycle) issues nothing and goes to S_MEMFAULT, which undoes
        // the cycle and the retirement counted here: precise, as if it had
        // stopped at this boundary (docs/rtl.md "Sequencer pipeline").
        count_cycle = 1'b1;
        case (cls)
          NNFAB_CLASS_SALU:
          if (fn == NNFAB_FN_DIV) begin
            div_start = 1'b1;
            state_d = S_DIV;
          end else begin
            rf_we0 = rd != 5'd0;
            retire = 1'b1;
          end
          NNFAB_CLASS_BRCMP: retire = 1'b1;
          NNFAB_CLASS_TENSOR: begin
            t_start = 1'b1;
            state_d = S_TENSOR;
          end
          default: begin  // CTRL
            if (is_ld) begin
              // AXI orders nothing between reads and writes: a load waits
              // until every posted store has been answered.
              rd_valid = writes_idle && mem_ok;
              rd_addr = {abs_addr[63:6], 6'd0};
              if (!mem_ok) state_d = S_MEMFAULT;
              else if (writes_idle && rd_ready) state_d = S_LOAD_WAIT;
            end else if (is_st) begin
              sq_push = !sq_full && mem_ok;
              if (!mem_ok) state_d = S_MEMFAULT;
              sq_data = is_word ? {16{vb}} : {64{vb[7:0]}};
              sq_strb = is_word ? (64'hF << abs_addr[5:0]) : (64'h1 << abs_addr[5:0]);
              retire = !sq_full;
            end else begin
              retire = 1'b1;
              case (fn)
                NNFAB_OP_HALT: begin
                  stop = 1'b1;
                  stop_status_d = imm == 32'd0 ? NNFAB_STATUS_DONE : NNFAB_STATUS_PROGRAM_ERROR;
                  stop_info_d = imm;
                end
                NNFAB_OP_LI: rf_we0 = rd != 5'd0;
                NNFAB_OP_SWAP: begin
                  rf_we0 = rd != 5'd0;
                  rf_we1 = ra != 5'd0;
                end
                default: ;
              endcase
            end
          end
        endcase
        // A stall (load or store waiting for the port) is not a boundary
        // yet, but the cycle counts: the instruction is executing.
        if (retire) pc_d = taken ? imm : pc + 32'd1;
      end
      S_LOAD_WAIT: begin
        count_cycle = 1'b1;
        r_ready = 1'b1;
        if (r_valid) begin
          if (r_error) begin
            state_d = S_ABORT;
          end else begin
            rf_we0 = ld_rd != 5'd0;
            rf_wa0 = ld_rd;
            retire = 1'b1;
            pc_d = pc + 32'd1;
            state_d = S_RUN;
          end
        end
      end
      S_DIV: begin
        count_cycle = 1'b1;
        if (div_done) begin
          rf_we0 = rd != 5'd0;
          retire = 1'b1;
          pc_d = pc + 32'd1;
          state_d = S_RUN;
        end
      end
      S_TENSOR: begin
        count_cycle = 1'b1;
        if (bus_error) begin
          t_abort = 1'b1;
          state_d = S_ABORT;
        end else if (t_done) begin
          if (t_fault) begin
            stop = 1'b1;
            stop_status_d = t_illegal ? NNFAB_STATUS_ILLEGAL_INSTRUCTION : NNFAB_STATUS_ACCESS_FAULT;
            stop_info_d = t_illegal ? d_word[31:0] : t_fault_info;
          end else begin
            retire = 1'b1;
            pc_d = pc + 32'd1;
            state_d = S_RUN;
          end
        end
      end
      S_MEMFAULT: begin
        // The load or store at stop_pc was outside the region (execute
        // recorded its pc and offset).
        stop = 1'b1;
        stop_status_d = NNFAB_STATUS_ACCESS_FAULT;
        stop_pc_d = stop_pc;
        stop_info_d = stop_info;
      end
      S_SAVE: begin
        sq_push = !sq_full && ctx_issued != 3'(CTX_BEATS);
        sq_addr = ctx_beat_addr;
        sq_data = ctx_image[{ctx_issued[1:0], 9'd0}+:512];
        sq_strb = '1;
        if (ctx_issued == 3'(CTX_BEATS)) state_d = S_DRAIN;
      end
      S_DRAIN: begin
        // Results are visible to the host only once every write is answered.
        if (bus_error) state_d = S_ABORT;
        else if (writes_idle && reads_idle && !t_busy) state_d = S_FINISH;
      end
      S_ABORT: begin
        drain = 1'b1;
        t_abort = 1'b1;
        if (writes_idle && reads_idle && !t_busy) state_d = S_FINISH;
      end
      S_FINISH:
      if (!tr_hold) begin
        core_done = 1'b1;
        state_d = S_IDLE;
      end
      default: state_d = S_IDLE;
    endcase

    if (stop) state_d = stop_save ? S_SAVE : S_DRAIN;
  end
`ifndef SYNTHESIS
  /* verilator lint_on LATCH */
`endif

  // ------------------------------------------------------ trace
  // docs/isa.md "Trace ring": BNZ, BZ, BRCMP and a JMP marked BACKEDGE are
  // traced when they retire; each counted cycle goes to the class of the
  // instruction in execute (isa/trace_classes.h has the same table).
  logic tr_ctrl_branch, tr_mem;
  assign tr_ctrl_branch = cls == NNFAB_CLASS_CTRL && (fn == NNFAB_OP_BNZ || fn == NNFAB_OP_BZ || fn == NNFAB_OP_JMP);
  assign tr_mem = cls == NNFAB_CLASS_CTRL && (fn == NNFAB_OP_LDW || fn == NNFAB_OP_STW || fn == NNFAB_OP_LDB ||
                                               fn == NNFAB_OP_STB);
  assign tr_event = state == S_RUN && retire && (cls == NNFAB_CLASS_BRCMP ||
      (cls == NNFAB_CLASS_CTRL && (fn == NNFAB_OP_BNZ || fn == NNFAB_OP_BZ || (fn == NNFAB_OP_JMP && backedge))));
  assign tr_taken = taken;
  assign tr_backedge = backedge;
  assign tr_pc = pc[12:0];
  assign tr_cycle = count_cycle && state != S_LOAD;
  assign tr_finish = state == S_FINISH;
  // The cycles CYCLES gives back at a fault (see the registers below) leave
  // the class counters too.
  assign tr_issue = state == S_RUN;
  assign tr_cancel = state == S_MEMFAULT;
  assign tr_revert = state == S_TENSOR && !bus_error && t_done && t_fault;
  always_comb begin
    if (cls == NNFAB_CLASS_TENSOR) tr_class = 3'd4;
    else if (cls == NNFAB_CLASS_BRCMP || tr_ctrl_branch) tr_class = 3'd3;
    else if (cls == NNFAB_CLASS_SALU) tr_class = 3'd2;
    else if (tr_mem) tr_class = 3'd1;
    else tr_class = 3'd0;
  end

  // ------------------------------------------- arguments and constants
  // The arguments latched at the start and the constants S_CHECK derives
  // from them change in those two states alone, so they are registers of
  // arg_clk: clk for synthesis; in the harness's model a member of the
  // host group's clock (nnfab_core.sv "Shared gated clocks"), which ticks at
  // a start anyway. A Verilated model then evaluates the logic behind them
  // (the windows' comparisons and ends, the tensor unit's window inputs)
  // at a start instead of at every edge of a run. The gate's enable is the
  // block's own condition, so no register of the block changes at an edge
  // it misses.
  logic arg_load, arg_clk;
  assign arg_load = (state == S_IDLE && ap_start) || state == S_CHECK;
  nnfab_sim_clock_gate #(
      .GROUP(2)
  ) u_arg_gate (
      .clk (clk),
      .wake(arg_load),
      .busy(1'b0),
      .gclk(arg_clk)
  );
  always_ff @(posedge arg_clk) begin
    if (!rst && state == S_IDLE && ap_start) begin
      data_addr <= {arg_data_addr[63:6], 6'd0};
      ctx_addr <= arg_ctx_addr;
      data_size <= arg_data_size;
      srcb_addr <= arg_srcb_addr[63:6];
      dst_addr <= arg_dst_addr[63:6];
      srcb_start <= arg_srcb_start[31:6];
      dst_start <= arg_dst_start[31:6];
      insn_limit <= arg_insn_limit;
      loop_budget <= arg_loop_budget;
      exec_budget <= arg_exec_budget;
      instructions <= {3'd0, arg_prog_size[31:3]};
      load_addr <= {arg_prog_addr[63:6], 6'd0};
      load_beats <= arg_prog_size[16:6] + {10'd0, arg_prog_size[5:0] != 6'd0};
    end
    if (!rst && state == S_CHECK) begin
      mem_lim_w <= pick3(w_pick_sb, w_pick_d, {3'd0, w_sb} - 35'd4, {3'd0, w_d} - 35'd4, {3'd0, data_size} - 35'd4);
      mem_lim_b <= pick3(w_pick_sb, w_pick_d, {3'd0, w_sb} - 35'd1, {3'd0, w_d} - 35'd1, {3'd0, data_size} - 35'd1);
      a_end <= w_a_end[31:0];
      b_end <= w_d_lt_s ? w_d : data_size;
      // WINDOW_ADDR - WINDOW_START, carry select (sub64)
      bias_b <= sub64({srcb_addr, 6'd0}, {32'd0, w_sb});
      bias_d <= sub64({dst_addr, 6'd0}, {32'd0, w_d});
      data_addr_hi_p1 <= data_addr[63:34] + 30'd1;
      ctx_hi_p1 <= {ctx_addr[63:36] + {27'd0, ctx_addr[35:8] == 28'hFFF_FFFF}, ctx_addr[35:8] + 28'd1};
      exec_on <= exec_budget != 64'd0;
      loop_on <= loop_budget != 64'd0;
      slice_on <= insn_limit != 32'd0;
      exec_budget_m1 <= dec64(exec_budget);
      insn_limit_m1 <= insn_limit - 32'd1;
      instructions_m1 <= instructions - 32'd1;
    end
  end

  // ------------------------------------------------------- registers
  always_ff @(posedge clk) begin
    if (rst) begin
      state <= S_IDLE;
      pc <= '0;
      wd_armed <= 1'b0;
      wd_arms <= '0;
      loop_start <= '0;
      cycles <= '0;
      iterations <= '0;
      instret <= '0;
      retired <= '0;
      status <= NNFAB_STATUS_IDLE;
      halt_pc <= '0;
      fault_info <= '0;
      stop_status <= NNFAB_STATUS_IDLE;
      stop_pc <= '0;
      stop_info <= '0;
      ctx_issued <= '0;
      ctx_got <= '0;
      resume <= 1'b0;
    end else begin
      state <= state_d;
      pc <= pc_d;
      prog_size_bad <= arg_prog_size[2:0] != 3'd0 ||
          {3'd0, arg_prog_size[31:3]} > 32'(NNFAB_MAX_PROGRAM_INSTRUCTIONS);
      if (state == S_PRIME2 || advance) begin
        // (sel_b is low in S_PRIME2: candidate A is then the word at pc)
        d_word <= n_word;
        d_legal <= n_legal;
        d_flags <= n_flags;
        d_k <= n_k;
        d_base <= n_base;
        {vc, vb, va} <= opnd_next;
        if (state == S_PRIME2) d_pc_out <= pc >= instructions;
        else d_pc_out <= sel_b ? imm >= instructions : instructions == 32'd0 || pc >= instructions_m1;
      end
      if (state == S_PRIME) d_flags <= '0;  // no branch taken in S_PRIME2
      if (count_cycle) begin
        cycles <= inc64(cycles);
        loop_elapsed <= {loop_elapsed[63:32] + {31'd0, le_lo_max}, loop_elapsed[31:0] + 32'd1};
        le_lo_max <= loop_elapsed[31:0] == 32'hFFFF_FFFE;
      end
      if (retire) begin
        instret <= inc64(instret);
        retired <= retired + 32'd1;
        if (taken && backedge) iterations <= inc64(iterations);
      end
      // The checks of the next cycle, for both of its possible counts.
      step_cycle <= count_cycle;
      step_retire <= retire;
      exec_ge0 <= ge64(cycles, exec_budget);
      exec_ge1 <= ge64(cycles, exec_budget_m1);  // cycles + 1 >= budget
      loop_gt0 <= gt64(loop_elapsed, loop_budget);
      loop_gt1 <= ge64(loop_elapsed, loop_budget);  // elapsed + 1 > budget
      slice_ge0 <= retired >= insn_limit;
      slice_ge1 <= retired >= insn_limit_m1;  // retired + 1 >= limit
      loop_rearmed <= 1'b0;
      if (stop) begin
        stop_status <= stop_status_d;
        stop_pc <= stop_pc_d;
        stop_info <= stop_info_d;
        ctx_issued <= '0;
      end

      case (state)
        S_IDLE: if (ap_start) resume <= arg_mode[NNFAB_MODE_RESUME_BIT];
        S_CHECK: begin
          // A fresh start begins with every register and counter zero; so
          // does a failed resume.
          wd_armed <= 1'b0;
          wd_arms <= '0;
          loop_start <= '0;
          loop_elapsed <= '0;
          le_lo_max <= 1'b0;
          cycles <= '0;
          iterations <= '0;
          instret <= '0;
          retired <= '0;
          ctx_issued <= '0;
          ctx_got <= '0;
        end
        S_CTX_RD: begin
          if (rd_valid && rd_ready) ctx_issued <= ctx_issued + 3'd1;
          if (r_valid) begin
            ctx_got <= ctx_got + 3'd1;
            if (ctx_got == 3'd0) begin
              ctx_hdr_ok <= r_data[NNFAB_CTX_MAGIC*32+:32] == NNFAB_CONTEXT_MAGIC &&
                  r_data[NNFAB_CTX_WD_ARMED*32+:32] <= 32'd1 && !r_data[NNFAB_CTX_WD_ARMS*32+31];
              stop_info <= r_data[NNFAB_CTX_MAGIC*32+:32];
              wd_armed <= r_data[NNFAB_CTX_WD_ARMED*32];
              wd_arms <= r_data[NNFAB_CTX_WD_ARMS*32+:31];
              loop_start <= r_data[NNFAB_CTX_LOOP_START*32+:64];
              cycles <= r_data[NNFAB_CTX_CYCLES*32+:64];
              iterations <= r_data[NNFAB_CTX_ITERATIONS*32+:64];
              instret <= r_data[NNFAB_CTX_INSTRET*32+:64];
            end
            if (ctx_got == REGS_BEAT) ctx_r0_zero <= r_data[31:0] == 32'd0;
          end
          // CYCLES - LOOP_START, low half, from the restored registers (the
          // header arrives at least three cycles before S_CTX_CHECK, which
          // computes the high half).
          {ctx_borrow, loop_elapsed[31:0]} <= {1'b0, cycles[31:0]} - {1'b0, loop_start[31:0]};
          le_lo_max <= 1'b0;
        end
        S_CTX_CHECK:
        if (ctx_valid) begin
          loop_elapsed[63:32] <= cycles[63:32] - loop_start[63:32] - {31'd0, ctx_borrow};
          le_lo_max <= loop_elapsed[31:0] == 32'hFFFF_FFFF;  // final since S_CTX_RD
        end else begin
          // A rejected context leaves every counter zero, as a fresh start.
          wd_armed <= 1'b0;
          wd_arms <= '0;
          loop_start <= '0;
          loop_elapsed <= '0;
          le_lo_max <= 1'b0;
          cycles <= '0;
          iterations <= '0;
          instret <= '0;
        end
        S_RUN: begin
          cycles_at_issue <= cycles;
          if (count_cycle && cls == NNFAB_CLASS_CTRL) begin
            if (fn == NNFAB_OP_WDARM) begin
              wd_armed <= 1'b1;
              wd_arms <= wd_arms + 31'd1;
              loop_start <= cycles;
              // WDARM counts its own cycle: elapsed 1 next cycle, which no
              // budget >= 1 exceeds.
              loop_elapsed <= 64'd1;
              le_lo_max <= 1'b0;
              loop_rearmed <= 1'b1;
            end
            if (fn == NNFAB_OP_WDOFF) wd_armed <= 1'b0;
          end
          ld_lane <= abs_addr[5:0];
          ld_byte <= !is_word;
          ld_rd <= rd;
          // S_MEMFAULT's pc, offset and whether the cycle retired (a store)
          stop_pc <= pc;
          if ((is_ld || is_st) && !stop) stop_info <= offset;
          mf_retired <= retire;
          if (bus_error) begin
            stop_status <= NNFAB_STATUS_BUS_ERROR;
            stop_pc <= pc;
          end
        end
        S_LOAD_WAIT, S_TENSOR:
        if (bus_error || (r_valid && r_error && state == S_LOAD_WAIT)) begin
          stop_status <= NNFAB_STATUS_BUS_ERROR;
          stop_pc <= pc;
        end else if (state == S_TENSOR && t_done && t_fault) begin
          cycles <= cycles_at_issue;  // a faulting instruction costs no cycles
        end
        S_MEMFAULT: begin
          // The faulting instruction costs no cycle and does not retire.
          cycles <= cycles_at_issue;
          if (mf_retired) instret <= dec64(instret);
        end
        S_SAVE: if (sq_push) ctx_issued <= ctx_issued + 3'd1;
        S_DRAIN, S_ABORT:
        // A posted write may still come back with an error: the results
        // are not what the program wrote, so the run fails.
        if (bus_error) begin
          stop_status <= NNFAB_STATUS_BUS_ERROR;
          stop_info <= bus_error_addr;
        end
        S_FINISH: begin
          status <= stop_status;
          halt_pc <= stop_pc;
          fault_info <= stop_info;
          // The trace ring's dump (S_FINISH while tr_hold) writes through
          // the same port: an error response to it fails the run as any
          // posted write's does (the first error's address stands: the
          // port keeps it). It arrives with writes_idle at the latest, so
          // the last S_FINISH cycle (tr_hold low) still copies it to STATUS.
          if (bus_error) begin
            stop_status <= NNFAB_STATUS_BUS_ERROR;
            stop_info <= bus_error_addr;
          end
        end
        default: ;
      endcase
      if (state == S_CTX_RD && bus_error) begin
        stop_status <= NNFAB_STATUS_BUS_ERROR;
        stop_pc <= 32'd0;
        // the counters stay zero, whatever part of the context arrived
        wd_armed <= 1'b0;
        wd_arms <= '0;
        loop_start <= '0;
        cycles <= '0;
        iterations <= '0;
        instret <= '0;
      end
    end
  end
`ifndef SYNTHESIS
  // ------------------------------------------------------ assertions
  // docs/rtl.md "Assertions": an instruction executes only when every
  // boundary check passed (the decoder's legality rules included); an expired
  // budget stops the core at the boundary; the counters only grow while a
  // program runs, CYCLES by at most one per clock.
  // The state's checks sit in one case on it (one jump in the Verilated
  // model instead of a test of the state per assertion), and a_counting is
  // a register, taken at the edge from the state it follows.
  state_t a_state;
  logic [63:0] a_cycles, a_iterations, a_instret;
  logic a_counting, a_mem;
  always_ff @(posedge clk) begin
    if (rst) begin
      a_state <= S_IDLE;
      a_counting <= 1'b0;
    end else begin
      a_state <= state;
      a_cycles <= cycles;
      a_iterations <= iterations;
      a_instret <= instret;
      a_counting <= state == S_LOAD || state == S_RUN || state == S_LOAD_WAIT || state == S_DIV;
      // The context's registered address increment is current wherever a
      // context beat can be addressed (from S_CHECK's edge on). Both are
      // registers of arg_clk, which stands from then to the next start:
      // checked at the first edge it misses.
      if (!u_arg_gate.en_q && u_arg_gate.was_on)
        assert (ctx_hi_p1 == ctx_addr[63:8] + 56'd1)
        else $error("sequencer: ctx_hi_p1 is not CTX_ADDR[63:8] + 1");
      if (count_cycle)
        assert (le_lo_max == (loop_elapsed[31:0] == 32'hFFFF_FFFF))
        else $error("sequencer: registered carry of loop_elapsed's low word is stale");
      if (retire) assert (!stop || (cls == NNFAB_CLASS_CTRL && fn == NNFAB_OP_HALT))
        else $error("sequencer: retired and stopped in one cycle");
      // The counters (a_counting: the last edge's state counted): +0 or +1
      // per clock, as a wrapping difference.
      if (a_counting) begin
        assert (cycles - a_cycles <= 64'd1) else $error("CYCLES not monotonic (+0/+1 per clock)");
        assert (instret - a_instret <= 64'd1) else $error("INSTRET not monotonic");
        assert (iterations - a_iterations <= 64'd1) else $error("ITERATIONS not monotonic");
      end
      case (state)
        S_RUN: begin
          if (count_cycle)
            assert (legal && !pc_out && !loop_expired && !exec_expired && !preempt && !slice_end && !bus_error)
            else $error("sequencer: executed an instruction that a boundary check stops");
          // The registered checks equal the checks on the live counters,
          // and the carry-save region check and address equal the plain
          // arithmetic.
          if (is_ld || is_st) begin
            assert (mem_ok == ((!is_word || offset[1:0] == 2'b00) &&
                               {2'b00, va} + {2'b00, imm} + (is_word ? 34'd4 : 34'd1) <= {2'b00, a_end}))
            else $error("sequencer: carry-save region check differs from offset + bytes <= end of window A");
            assert (abs_addr == data_addr + {31'd0, {1'b0, va} + {1'b0, imm}})
            else $error("sequencer: carry-save address differs from DATA_ADDR + ra + imm");
          end
          assert (loop_elapsed == cycles - loop_start) else $error("sequencer: loop_elapsed != CYCLES - LOOP_START");
          assert (exec_expired == (exec_budget != 64'd0 && cycles >= exec_budget))
          else $error("sequencer: registered EXEC_BUDGET check differs from the live one");
          assert (loop_expired == (wd_armed && loop_budget != 64'd0 && cycles - loop_start > loop_budget))
          else $error("sequencer: registered LOOP_BUDGET check differs from the live one");
          assert (slice_end == (insn_limit != 32'd0 && retired >= insn_limit))
          else $error("sequencer: registered INSN_LIMIT check differs from the live one");
          if (loop_expired || exec_expired)
            assert (stop || bus_error) else $error("sequencer: budget expired without a stop");
          a_mem <= (is_ld || is_st) && !mem_ok;
        end
        S_TENSOR: assert (instret == a_instret) else $error("INSTRET changed inside TENSOR");
        S_LOAD_WAIT:
        if (!ld_byte)
          assert (ld_lane[1:0] == 2'd0) else $error("sequencer: a word load waits for a beat at an unaligned lane");
        // a_mem is from the last S_RUN edge: the one before this when a_state is S_RUN.
        S_MEMFAULT:
        assert (a_state == S_RUN && a_mem)
        else $error("sequencer: S_MEMFAULT without a load or store outside the region");
        default: ;
      endcase
    end
  end
  // The divider's gated clock (u_div_gate): at an edge it misses, no
  // register of the divider would change had it ticked (no reset, no start,
  // not busy: the branches of its always_ff). busy is a register of
  // div_clk, checked at the first edge it misses.
  always_ff @(posedge clk)
    if (!u_div_gate.en_q) begin
      assert (!rst && !div_start) else $error("sequencer: the divider's clock stopped at a start or a reset");
      if (u_div_gate.was_on) assert (!div_busy) else $error("sequencer: the divider's clock stopped while it was busy");
    end
`endif
endmodule
