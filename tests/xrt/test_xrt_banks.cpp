// Which bank of a card holds which window of the data region
// (backends/xrt_banks.h): three banks common to the data ports give one
// window each; two or one are shared; data ports without a common bank, or a
// program port without one of theirs, are refused with the ports named; a
// port connected to a Vitis group (HBM[0:2]) reaches each bank of it.
#include <gtest/gtest.h>

#include "backends/xrt_banks.h"

namespace nnfab::backends {
namespace {

using fabric::DataWindow;

const std::vector<std::string> kTags = {"HBM[0]", "HBM[1]", "HBM[2]", "HBM[3]", "DDR[0]"};

XrtPortBanks ports(std::vector<int32_t> prog, std::vector<int32_t> data, std::vector<int32_t> srcb,
                   std::vector<int32_t> dst) {
  return XrtPortBanks{std::move(prog), std::move(data), std::move(srcb), std::move(dst), kTags};
}

TEST(XrtWindowBanks, ThreeCommonBanksGiveEachWindowItsOwn) {
  auto w = chooseWindowBanks(ports({0}, {0, 1, 2}, {0, 1, 2}, {0, 1, 2}));
  ASSERT_TRUE(w.isOk()) << w.status().message();
  EXPECT_EQ(w->a, 0);
  EXPECT_EQ(w->b, 1);
  EXPECT_EQ(w->d, 2);
  EXPECT_EQ(w->distinct(), 3);
  EXPECT_EQ(w->of(DataWindow::A), 0);
  EXPECT_EQ(w->of(DataWindow::B), 1);
  EXPECT_EQ(w->of(DataWindow::D), 2);
  EXPECT_EQ(describeWindowBanks(*w, kTags), "window A in HBM[0], B in HBM[1], D in HBM[2]");
  EXPECT_EQ(windowSharingNote(*w, kTags), "");  // nothing to say
}

TEST(XrtWindowBanks, WindowAGoesWhereTheProgramPortReaches) {
  // prog reaches only HBM[2]: A there (program, context and A share a bank),
  // B and D in the two others.
  auto w = chooseWindowBanks(ports({2, 3}, {0, 1, 2}, {0, 1, 2}, {0, 1, 2, 3}));
  ASSERT_TRUE(w.isOk()) << w.status().message();
  EXPECT_EQ(w->a, 2);
  EXPECT_EQ(w->b, 0);
  EXPECT_EQ(w->d, 1);
  EXPECT_EQ(w->common, (std::vector<int32_t>{0, 1, 2}));
}

TEST(XrtWindowBanks, TwoCommonBanksPutBAndDTogetherAwayFromA) {
  // HBM[3] is reached by m_axi_data and m_axi_dst only: not a candidate.
  auto w = chooseWindowBanks(ports({0}, {0, 1, 3}, {1, 0}, {0, 1, 3}));
  ASSERT_TRUE(w.isOk()) << w.status().message();
  EXPECT_EQ(w->a, 0);
  EXPECT_EQ(w->b, 1);
  EXPECT_EQ(w->d, 1);
  EXPECT_EQ(w->distinct(), 2);
  EXPECT_EQ(windowSharingNote(*w, kTags),
            "the three data ports reach 2 common memory bank(s) (HBM[0], HBM[1]): window A in HBM[0], B in HBM[1], D "
            "in HBM[1]; the vector engine's operands and result share a bank's bandwidth (correct, slower; "
            "docs/deploy.md \"Data ports\")");
}

TEST(XrtWindowBanks, OneCommonBankIsSharedByAllWindows) {
  auto w = chooseWindowBanks(ports({4}, {4}, {4}, {4}));
  ASSERT_TRUE(w.isOk()) << w.status().message();
  EXPECT_EQ(w->a, 4);
  EXPECT_EQ(w->b, 4);
  EXPECT_EQ(w->d, 4);
  EXPECT_EQ(w->distinct(), 1);
  EXPECT_EQ(describeWindowBanks(*w, kTags), "window A in DDR[0], B in DDR[0], D in DDR[0]");
  EXPECT_NE(windowSharingNote(*w, kTags).find("1 common memory bank(s) (DDR[0])"), std::string::npos);
}

TEST(XrtWindowBanks, ADataPortReachingNoBankOfTheOthersIsRefusedByName) {
  const Status s = chooseWindowBanks(ports({0}, {0, 1, 2}, {3}, {0, 1, 2})).status();
  EXPECT_EQ(s.code(), ErrorStatus::INVALID_ARGUMENT);
  EXPECT_NE(s.message().find("the data ports reach no memory bank in common"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("m_axi_srcb: HBM[3]"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("m_axi_data: HBM[0], HBM[1], HBM[2]"), std::string::npos) << s.message();
  // A port connected to nothing at all.
  const Status none = chooseWindowBanks(ports({0}, {0}, {0}, {})).status();
  EXPECT_NE(none.message().find("m_axi_dst: no bank"), std::string::npos) << none.message();
}

TEST(XrtWindowBanks, AProgramPortReachingNoneOfTheDataBanksIsRefused) {
  const Status s = chooseWindowBanks(ports({3}, {0, 1}, {0, 1}, {0, 1})).status();
  EXPECT_EQ(s.code(), ErrorStatus::INVALID_ARGUMENT);
  EXPECT_NE(s.message().find("m_axi_prog (HBM[3]) reaches none of the banks common to the data ports (HBM[0], HBM[1])"),
            std::string::npos)
      << s.message();
}

TEST(XrtWindowBanks, AGroupOfBanksIsBrokenDownIntoItsBanks) {
  // GROUP_TOPOLOGY as Vitis writes it for sp=...:HBM[0:2]: the banks, then a
  // group entry spanning the three; a stream and an unused bank are no banks.
  const uint64_t mb = uint64_t{1} << 20;
  const std::vector<XrtMemory> memories = {
      {0, "HBM[0]", 0x0, 256 * mb, true},          {1, "HBM[1]", 256 * mb, 256 * mb, true},
      {2, "HBM[2]", 512 * mb, 256 * mb, true},     {3, "HBM[3]", 768 * mb, 256 * mb, false},
      {4, "stream", 0x0, 0, true},                 {5, "HBM[0:2]", 0x0, 768 * mb, true},
  };
  EXPECT_EQ(banksReached({5}, memories), (std::vector<int32_t>{0, 1, 2}));
  EXPECT_EQ(banksReached({0}, memories), (std::vector<int32_t>{0}));
  EXPECT_EQ(banksReached({1, 5}, memories), (std::vector<int32_t>{0, 1, 2}));
  EXPECT_TRUE(banksReached({3}, memories).empty());   // unused
  EXPECT_TRUE(banksReached({4}, memories).empty());   // a stream
  EXPECT_TRUE(banksReached({9}, memories).empty());   // no such memory
  // A group whose banks are all marked unused is one bank itself.
  const std::vector<XrtMemory> unusedBanks = {
      {0, "HBM[0]", 0x0, 256 * mb, false}, {1, "HBM[1]", 256 * mb, 256 * mb, false}, {2, "HBM[0:1]", 0x0, 512 * mb, true}};
  EXPECT_EQ(banksReached({2}, unusedBanks), (std::vector<int32_t>{2}));
  // Then a port on the group and one on HBM[0] only still share HBM[0].
  auto w = chooseWindowBanks(ports(banksReached({0}, memories), banksReached({5}, memories),
                                   banksReached({5}, memories), banksReached({5}, memories)));
  ASSERT_TRUE(w.isOk()) << w.status().message();
  EXPECT_EQ(w->distinct(), 3);
}

}  // namespace
}  // namespace nnfab::backends
