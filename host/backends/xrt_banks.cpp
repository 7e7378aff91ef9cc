#include "backends/xrt_banks.h"

#include <algorithm>
#include <iterator>

#include <fmt/format.h>

namespace nnfab::backends {
namespace {

bool inside(const XrtMemory& inner, const XrtMemory& outer) {
  return inner.base >= outer.base && inner.bytes <= outer.bytes && inner.base - outer.base <= outer.bytes - inner.bytes;
}

// A used memory that holds no other used one (of two with the same range,
// the lower index is the bank).
bool isBank(const XrtMemory& m, const std::vector<XrtMemory>& memories) {
  if (!m.used || m.bytes == 0) return false;
  return std::none_of(memories.begin(), memories.end(), [&](const XrtMemory& o) {
    if (!o.used || o.bytes == 0 || o.index == m.index || !inside(o, m)) return false;
    const bool same = o.base == m.base && o.bytes == m.bytes;
    return !same || o.index < m.index;
  });
}

std::vector<int32_t> intersect(const std::vector<int32_t>& x, const std::vector<int32_t>& y) {
  std::vector<int32_t> out;
  std::set_intersection(x.begin(), x.end(), y.begin(), y.end(), std::back_inserter(out));
  return out;
}

std::string tagOf(int32_t index, const std::vector<std::string>& tags) {
  if (index >= 0 && static_cast<size_t>(index) < tags.size() && !tags[index].empty()) return tags[index];
  return fmt::format("memory {}", index);
}

std::string listBanks(const std::vector<int32_t>& banks, const std::vector<std::string>& tags) {
  if (banks.empty()) return "no bank";
  std::string out;
  for (int32_t b : banks) out += (out.empty() ? "" : ", ") + tagOf(b, tags);
  return out;
}

}  // namespace

std::vector<int32_t> banksReached(const std::vector<int32_t>& connected, const std::vector<XrtMemory>& memories) {
  std::vector<int32_t> out;
  for (int32_t c : connected) {
    const auto group = std::find_if(memories.begin(), memories.end(), [&](const XrtMemory& m) { return m.index == c; });
    if (group == memories.end() || !group->used || group->bytes == 0) continue;
    bool any = false;
    for (const XrtMemory& m : memories) {
      if (inside(m, *group) && isBank(m, memories)) {
        out.push_back(m.index);
        any = true;
      }
    }
    // A group whose banks the topology marks unused: allocate in the group
    // itself (its windows then share it; correct, slower).
    if (!any) out.push_back(c);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

Result<XrtWindowBanks> chooseWindowBanks(const XrtPortBanks& ports) {
  auto sorted = [](std::vector<int32_t> v) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    return v;
  };
  const auto prog = sorted(ports.prog), data = sorted(ports.data), srcb = sorted(ports.srcb), dst = sorted(ports.dst);
  XrtWindowBanks w;
  w.common = intersect(intersect(data, srcb), dst);
  if (w.common.empty()) {
    return invalidArgument(fmt::format(
        "the data ports reach no memory bank in common (m_axi_data: {}; m_axi_srcb: {}; m_axi_dst: {}): every data "
        "port must reach every window of the data region (docs/isa.md \"Memory model\"); connect all three to the "
        "same banks (docs/deploy.md \"Data ports\")",
        listBanks(data, ports.tags), listBanks(srcb, ports.tags), listBanks(dst, ports.tags)));
  }
  const auto progAndData = intersect(prog, w.common);
  if (progAndData.empty()) {
    return invalidArgument(fmt::format(
        "m_axi_prog ({}) reaches none of the banks common to the data ports ({}): the program, the context and "
        "window A of the data region share one bank (docs/deploy.md \"Data ports\")",
        listBanks(prog, ports.tags), listBanks(w.common, ports.tags)));
  }
  w.a = progAndData.front();
  // B and D: a bank nobody else uses yet, else one A does not use, else A's.
  auto pick = [&](std::initializer_list<int32_t> taken) {
    for (int32_t b : w.common) {
      if (std::find(taken.begin(), taken.end(), b) == taken.end()) return b;
    }
    for (int32_t b : w.common) {
      if (b != w.a) return b;
    }
    return w.a;
  };
  w.b = pick({w.a});
  w.d = pick({w.a, w.b});
  return w;
}

std::string describeWindowBanks(const XrtWindowBanks& windows, const std::vector<std::string>& tags) {
  return fmt::format("window A in {}, B in {}, D in {}", tagOf(windows.a, tags), tagOf(windows.b, tags),
                     tagOf(windows.d, tags));
}

std::string windowSharingNote(const XrtWindowBanks& windows, const std::vector<std::string>& tags) {
  if (windows.distinct() == 3) return "";
  return fmt::format(
      "the three data ports reach {} common memory bank(s) ({}): {}; the vector engine's operands and result share "
      "a bank's bandwidth (correct, slower; docs/deploy.md \"Data ports\")",
      windows.common.size(), listBanks(windows.common, tags), describeWindowBanks(windows, tags));
}

}  // namespace nnfab::backends
