// Every stop path that is a fault: illegal instructions (unknown opcodes,
// reserved bit, fields an instruction does not use, FLOAT32 and other
// function/type combinations), bounds and alignment of loads, stores,
// descriptors and tensor regions (with nothing written), PROGRAM_FAULT,
// BAD_CONTEXT and BUS_ERROR.
#include <gtest/gtest.h>

#include "fabric/core_status.h"
#include "hls/tensor_test_util.h"

namespace nnfab::fabric::test {
namespace {

uint64_t raw(uint32_t opcode, uint32_t rd = 0, uint32_t ra = 0, uint32_t rb = 0, uint32_t rc = 0, uint32_t type = 0,
             uint32_t backedge = 0, uint32_t reserved = 0, uint32_t imm = 0) {
  return isa::encodeFields(isa::Fields{opcode, rd, ra, rb, rc, type, backedge, reserved, imm});
}

constexpr uint32_t op(uint32_t cls, uint32_t fn) { return cls | fn; }

// Runs [nop, insn, halt] on a 256-byte data region filled with kPoison.
Outcome runOne(uint64_t insn, std::vector<uint8_t>* image = nullptr) {
  std::vector<uint8_t> local(256, kPoison);
  std::vector<uint8_t>& data = image ? *image : local;
  Asm a;
  a.emit(insn::nop());
  a.emit(insn);
  a.emit(insn::halt());
  return run(a, data, data.size());
}

void expectIllegal(uint64_t insn, const char* what) {
  SCOPED_TRACE(what);
  const Outcome out = runOne(insn);
  EXPECT_CORE_STATUS(out, isa::kStatusILLEGAL_INSTRUCTION);
  EXPECT_EQ(out.report.status.code(), ErrorStatus::GENERAL_FAILURE);
  EXPECT_EQ(out.report.haltPc, 1u);
  EXPECT_EQ(out.report.faultInfo, static_cast<uint32_t>(insn));
  EXPECT_EQ(out.report.instret, 1u);  // the faulting instruction does not retire
}

TEST(HlsFaults, UnknownOpcodes) {
  expectIllegal(raw(isa::kNumCtrlOps), "first unused CTRL opcode");
  expectIllegal(raw(0x1F), "last CTRL opcode");
  expectIllegal(raw(op(isa::kClassSALU, isa::kNumAluFns), 1, 1, 1), "SALU fn beyond the table");
  expectIllegal(raw(op(isa::kClassTENSOR, 0x1F), 1, 1, 1), "TENSOR fn beyond the table");
  expectIllegal(raw(0x80), "class 4");
  expectIllegal(raw(0xFF), "opcode 0xFF");
}

TEST(HlsFaults, ReservedBitAndUnusedFields) {
  expectIllegal(raw(isa::kOpNOP, 0, 0, 0, 0, 0, 0, 1), "reserved bit on NOP");
  expectIllegal(insn::li(1, 5) | (uint64_t{1} << isa::kFieldRESERVEDLsb), "reserved bit on LI");
  expectIllegal(raw(isa::kOpNOP, 1), "NOP with rd");
  expectIllegal(raw(isa::kOpNOP, 0, 0, 0, 0, 0, 0, 0, 9), "NOP with imm");
  expectIllegal(raw(isa::kOpLI, 1, 2, 0, 0, 0, 0, 0, 5), "LI with ra");
  expectIllegal(raw(isa::kOpSTW, 3, 1, 2), "STW with rd");
  expectIllegal(raw(isa::kOpLI, 1, 0, 0, 0, 0, 1, 0, 5), "BACKEDGE on LI");
  expectIllegal(raw(isa::kOpLI, 1, 0, 0, 0, 1, 0, 0, 5), "TYPE on LI");
  expectIllegal(raw(op(isa::kClassSALU, isa::kFnADD), 1, 1, 1, 0, 1), "TYPE on SALU");
  expectIllegal(raw(op(isa::kClassSALU, isa::kFnADD), 1, 1, 1, 0, 0, 0, 0, 4), "imm on SALU");
  expectIllegal(raw(op(isa::kClassSALU, isa::kFnNEG), 1, 1, 2), "rb on a one-operand SALU");
  expectIllegal(raw(op(isa::kClassSALU, isa::kFnADD), 1, 1, 1, 3), "rc on a two-operand SALU");
  expectIllegal(raw(op(isa::kClassBRCMP, isa::kFnLT), 1, 1, 2, 0, 0, 0, 0, 2), "rd on BRCMP");
  expectIllegal(raw(isa::kOpWDARM, 0, 1), "WDARM with ra");
}

TEST(HlsFaults, FunctionTypeCombinations) {
  expectIllegal(insn::brcmp(isa::kFnADD, 1, 2, 0), "BRCMP with a non-comparison");
  expectIllegal(insn::brcmp(isa::kFnAND, 1, 2, 0), "BRCMP with AND");
  // ISA version 2: FLOAT32 is legal on the HLS core (FEATURES.FLOAT32), but
  // only for the functions that list it, with an activation code of 0..3 in
  // RC, and CVT / FC only in the TENSOR class.
  expectIllegal(insn::tensor(isa::kFnADD, isa::kTypeFLOAT32, 1, 2, 3, 4, 0), "FLOAT32 ADD with activation 4");
  expectIllegal(insn::tensor(isa::kFnMAX, isa::kTypeFLOAT32, 1, 2, 3, 1, 0), "rc on FLOAT32 MAX");
  expectIllegal(insn::tensor(isa::kFnAND, isa::kTypeFLOAT32, 1, 2, 3, 0, 0), "FLOAT32 AND");
  expectIllegal(insn::tensor(isa::kFnNOT, isa::kTypeFLOAT32, 1, 2, 0, 0, 0), "FLOAT32 NOT");
  expectIllegal(insn::tensor(isa::kFnFC, isa::kTypeINT32, 1, 2, 3, 4, 0), "INT32 FC");
  expectIllegal(insn::tensor(isa::kFnCVT, isa::kTypeBOOL8, 1, 2, 0, 0, 0), "BOOL8 CVT");
  expectIllegal(insn::alu(isa::kFnCVT, 1, 2), "CVT in the SALU class");
  expectIllegal(insn::alu(isa::kFnFC, 1, 2, 3, 4), "FC in the SALU class");
  expectIllegal(insn::brcmp(isa::kFnCVT, 1, 2, 0), "BRCMP with CVT");
  expectIllegal(insn::tensor(isa::kFnEQ, 3, 1, 2, 3, 0, 0), "TYPE 3");
  expectIllegal(insn::tensor(isa::kFnADD, isa::kTypeBOOL8, 1, 2, 3, 0, 0), "BOOL8 ADD");
  expectIllegal(insn::tensor(isa::kFnAND, isa::kTypeINT32, 1, 2, 3, 0, 0), "INT32 AND");
  expectIllegal(insn::tensor(isa::kFnNOT, isa::kTypeINT32, 1, 2, 0, 0, 0), "INT32 NOT");
  expectIllegal(insn::tensor(isa::kFnABS, isa::kTypeINT32, 1, 2, 3, 0, 0), "rb on a one-operand TENSOR");
}

void expectAccessFault(const Asm& a, std::vector<uint8_t> image, uint32_t offset, const char* what) {
  SCOPED_TRACE(what);
  const Outcome out = run(a, image, image.size());
  EXPECT_CORE_STATUS(out, isa::kStatusACCESS_FAULT);
  EXPECT_EQ(out.report.status.code(), ErrorStatus::GENERAL_FAILURE);
  EXPECT_EQ(out.report.faultInfo, offset);
  EXPECT_EQ(out.data, image) << "a faulting instruction wrote to the data region";
}

Asm loadStore(uint64_t insn, int32_t base) {
  Asm a;
  a.emit(insn::li(1, base));
  a.emit(insn::li(2, 0x12345678));
  a.emit(insn);
  a.emit(insn::halt());
  return a;
}

TEST(HlsFaults, LoadAndStoreBoundsAndAlignment) {
  const std::vector<uint8_t> image(100, kPoison);  // DATA_SIZE 100
  expectAccessFault(loadStore(insn::ldw(3, 1, 0), 100), image, 100, "LDW at DATA_SIZE");
  expectAccessFault(loadStore(insn::ldw(3, 1, 2), 96), image, 98, "LDW misaligned");
  expectAccessFault(loadStore(insn::stw(2, 1, 0), 98), image, 98, "STW misaligned near the end");
  expectAccessFault(loadStore(insn::stw(2, 1, 4), 96), image, 100, "STW just past the end");
  expectAccessFault(loadStore(insn::stb(2, 0, 100), 0), image, 100, "STB at DATA_SIZE");
  expectAccessFault(loadStore(insn::ldb(3, 1, 0), -1), image, 0xFFFFFFFFu, "LDB at 2^32 - 1");
  // ra + imm is computed without wrap-around: 0xFFFFFFFC + 8 is not 4.
  expectAccessFault(loadStore(insn::stw(2, 1, 8), -4), image, 4, "STW whose offset would wrap to 4");
  // The last word and the last byte are inside.
  const Outcome last = run(loadStore(insn::stw(2, 1, 0), 96), image, image.size());
  EXPECT_CORE_STATUS(last, isa::kStatusDONE);
  EXPECT_EQ(word(last.data, 96), 0x12345678);
  const Outcome lastByte = run(loadStore(insn::stb(2, 1, 99), 0), image, image.size());
  EXPECT_CORE_STATUS(lastByte, isa::kStatusDONE);
  EXPECT_EQ(lastByte.data[99], 0x78);
}


TEST(HlsFaults, TensorRegionsAreCheckedBeforeAnyWrite) {
  // DATA_SIZE 512; descriptor at 0: [1,1,4,4], A and B contiguous.
  Descriptor d;
  d.dim = {1, 1, 4, 4};
  d.stride[0] = {0, 0, 4, 1};
  d.stride[1] = {0, 0, 4, 1};
  std::vector<uint8_t> image(512, kPoison);
  put(image, 0, d.words());
  Descriptor strided = d;
  strided.stride[1] = {0, 0, 40, 1};
  put(image, 64, strided.words());

  expectAccessFault(tensorAdd(256, 128, 192, 4), image, 4, "descriptor misaligned");
  expectAccessFault(tensorAdd(256, 128, 192, 512), image, 512, "descriptor outside");
  expectAccessFault(tensorAdd(256, 128, 192, 480), image, 480, "descriptor misaligned near the end");
  expectAccessFault(tensorAdd(464, 128, 192, 0), image, 464, "destination past the end");
  expectAccessFault(tensorAdd(258, 128, 192, 0), image, 258, "destination misaligned");
  expectAccessFault(tensorAdd(256, 450, 192, 0), image, 450, "A misaligned and out of range");
  expectAccessFault(tensorAdd(256, 128, 449, 0), image, 449, "B misaligned");
  // Strided B: highest element 3*40 + 3 = 123 -> bytes [base + 492, base + 496).
  expectAccessFault(tensorAdd(256, 128, 32, 64), image, 32, "B's strides leave the region");
  const Outcome inside = run(tensorAdd(128, 192, 16, 64), image, image.size());
  EXPECT_CORE_STATUS(inside, isa::kStatusDONE);
  // A huge dimension: the destination cannot fit (and the count must not wrap).
  Descriptor huge = d;
  huge.dim = {0x10000, 0x10000, 0x10000, 0x10000};
  put(image, 0, huge.words());
  expectAccessFault(tensorAdd(256, 128, 192, 0), image, 256, "2^64 elements");
  // A stride far beyond the region.
  Descriptor wide = d;
  wide.dim = {1, 1, 2, 1};
  wide.stride[1] = {0, 0, 0xFFFFFFFF, 0};
  put(image, 0, wide.words());
  expectAccessFault(tensorAdd(256, 128, 192, 0), image, 192, "stride 2^32 - 1");
}

TEST(HlsFaults, ProgramFaults) {
  Asm runsOff;  // no HALT: pc reaches PROG_SIZE / 8
  runsOff.emit(insn::nop());
  runsOff.emit(insn::nop());
  const Outcome off = run(runsOff, {}, 64);
  EXPECT_CORE_STATUS(off, isa::kStatusPROGRAM_FAULT);
  EXPECT_EQ(off.report.haltPc, 2u);
  EXPECT_EQ(off.report.status.code(), ErrorStatus::GENERAL_FAILURE);

  Asm jumpsOut;
  jumpsOut.emit(insn::jmp(1000));
  const Outcome far = run(jumpsOut, {}, 64);
  EXPECT_CORE_STATUS(far, isa::kStatusPROGRAM_FAULT);
  EXPECT_EQ(far.report.haltPc, 1000u);

  Asm empty;
  const Outcome none = run(empty, {}, 64);
  EXPECT_CORE_STATUS(none, isa::kStatusPROGRAM_FAULT);
}

// Drives the registers directly, without CoreDriver's checks.
struct RawRun {
  uint32_t status, haltPc, faultInfo;
};
RawRun rawRun(HlsBackend& backend, uint64_t prog, uint32_t progSize, uint64_t data, uint32_t dataSize, uint64_t ctx,
              uint32_t mode) {
  writeRegister64(backend, isa::kRegPROG_ADDR, prog);
  backend.writeRegister(isa::kRegPROG_SIZE, progSize);
  writeRegister64(backend, isa::kRegDATA_ADDR, data);
  backend.writeRegister(isa::kRegDATA_SIZE, dataSize);
  writeRegister64(backend, isa::kRegCTX_ADDR, ctx);
  backend.writeRegister(isa::kRegMODE, mode);
  backend.writeRegister(isa::kRegAP_CTRL, isa::kAP_START);
  EXPECT_EQ(backend.waitDone(std::chrono::seconds(10)), WaitOutcome::DONE);
  backend.readRegister(isa::kRegAP_CTRL);
  return {backend.readRegister(isa::kRegSTATUS), backend.readRegister(isa::kRegHALT_PC),
          backend.readRegister(isa::kRegFAULT_INFO)};
}

TEST(HlsFaults, BadProgramSizeBadContextAndBusErrors) {
  HlsBackend backend(smallDevice());
  const std::vector<uint64_t> code = {insn::halt(), insn::halt(), insn::halt()};
  const uint64_t prog = *backend.allocate(64 * 1024 + 64);
  ASSERT_TRUE(backend.copyToDevice(prog, code.data(), 24).isOk());
  const uint64_t data = *backend.allocate(64);
  const uint64_t ctx = *backend.allocate(isa::kCONTEXT_BYTES);
  const std::vector<uint8_t> zeros(isa::kCONTEXT_BYTES, 0);
  ASSERT_TRUE(backend.copyToDevice(ctx, zeros.data(), zeros.size()).isOk());

  EXPECT_EQ(rawRun(backend, prog, 24, data, 64, ctx, 0).status, isa::kStatusDONE);
  RawRun r = rawRun(backend, prog, 20, data, 64, ctx, 0);
  EXPECT_EQ(r.status, isa::kStatusPROGRAM_FAULT);
  EXPECT_EQ(r.faultInfo, 20u);
  r = rawRun(backend, prog, (isa::kMAX_PROGRAM_INSTRUCTIONS + 1) * 8, data, 64, ctx, 0);
  EXPECT_EQ(r.status, isa::kStatusPROGRAM_FAULT);
  // MODE.RESUME on an area that holds no context.
  r = rawRun(backend, prog, 24, data, 64, ctx, isa::kModeResume);
  EXPECT_EQ(r.status, isa::kStatusBAD_CONTEXT);
  EXPECT_EQ(nnapiStatusOf(r.status), ErrorStatus::GENERAL_FAILURE);
  // Regions the memory system cannot serve.
  r = rawRun(backend, prog, 24, 0, 64, ctx, 0);
  EXPECT_EQ(r.status, isa::kStatusBUS_ERROR);
  r = rawRun(backend, prog, 24, data + 2, 64, ctx, 0);
  EXPECT_EQ(r.status, isa::kStatusBUS_ERROR);
  EXPECT_EQ(r.faultInfo, static_cast<uint32_t>(data + 2));
  r = rawRun(backend, uint64_t{1} << 40, 24, data, 64, ctx, 0);
  EXPECT_EQ(r.status, isa::kStatusBUS_ERROR);
  r = rawRun(backend, prog, 24, data, 0xFFFFFFF0u, ctx, 0);
  EXPECT_EQ(r.status, isa::kStatusBUS_ERROR);
  // The device is fine afterwards.
  EXPECT_EQ(rawRun(backend, prog, 24, data, 64, ctx, 0).status, isa::kStatusDONE);
}

}  // namespace
}  // namespace nnfab::fabric::test
