// nnfab-hwemu-device against a fake host: this test plays XRT's hw_emu shim
// (listens on /tmp/$USER/$EMULATION_SOCKETID, starts the device process,
// sends calls framed as the shim does) and checks the answers: the core's
// registers through the RTL, memory copies, a program the core runs
// between calls, a clean close, and malformed or hostile input ending the
// process with a message rather than a hang.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>
#include <xcl_macros.h>

#include <chrono>
#include <cstring>
#include <string>
#include <thread>

#include "fabric/insn.h"
#include "hwemu_wire.h"
#include "nnfab_isa.h"

namespace nnfab::hwemu {
namespace {

// Two banks of 16 MiB with a gap between them, as the emulation xclbin lays
// its banks out (host/xclbin/emulation_xclbin.h).
constexpr uint64_t kBank = 0x4000000000;
constexpr uint64_t kBank2 = 0x4080000000;
constexpr uint64_t kBankBytes = 0x1000000;
constexpr uint64_t kCu = 0x1800000;

class FakeHost : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string user = "nnfab-test";
    const std::string dir = "/tmp/" + user;
    ::mkdir(dir.c_str(), 0700);
    const std::string id = "fake_" + std::to_string(::getpid()) + "_" + std::to_string(counter_++);
    path_ = dir + "/" + id;
    ::unlink(path_.c_str());
    listener_ = ::socket(AF_UNIX, SOCK_STREAM, 0);
    ASSERT_GE(listener_, 0);
    sockaddr_un a{};
    a.sun_family = AF_UNIX;
    std::strncpy(a.sun_path, path_.c_str(), sizeof a.sun_path - 1);
    ASSERT_EQ(::bind(listener_, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
    ASSERT_EQ(::listen(listener_, 1), 0);

    int err[2];
    ASSERT_EQ(::pipe(err), 0);
    child_ = ::fork();
    ASSERT_GE(child_, 0);
    if (child_ == 0) {
      ::dup2(err[1], STDERR_FILENO);
      ::close(err[0]);
      ::setenv("EMULATION_SOCKETID", id.c_str(), 1);
      ::setenv("USER", user.c_str(), 1);
      ::setenv("NNFAB_HWEMU_FRAME_TIMEOUT_MS", "500", 1);
      ::execl(NNFAB_HWEMU_DEVICE_PROGRAM, NNFAB_HWEMU_DEVICE_PROGRAM, "--bank", "0x4000000000:0x1000000", "--bank",
              "0x4080000000:0x1000000", "--cu-base", "0x1800000", "--wdb", "ignored.wdb", static_cast<char*>(nullptr));
      _exit(127);
    }
    ::close(err[1]);
    stderr_ = err[0];
    pollfd p{listener_, POLLIN, 0};
    ASSERT_EQ(::poll(&p, 1, 30000), 1) << "the device process never connected";
    fd_ = ::accept(listener_, nullptr, nullptr);
    ASSERT_GE(fd_, 0);
  }

  void TearDown() override {
    if (fd_ >= 0) ::close(fd_);
    if (child_ > 0 && !exited_) {
      ::kill(child_, SIGKILL);
      ::waitpid(child_, nullptr, 0);
    }
    if (stderr_ >= 0) ::close(stderr_);
    if (listener_ >= 0) ::close(listener_);
    ::unlink(path_.c_str());
  }

  void sendRaw(const std::string& bytes) {
    ASSERT_EQ(::write(fd_, bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
  }

  std::string readExactly(size_t n) {
    std::string out(n, '\0');
    size_t got = 0;
    while (got < n) {
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, 10000) != 1) break;
      const ssize_t r = ::read(fd_, out.data() + got, n - got);
      if (r <= 0) break;
      got += static_cast<size_t>(r);
    }
    out.resize(got);
    return out;
  }

  // One call as the shim frames it, without waiting for an answer.
  void send(uint32_t api, const Encoder& message) {
    sendRaw(encodeCallHeader({message.data().size(), api}) + message.data());
  }

  // One call; the decoded response.
  Message call(uint32_t api, const Encoder& message) {
    send(api, message);
    std::string error;
    const auto size = decodeResponseHeader(readExactly(kResponseHeaderBytes), &error);
    EXPECT_TRUE(size) << "no response header to call " << api << ": " << error;
    if (!size) return {};
    const auto m = decode(readExactly(*size), &error);
    EXPECT_TRUE(m) << error;
    return m.value_or(Message{});
  }

  uint32_t readRegister(uint32_t offset) {
    const Message r = call(xclReadAddrKernelCtrl_n, Encoder().varint(2, kCu + offset).varint(3, 4));
    EXPECT_EQ(r.number(1), 1u);
    uint32_t v = 0;
    if (r.data(2).size() == 4) std::memcpy(&v, r.data(2).data(), 4);
    return v;
  }

  void writeRegister(uint32_t offset, uint32_t value) {
    const std::string data(reinterpret_cast<const char*>(&value), 4);
    EXPECT_EQ(call(xclWriteAddrKernelCtrl_n, Encoder().varint(2, kCu + offset).varint(3, 4).bytes(4, data)).number(1), 1u);
  }

  void writeAddress(uint32_t offset, uint64_t address) {
    writeRegister(offset, static_cast<uint32_t>(address));
    writeRegister(offset + 4, static_cast<uint32_t>(address >> 32));
  }

  // Runs li r1, 1234; stw r1 -> data[0]; halt, the program at the start of
  // the first bank, the data region at `data`: the core's status at its stop.
  uint32_t runStoreAt(uint64_t data) {
    const uint64_t code[] = {fabric::insn::li(1, 1234), fabric::insn::stw(1, 0, 0), fabric::insn::halt()};
    const std::string program(reinterpret_cast<const char*>(code), sizeof code);
    call(xclWriteAddrSpaceDeviceRam_n, Encoder().varint(2, kBank).varint(3, program.size()).bytes(4, program));
    writeAddress(isa::kRegPROG_ADDR, kBank);
    writeAddress(isa::kRegDATA_ADDR, data);
    writeAddress(isa::kRegCTX_ADDR, kBank + 0x800);
    writeRegister(isa::kRegPROG_SIZE, static_cast<uint32_t>(program.size()));
    writeRegister(isa::kRegDATA_SIZE, 64);
    writeRegister(isa::kRegAP_CTRL, isa::kAP_START);
    uint32_t ctrl = 0;
    for (int i = 0; i < 1000 && (ctrl & isa::kAP_DONE) == 0; ++i) ctrl = readRegister(isa::kRegAP_CTRL);
    EXPECT_NE(ctrl & isa::kAP_DONE, 0u) << "the core never finished";
    return readRegister(isa::kRegSTATUS);
  }

  // The device's exit status (-1 if it did not exit within `seconds`).
  int exitStatus(int seconds = 10) {
    for (int i = 0; i < seconds * 100; ++i) {
      int status = 0;
      if (::waitpid(child_, &status, WNOHANG) == child_) {
        exited_ = true;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return -1;
  }

  std::string childStderr() {
    std::string out;
    char buf[4096];
    ::fcntl(stderr_, F_SETFL, O_NONBLOCK);
    for (ssize_t n; (n = ::read(stderr_, buf, sizeof buf)) > 0;) out.append(buf, static_cast<size_t>(n));
    return out;
  }

  static inline int counter_ = 0;
  std::string path_;
  int listener_ = -1, fd_ = -1, stderr_ = -1;
  pid_t child_ = -1;
  bool exited_ = false;
};

TEST_F(FakeHost, RegistersAreTheCoresThroughTheRtl) {
  EXPECT_EQ(readRegister(isa::kRegID), isa::kCORE_ID);
  EXPECT_EQ(readRegister(isa::kRegISA_VERSION), isa::kIsaVersion);
  EXPECT_NE(readRegister(isa::kRegAP_CTRL) & isa::kAP_IDLE, 0u);
  writeRegister(isa::kRegPROG_SIZE, 0x40);
  EXPECT_EQ(readRegister(isa::kRegPROG_SIZE), 0x40u);
  EXPECT_EQ(call(xclClose_n, Encoder()).number(1), 1u);
  EXPECT_EQ(exitStatus(), 0) << childStderr();
}

TEST_F(FakeHost, CopiesLandAtAddressPlusSeekAndComeBack) {
  EXPECT_EQ(call(xclSetEnvironment_n, Encoder()).number(1), 1u);
  const Message alloc = call(xclAllocDeviceBuffer_n, Encoder().varint(1, kBank + 0x1000).varint(2, 4096));
  EXPECT_EQ(alloc.number(1), 1u);
  EXPECT_TRUE(alloc.has(2));
  EXPECT_EQ(alloc.data(2), "");  // no file: the buffer stays in the host's memory
  std::string payload(256, '\0');
  for (size_t i = 0; i < payload.size(); ++i) payload[i] = static_cast<char>(i * 7);
  const Message h2d = call(xclCopyBufferHost2Device_n, Encoder()
                                                           .bytes(2, "handle")
                                                           .varint(3, kBank + 0x1000)
                                                           .bytes(4, payload)
                                                           .varint(5, payload.size())
                                                           .varint(6, 0x40));
  EXPECT_EQ(h2d.number(1), payload.size());
  const Message d2h = call(xclCopyBufferDevice2Host_n, Encoder()
                                                           .bytes(2, "handle")
                                                           .bytes(3, std::string(256, '\0'))
                                                           .varint(4, kBank + 0x1000)
                                                           .varint(5, 256)
                                                           .varint(6, 0x40));
  EXPECT_EQ(d2h.number(1), 256u);
  EXPECT_EQ(d2h.data(2), payload);
  // The raw device-RAM accesses see the same bytes.
  const Message raw = call(xclReadAddrSpaceDeviceRam_n, Encoder().varint(2, kBank + 0x1040).varint(3, 4));
  EXPECT_EQ(raw.data(2), payload.substr(0, 4));
  EXPECT_EQ(call(xclFreeDeviceBuffer_n, Encoder().varint(1, kBank + 0x1000)).number(1), 1u);
  EXPECT_EQ(call(xclClose_n, Encoder()).number(1), 1u);
  EXPECT_EQ(exitStatus(), 0);
}

TEST_F(FakeHost, TheCoreRunsAProgramBetweenCalls) {
  // li r1, 1234; stw r1 -> data[0]; halt: program at bank + 0, data at bank + 0x1000.
  const uint64_t code[] = {fabric::insn::li(1, 1234), fabric::insn::stw(1, 0, 0), fabric::insn::halt()};
  const std::string program(reinterpret_cast<const char*>(code), sizeof code);
  call(xclWriteAddrSpaceDeviceRam_n, Encoder().varint(2, kBank).varint(3, program.size()).bytes(4, program));
  writeRegister(isa::kRegPROG_ADDR, static_cast<uint32_t>(kBank));
  writeRegister(isa::kRegPROG_ADDR + 4, static_cast<uint32_t>(kBank >> 32));
  writeRegister(isa::kRegDATA_ADDR, static_cast<uint32_t>(kBank + 0x1000));
  writeRegister(isa::kRegDATA_ADDR + 4, static_cast<uint32_t>(kBank >> 32));
  writeRegister(isa::kRegCTX_ADDR, static_cast<uint32_t>(kBank + 0x2000));
  writeRegister(isa::kRegCTX_ADDR + 4, static_cast<uint32_t>(kBank >> 32));
  writeRegister(isa::kRegPROG_SIZE, static_cast<uint32_t>(program.size()));
  writeRegister(isa::kRegDATA_SIZE, 64);
  writeRegister(isa::kRegAP_CTRL, isa::kAP_START);
  uint32_t ctrl = 0;
  for (int i = 0; i < 1000 && (ctrl & isa::kAP_DONE) == 0; ++i) ctrl = readRegister(isa::kRegAP_CTRL);
  ASSERT_NE(ctrl & isa::kAP_DONE, 0u) << "the core never finished";
  EXPECT_EQ(readRegister(isa::kRegSTATUS), static_cast<uint32_t>(isa::kStatusDONE));
  EXPECT_EQ(readRegister(isa::kRegINSTRET), 3u);
  const Message d = call(xclReadAddrSpaceDeviceRam_n, Encoder().varint(2, kBank + 0x1000).varint(3, 4));
  int32_t value = 0;
  ASSERT_EQ(d.data(2).size(), 4u);
  std::memcpy(&value, d.data(2).data(), 4);
  EXPECT_EQ(value, 1234);
  call(xclClose_n, Encoder());
  EXPECT_EQ(exitStatus(), 0);
}

// The device serves every bank: copies to the second land there and come
// back, and the core reads its program from one bank and writes its data in
// the other.
TEST_F(FakeHost, EveryBankIsMemoryOfItsOwn) {
  std::string payload(128, '\0');
  for (size_t i = 0; i < payload.size(); ++i) payload[i] = static_cast<char>(i * 3 + 1);
  call(xclWriteAddrSpaceDeviceRam_n, Encoder().varint(2, kBank2 + 0x100).varint(3, payload.size()).bytes(4, payload));
  EXPECT_EQ(call(xclReadAddrSpaceDeviceRam_n, Encoder().varint(2, kBank2 + 0x100).varint(3, 128)).data(2), payload);
  // The same offset in the first bank is another byte.
  EXPECT_EQ(call(xclReadAddrSpaceDeviceRam_n, Encoder().varint(2, kBank + 0x100).varint(3, 4)).data(2),
            std::string(4, '\0'));
  EXPECT_EQ(runStoreAt(kBank2 + 0x2000), static_cast<uint32_t>(isa::kStatusDONE));
  const Message d = call(xclReadAddrSpaceDeviceRam_n, Encoder().varint(2, kBank2 + 0x2000).varint(3, 4));
  int32_t value = 0;
  ASSERT_EQ(d.data(2).size(), 4u);
  std::memcpy(&value, d.data(2).data(), 4);
  EXPECT_EQ(value, 1234);
  call(xclClose_n, Encoder());
  EXPECT_EQ(exitStatus(), 0);
}

// A core access between the banks is an error response (BUS_ERROR), not a
// crash: the device goes on serving, and the next run is right.
TEST_F(FakeHost, ACoreAccessOutsideEveryBankIsABusError) {
  EXPECT_EQ(runStoreAt(kBank + kBankBytes + 0x1000), static_cast<uint32_t>(isa::kStatusBUS_ERROR));
  EXPECT_EQ(readRegister(isa::kRegID), isa::kCORE_ID);
  EXPECT_EQ(runStoreAt(kBank + 0x3000), static_cast<uint32_t>(isa::kStatusDONE));
  call(xclClose_n, Encoder());
  EXPECT_EQ(exitStatus(), 0) << childStderr();
}

TEST_F(FakeHost, AMalformedFrameEndsTheProcessWithAMessage) {
  sendRaw(std::string(kCallHeaderBytes, '\xff'));
  EXPECT_EQ(exitStatus(), 3);
  EXPECT_NE(childStderr().find("malformed call header"), std::string::npos);
}

TEST_F(FakeHost, AMalformedMessageEndsTheProcessWithAMessage) {
  sendRaw(encodeCallHeader({2, xclReadAddrKernelCtrl_n}) + std::string("\x10\xff", 2));  // varint cut short
  EXPECT_EQ(exitStatus(), 3);
  EXPECT_NE(childStderr().find("malformed call 11"), std::string::npos);
}

TEST_F(FakeHost, AccessesOutsideEveryBankOrTheWindowAreRefused) {
  send(xclReadAddrSpaceDeviceRam_n, Encoder().varint(2, kBank + kBankBytes).varint(3, 4));
  EXPECT_EQ(exitStatus(), 3);
  EXPECT_NE(childStderr().find("outside every bank"), std::string::npos);
}

TEST_F(FakeHost, ACopyRunningFromOneBankPastItsEndIsRefused) {
  send(xclCopyBufferHost2Device_n,
       Encoder().bytes(2, "h").varint(3, kBank2 + kBankBytes - 2).bytes(4, std::string(4, 'x')).varint(5, 4).varint(6, 0));
  EXPECT_EQ(exitStatus(), 3);
  EXPECT_NE(childStderr().find("outside every bank"), std::string::npos);
}

TEST_F(FakeHost, ARegisterAddressOutsideTheComputeUnitIsRefused) {
  send(xclReadAddrKernelCtrl_n, Encoder().varint(2, kCu + 0x1000).varint(3, 4));
  EXPECT_EQ(exitStatus(), 3);
  EXPECT_NE(childStderr().find("outside the compute unit"), std::string::npos);
}

TEST_F(FakeHost, AHostThatGoesAwayEndsTheProcess) {
  ::close(fd_);
  fd_ = -1;
  EXPECT_EQ(exitStatus(), 3);
  EXPECT_NE(childStderr().find("without xclClose"), std::string::npos);
}

TEST_F(FakeHost, AHostThatStopsMidFrameDoesNotHangTheDevice) {
  // Half a header, then silence: the device gives up after its frame
  // timeout (500 ms here, 60 s by default) instead of waiting forever.
  sendRaw(std::string("\x09\x01", 2));
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(exitStatus(), 3);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  EXPECT_NE(childStderr().find("stopped in the middle of a frame"), std::string::npos);
}

TEST_F(FakeHost, AHostThatClosesMidFrameEndsTheProcess) {
  sendRaw(encodeCallHeader({100, xclCopyBufferHost2Device_n}) + std::string(10, '\0'));
  ::close(fd_);
  fd_ = -1;
  EXPECT_EQ(exitStatus(), 3);
  EXPECT_NE(childStderr().find("closed the socket in the middle of a frame"), std::string::npos);
}

}  // namespace
}  // namespace nnfab::hwemu
