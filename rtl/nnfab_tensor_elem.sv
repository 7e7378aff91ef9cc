// The tensor unit's element engine: any strides (broadcast included), any
// element sizes, DIV, FLOAT32 (through nnfab_tensor_fp). It walks the output in row-major order, one element
// every four cycles while each source's element is in the beat it holds
// (one cached beat per source: broadcasts and contiguous rows hit), fetching
// a beat on a miss. The four stages keep each register-to-register path
// short (docs/rtl.md "Timing"): E_ADDR forms the element addresses, E_RUN
// checks the cached beats and picks the operands, E_EXEC runs the ALU into
// a register (or starts the divider), E_WB writes the result (the ALU's or
// the divider's) into the result buffer. Results gather in one beat-wide
// buffer that goes out as a single-beat posted write (with byte strobes)
// when the next element falls into another beat.
`include "nnfab_isa.svh"

module nnfab_tensor_elem (
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
  typedef enum logic [3:0] {
    E_IDLE,
    E_ADDR,
    E_RUN,
    E_EXEC,
    E_WB,
    E_READ,
    E_WAIT,
    E_DIV,
    E_FP,
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
  logic [IW-1:0] cur[3], p0[3], p1[3], p2[3];  // index now, and at the start of each dimension's row
  // The output index as what is left of each row: r = dim - 1 - i, so that
  // "last of its row" is r == 0, not an increment and a compare.
  logic [31:0] r1, r2, r3, dm1, dm2, dm3, left;
  logic [511:0] cache[3];
  logic [57:0] cache_beat[3];
  logic cache_ok[3];
  logic [1:0] miss_src;
  logic [63:0] addr[3], addr_q[3];
  logic [31:0] v_q[3];
  logic hit[3];
  logic all_hit;
  logic [63:0] out_addr;
  logic [511:0] buf_data;
  logic [63:0] buf_strb;
  logic [57:0] buf_beat;
  logic buf_valid;

  always_comb begin
    for (int k = 0; k < 4; k++) begin
      stride[0][k] = stride_a[(3-k)*32+:32];
      stride[1][k] = stride_b[(3-k)*32+:32];
      stride[2][k] = stride_c[(3-k)*32+:32];
    end
  end

  logic [42:0] lo;
  always_comb begin
    all_hit = 1'b1;
    miss_src = 2'd0;
    for (int s = 2; s >= 0; s--) begin
      // base + index * size: the low 42 bits add, the high 22 bits take the
      // carry from a precomputed increment (carry select).
      lo = {1'b0, base[s][41:0]} + {1'b0, {2'b00, cur[s]} << (sb[s] == 3'd4 ? 2 : 0)};
      addr[s] = {lo[42] ? base[s][63:42] + 22'd1 : base[s][63:42], lo[41:0]};
      hit[s] = s >= {30'd0, nsrc} || (cache_ok[s] && cache_beat[s] == addr_q[s][63:6]);
      if (!hit[s]) begin
        all_hit = 1'b0;
        miss_src = 2'(s);
      end
    end
  end

  // The element of each source, zero-extended, and the result. The line is
  // read through a copy padded by one word: for a source whose address is
  // not (yet) meaningful — an unused source, an address that faults — the
  // 32-bit select would otherwise reach past bit 511, which hardware reads
  // as don't-care but a C++ simulation reads out of bounds.
  logic [31:0] v[3];
  logic [543:0] line_pad[3];
  logic [31:0] alu_y, alu_q, div_q, y;
  logic div_start, div_busy, div_done;
  always_comb begin
    for (int s = 0; s < 3; s++) begin
      line_pad[s] = {32'd0, cache[s]};
      if (sb[s] == 3'd4) v[s] = line_pad[s][{1'b0, addr_q[s][5:0], 3'd0}+:32];
      else v[s] = {24'd0, line_pad[s][{1'b0, addr_q[s][5:0], 3'd0}+:8]};
    end
  end

  nnfab_alu u_alu (
      .fn(fn),
      .a(v_q[0]),
      .b(v_q[1]),
      .c(v_q[2]),
      .y(alu_y)
  );

  nnfab_divider u_div (
      .clk(clk),
      .rst(rst),
      .start(div_start),
      .a(v_q[0]),
      .b(v_q[1]),
      .busy(div_busy),
      .done(div_done),
      .q(div_q)
  );

  // FLOAT32: the element goes into the FP pipe in E_EXEC and E_FP waits for
  // its result (the pipe's latency per element; see docs/rtl.md).
  logic fp_in, fp_out;
  logic [31:0] fp_y;
  assign fp_in = state == E_EXEC && fp;
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

  logic is_div, emit, out_other_beat;
  // The next output byte address: a 32-bit add, the high half by carry select.
  logic [32:0] out_lo;
  logic [63:0] next_out;
  assign out_lo = {1'b0, out_addr[31:0]} + {30'd0, rbytes};
  assign next_out = {out_lo[32] ? out_addr[63:32] + 32'd1 : out_addr[63:32], out_lo[31:0]};
  assign is_div = fn == NNFAB_FN_DIV && !fp;
  assign y = is_div ? div_q : alu_q;
  assign out_other_beat = buf_valid && buf_beat != out_addr[63:6];
  // An element is produced in E_WB, the cycle after the ALU (E_DIV when the
  // divider finishes), when its result fits into the buffer.
  assign emit = (state == E_WB || (state == E_DIV && div_done)) && !out_other_beat;
  assign div_start = state == E_EXEC && is_div && !div_busy && !out_other_beat;

  assign busy = state != E_IDLE;
  assign done = state == E_DONE;
  assign rd_valid = state == E_READ;
  assign rd_addr = {addr_q[miss_src][63:6], 6'd0};
  assign r_ready = state == E_WAIT;
  // Flush the buffer when the next element leaves its beat, and at the end.
  assign sq_push = buf_valid && !sq_full && (out_other_beat || state == E_FLUSH) &&
      (state == E_EXEC || state == E_WB || state == E_DIV || state == E_FLUSH);
  assign sq_addr = {buf_beat, 6'd0};
  assign sq_data = buf_data;
  assign sq_strb = buf_strb;

  always_ff @(posedge clk) begin
    if (rst) begin
      state <= E_IDLE;
      buf_valid <= 1'b0;
      cache_ok[0] <= 1'b0;
      cache_ok[1] <= 1'b0;
      cache_ok[2] <= 1'b0;
    end else if (abort) begin
      state <= E_IDLE;
      buf_valid <= 1'b0;
    end else begin
      if (sq_push) buf_valid <= 1'b0;
      case (state)
        E_IDLE:
        if (start) begin
          base[0] <= base0;
          base[1] <= base1;
          base[2] <= base2;
          sb[0] <= sbytes0;
          sb[1] <= sbytes1;
          sb[2] <= sbytes2;
          for (int s = 0; s < 3; s++) begin
            cur[s] <= '0;
            p0[s] <= '0;
            p1[s] <= '0;
            p2[s] <= '0;
            cache_ok[s] <= 1'b0;
          end
          r1 <= dim1 - 32'd1;
          r2 <= dim2 - 32'd1;
          r3 <= dim3 - 32'd1;
          dm1 <= dim1 - 32'd1;
          dm2 <= dim2 - 32'd1;
          dm3 <= dim3 - 32'd1;
          left <= elements;
          out_addr <= dst;
          buf_valid <= 1'b0;
          state <= E_ADDR;
        end
        E_ADDR: begin
          for (int s = 0; s < 3; s++) addr_q[s] <= addr[s];
          state <= E_RUN;
        end
        E_RUN:
        if (!all_hit) state <= E_READ;
        else begin
          for (int s = 0; s < 3; s++) v_q[s] <= v[s];
          state <= E_EXEC;
        end
        E_EXEC:
        if (fp) state <= E_FP;
        else if (!is_div) begin
          alu_q <= alu_y;
          state <= E_WB;
        end else if (div_start) state <= E_DIV;
        E_FP:
        if (fp_out) begin
          alu_q <= fp_y;
          state <= E_WB;
        end
        E_READ: if (rd_ready) state <= E_WAIT;
        E_WAIT:
        if (r_valid) begin
          cache[miss_src] <= r_data;
          cache_beat[miss_src] <= addr_q[miss_src][63:6];
          cache_ok[miss_src] <= 1'b1;
          state <= E_RUN;
        end
        E_FLUSH: if (!buf_valid || sq_push) state <= E_DONE;
        E_DONE: state <= E_IDLE;
        default: ;
      endcase

      if (emit) begin
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
            buf_data[i*8+:8] <= rbytes == 3'd4 ? y[(i%4)*8+:8] : y[7:0];
            buf_strb[i] <= 1'b1;
          end
        out_addr <= next_out;
        left <= left - 32'd1;
        state <= left == 32'd1 ? E_FLUSH : E_ADDR;
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
  end
endmodule
