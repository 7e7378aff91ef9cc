// The sequencer: start (size check, context restore, program load), the
// checks of every instruction boundary in the order of the HLS core
// (bus error, loop watchdog, execution budget, PREEMPT, INSN_LIMIT, pc range,
// legality), execution of scalar instructions, branches, loads and stores in
// one cycle each (loads wait for their beat, DIV for the divider, TENSOR for
// the tensor unit), the counters, and the stop (context save, draining posted
// writes, STATUS/HALT_PC/FAULT_INFO).
//
// Fetch: the program memory is addressed with the pc the next cycle will
// execute (pc_d), so a taken branch costs no bubble.
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
    output logic [12:0]   fetch_pc,
    input  logic [63:0]   insn,
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
    output logic          t_abort,
    input  logic          t_busy,
    input  logic          t_done,
    input  logic          t_fault,
    input  logic          t_illegal,  // with t_fault: ILLEGAL_INSTRUCTION (an FC descriptor)
    input  logic [31:0]   t_fault_info
);
  typedef enum logic [3:0] {
    S_IDLE,
    S_CHECK,
    S_CTX_RD,
    S_CTX_CHECK,
    S_LOAD,
    S_PRIME,
    S_RUN,
    S_LOAD_WAIT,
    S_DIV,
    S_TENSOR,
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
  logic [34:0] mem_lim_w, mem_lim_b;  // DATA_SIZE - 4 + 2, DATA_SIZE - 1 + 2 (signed)
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
  logic [511:0] ctx_hdr;
  // load in flight
  logic [5:0] ld_lane;
  logic ld_byte;
  logic [4:0] ld_rd;

  // ------------------------------------------------------------ decode
  logic [2:0] cls;
  logic [4:0] fn, rd, ra, rb, rc;
  logic [1:0] ty;
  logic backedge, legal;
  logic [31:0] imm, va, vb, vc, alu_y;

  nnfab_decoder u_dec (
      .insn(insn),
      .cls(cls),
      .fn(fn),
      .rd(rd),
      .ra(ra),
      .rb(rb),
      .rc(rc),
      .ty(ty),
      .backedge(backedge),
      .imm(imm),
      .legal(legal)
  );

  logic rf_clear, rf_we0, rf_we1, rf_bulk_we, rf_bulk_half;
  logic [4:0] rf_wa0, rf_wa1;
  logic [31:0] rf_wd0, rf_wd1;
  logic [1023:0] rf_all;

  nnfab_regfile u_rf (
      .clk(clk),
      .clear(rf_clear),
      .ra(ra),
      .rb(rb),
      .rc(rc),
      .a(va),
      .b(vb),
      .c(vc),
      .we0(rf_we0),
      .wa0(rf_wa0),
      .wd0(rf_wd0),
      .we1(rf_we1),
      .wa1(rf_wa1),
      .wd1(rf_wd1),
      .bulk_we(rf_bulk_we),
      .bulk_half(rf_bulk_half),
      .bulk_data(r_data),
      .all(rf_all)
  );

  nnfab_alu u_alu (
      .fn(fn),
      .a(va),
      .b(vb),
      .c(vc),
      .y(alu_y)
  );

  logic div_start, div_busy, div_done;
  logic [31:0] div_q;
  nnfab_divider u_div (
      .clk(clk),
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
  assign unused_ok = &{1'b0, arg_prog_addr[5:0], arg_data_addr[5:0], ctx_addr[5:0], div_busy};

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
  logic [63:0] exec_budget_m1;
  logic [31:0] insn_limit_m1;
  logic exec_on, loop_on, slice_on;  // budget != 0 / limit != 0
  logic exec_ge0, exec_ge1, loop_gt0, loop_gt1, slice_ge0, slice_ge1, step_cycle, step_retire, loop_rearmed;
  logic loop_expired, exec_expired, slice_end, pc_out;
  assign exec_expired = exec_on && (step_cycle ? exec_ge1 : exec_ge0);
  assign loop_expired = wd_armed && loop_on && !loop_rearmed && (step_cycle ? loop_gt1 : loop_gt0);
  assign slice_end = slice_on && (step_retire ? slice_ge1 : slice_ge0);
  assign pc_out = pc >= instructions;

  // ------------------------------------------------------ load/store
  logic is_ld, is_st, is_word, mem_ok;
  logic [31:0] offset;
  logic [63:0] abs_addr;
  assign is_ld = cls == NNFAB_CLASS_CTRL && (fn == NNFAB_OP_LDW || fn == NNFAB_OP_LDB);
  assign is_st = cls == NNFAB_CLASS_CTRL && (fn == NNFAB_OP_STW || fn == NNFAB_OP_STB);
  assign is_word = fn == NNFAB_OP_LDW || fn == NNFAB_OP_STW;
  assign offset = va + imm;  // FAULT_INFO (the check below uses 35 bits)
  // In the region when offset + bytes <= DATA_SIZE, i.e. when
  // (DATA_SIZE - bytes + 2) + ~ra + ~imm >= 0 in 35 bits: the three terms
  // go through one carry-save level and one carry chain, not two chains in
  // a row (docs/rtl.md "Timing"); the limits are registered at start.
  logic [34:0] lim, csa_s, csa_c, room_sum, nva, nimm;
  assign lim = is_word ? mem_lim_w : mem_lim_b;
  assign nva = {3'b111, ~va};
  assign nimm = {3'b111, ~imm};
  assign csa_s = lim ^ nva ^ nimm;
  assign csa_c = {(lim[33:0] & nva[33:0]) | (lim[33:0] & nimm[33:0]) | (nva[33:0] & nimm[33:0]), 1'b0};
  assign room_sum = csa_s + csa_c;
  assign mem_ok = (!is_word || offset[1:0] == 2'b00) && !room_sum[34];
  // DATA_ADDR (64-byte aligned) + ra + imm: the low 34 bits through one
  // carry-save level, the high 30 by carry select from a registered increment.
  logic [33:0] addr_s, addr_c;
  logic [34:0] addr_lo;
  assign addr_s = data_addr[33:0] ^ {2'b00, va} ^ {2'b00, imm};
  assign addr_c = {(data_addr[32:0] & {1'b0, va}) | (data_addr[32:0] & {1'b0, imm}) | ({1'b0, va} & {1'b0, imm}), 1'b0};
  assign addr_lo = {1'b0, addr_s} + {1'b0, addr_c};
  assign abs_addr = {addr_lo[34] ? data_addr_hi_p1 : data_addr[63:34], addr_lo[33:0]};
  logic unused_sum;
  assign unused_sum = &{1'b0, room_sum[33:0]};

  // ------------------------------------------------------ branches
  logic taken;
  always_comb begin
    taken = 1'b0;
    if (cls == NNFAB_CLASS_BRCMP) taken = alu_y[0];
    else if (cls == NNFAB_CLASS_CTRL) begin
      case (fn)
        NNFAB_OP_JMP: taken = 1'b1;
        NNFAB_OP_BNZ: taken = va != 32'd0;
        NNFAB_OP_BZ: taken = va == 32'd0;
        default: taken = 1'b0;
      endcase
    end
  end

  // ------------------------------------------------------ context image
  logic [2047:0] ctx_image;
  always_comb begin
    ctx_image = '0;
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

  // The validity rules of docs/isa.md; r0's word is checked as read (the
  // register file masks r0).
  logic ctx_valid, ctx_r0_zero;
  assign ctx_valid = ctx_hdr[NNFAB_CTX_MAGIC*32+:32] == NNFAB_CONTEXT_MAGIC &&
      ctx_hdr[NNFAB_CTX_WD_ARMED*32+:32] <= 32'd1 && !ctx_hdr[NNFAB_CTX_WD_ARMS*32+31] && ctx_r0_zero;

  // RD as a fourth read port (TENSOR's destination offset, SWAP's old rd).
  logic [31:0] rf_dst;
  assign rf_dst = rf_all[{rd, 5'd0}+:32];

  // ------------------------------------------------------ next state
  state_t state_d;
  logic [31:0] pc_d;
  logic retire, count_cycle, stop, stop_save;
  logic [31:0] stop_status_d, stop_pc_d, stop_info_d;

  assign fetch_pc = pc_d[12:0];
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
    sq_data = '0;
    sq_strb = '0;
    drain = 1'b0;
    clear_error = 1'b0;
    t_start = 1'b0;
    t_abort = 1'b0;
    div_start = 1'b0;
    rf_clear = 1'b0;
    rf_we0 = 1'b0;
    rf_wa0 = rd;
    rf_wd0 = alu_y;
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
        if (arg_prog_size[2:0] != 3'd0 || {3'd0, arg_prog_size[31:3]} > 32'(NNFAB_MAX_PROGRAM_INSTRUCTIONS)) begin
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
        rd_addr = {ctx_addr[63:6], 6'd0} + {55'd0, ctx_issued, 6'd0};
        r_ready = 1'b1;
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
        pc_d = ctx_hdr[NNFAB_CTX_PC*32+:32];
        if (!ctx_valid) begin
          stop = 1'b1;
          stop_status_d = NNFAB_STATUS_BAD_CONTEXT;
          stop_pc_d = 32'd0;
          stop_info_d = ctx_hdr[NNFAB_CTX_MAGIC*32+:32];
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
      S_PRIME: state_d = S_RUN;
      S_RUN: begin
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
        end else if (!legal) begin
          stop = 1'b1;
          stop_status_d = NNFAB_STATUS_ILLEGAL_INSTRUCTION;
          stop_info_d = insn[31:0];
        end else if ((is_ld || is_st) && !mem_ok) begin
          stop = 1'b1;
          stop_status_d = NNFAB_STATUS_ACCESS_FAULT;
          stop_info_d = offset;
        end else begin
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
                rd_valid = writes_idle;
                rd_addr = {abs_addr[63:6], 6'd0};
                if (writes_idle && rd_ready) state_d = S_LOAD_WAIT;
              end else if (is_st) begin
                sq_push = !sq_full;
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
                  NNFAB_OP_LI: begin
                    rf_we0 = rd != 5'd0;
                    rf_wd0 = imm;
                  end
                  NNFAB_OP_SWAP: begin
                    rf_we0 = rd != 5'd0;
                    rf_wd0 = va;
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
            rf_wd0 = ld_byte ? {24'd0, r_data[{ld_lane, 3'd0}+:8]} : r_data[{ld_lane, 3'd0}+:32];
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
          rf_wd0 = div_q;
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
            stop_info_d = t_illegal ? insn[31:0] : t_fault_info;
          end else begin
            retire = 1'b1;
            pc_d = pc + 32'd1;
            state_d = S_RUN;
          end
        end
      end
      S_SAVE: begin
        sq_push = !sq_full && ctx_issued != 3'(CTX_BEATS);
        sq_addr = {ctx_addr[63:6], 6'd0} + {55'd0, ctx_issued, 6'd0};
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
      S_FINISH: begin
        core_done = 1'b1;
        state_d = S_IDLE;
      end
      default: state_d = S_IDLE;
    endcase

    if (stop) state_d = stop_save ? S_SAVE : S_DRAIN;
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
      if (count_cycle) begin
        cycles <= inc64(cycles);
        loop_elapsed <= inc64(loop_elapsed);
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
        S_IDLE:
        if (ap_start) begin
          data_addr <= {arg_data_addr[63:6], 6'd0};
          ctx_addr <= arg_ctx_addr;
          data_size <= arg_data_size;
          insn_limit <= arg_insn_limit;
          loop_budget <= arg_loop_budget;
          exec_budget <= arg_exec_budget;
          resume <= arg_mode[NNFAB_MODE_RESUME_BIT];
          instructions <= {3'd0, arg_prog_size[31:3]};
          load_addr <= {arg_prog_addr[63:6], 6'd0};
          load_beats <= arg_prog_size[16:6] + {10'd0, arg_prog_size[5:0] != 6'd0};
        end
        S_CHECK: begin
          // A fresh start begins with every register and counter zero; so
          // does a failed resume.
          mem_lim_w <= {3'd0, data_size} - 35'd2;
          mem_lim_b <= {3'd0, data_size} + 35'd1;
          data_addr_hi_p1 <= data_addr[63:34] + 30'd1;
          exec_on <= exec_budget != 64'd0;
          loop_on <= loop_budget != 64'd0;
          slice_on <= insn_limit != 32'd0;
          exec_budget_m1 <= dec64(exec_budget);
          insn_limit_m1 <= insn_limit - 32'd1;
          wd_armed <= 1'b0;
          wd_arms <= '0;
          loop_start <= '0;
          loop_elapsed <= '0;
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
            if (ctx_got == 3'd0) ctx_hdr <= r_data;
            if (ctx_got == REGS_BEAT) ctx_r0_zero <= r_data[31:0] == 32'd0;
          end
        end
        S_CTX_CHECK:
        if (ctx_valid) begin
          wd_armed <= ctx_hdr[NNFAB_CTX_WD_ARMED*32];
          wd_arms <= ctx_hdr[NNFAB_CTX_WD_ARMS*32+:31];
          loop_start <= ctx_hdr[NNFAB_CTX_LOOP_START*32+:64];
          cycles <= ctx_hdr[NNFAB_CTX_CYCLES*32+:64];
          loop_elapsed <= sub64(ctx_hdr[NNFAB_CTX_CYCLES*32+:64], ctx_hdr[NNFAB_CTX_LOOP_START*32+:64]);
          iterations <= ctx_hdr[NNFAB_CTX_ITERATIONS*32+:64];
          instret <= ctx_hdr[NNFAB_CTX_INSTRET*32+:64];
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
              loop_rearmed <= 1'b1;
            end
            if (fn == NNFAB_OP_WDOFF) wd_armed <= 1'b0;
          end
          ld_lane <= abs_addr[5:0];
          ld_byte <= !is_word;
          ld_rd <= rd;
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
        end
        default: ;
      endcase
      if (state == S_CTX_RD && bus_error) begin
        stop_status <= NNFAB_STATUS_BUS_ERROR;
        stop_pc <= 32'd0;
      end
    end
  end
`ifndef SYNTHESIS
  // ------------------------------------------------------ assertions
  // docs/rtl.md "Assertions": an instruction executes only when every
  // boundary check passed (the decoder's legality rules included); an expired
  // budget stops the core at the boundary; the counters only grow while a
  // program runs, CYCLES by at most one per clock.
  state_t a_state;
  logic [63:0] a_cycles, a_iterations, a_instret;
  logic a_counting;
  assign a_counting = a_state == S_LOAD || a_state == S_RUN || a_state == S_LOAD_WAIT || a_state == S_DIV;
  always_ff @(posedge clk) begin
    if (rst) begin
      a_state <= S_IDLE;
    end else begin
      a_state <= state;
      a_cycles <= cycles;
      a_iterations <= iterations;
      a_instret <= instret;
      if (state == S_RUN && count_cycle)
        assert (legal && !pc_out && !loop_expired && !exec_expired && !preempt && !slice_end && !bus_error)
        else $error("sequencer: executed an instruction that a boundary check stops");
      // The registered checks equal the checks on the live counters, and the
      // carry-save region check and address equal the plain arithmetic.
      if (state == S_RUN && (is_ld || is_st)) begin
        assert (mem_ok == ((!is_word || offset[1:0] == 2'b00) &&
                           {2'b00, va} + {2'b00, imm} + (is_word ? 34'd4 : 34'd1) <= {2'b00, data_size}))
        else $error("sequencer: carry-save region check differs from offset + bytes <= DATA_SIZE");
        assert (abs_addr == data_addr + {31'd0, {1'b0, va} + {1'b0, imm}})
        else $error("sequencer: carry-save address differs from DATA_ADDR + ra + imm");
      end
      if (state == S_RUN) begin
        assert (loop_elapsed == cycles - loop_start) else $error("sequencer: loop_elapsed != CYCLES - LOOP_START");
        assert (exec_expired == (exec_budget != 64'd0 && cycles >= exec_budget))
        else $error("sequencer: registered EXEC_BUDGET check differs from the live one");
        assert (loop_expired == (wd_armed && loop_budget != 64'd0 && cycles - loop_start > loop_budget))
        else $error("sequencer: registered LOOP_BUDGET check differs from the live one");
        assert (slice_end == (insn_limit != 32'd0 && retired >= insn_limit))
        else $error("sequencer: registered INSN_LIMIT check differs from the live one");
      end
      if (state == S_RUN && (loop_expired || exec_expired))
        assert (stop || bus_error) else $error("sequencer: budget expired without a stop");
      if (retire) assert (!stop || (cls == NNFAB_CLASS_CTRL && fn == NNFAB_OP_HALT))
        else $error("sequencer: retired and stopped in one cycle");
      if (a_counting) begin
        assert (cycles == a_cycles || cycles == a_cycles + 64'd1) else $error("CYCLES not monotonic (+0/+1 per clock)");
        assert (instret == a_instret || instret == a_instret + 64'd1) else $error("INSTRET not monotonic");
        assert (iterations == a_iterations || iterations == a_iterations + 64'd1)
        else $error("ITERATIONS not monotonic");
      end
      if (state == S_TENSOR) assert (instret == a_instret) else $error("INSTRET changed inside TENSOR");
    end
  end
`endif
endmodule
