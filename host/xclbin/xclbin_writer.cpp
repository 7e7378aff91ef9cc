#include "xclbin/xclbin_writer.h"

#include <xclbin.h>

#include <chrono>
#include <cstddef>
#include <cstring>
#include <random>

#include <fmt/format.h>

namespace nnfab::xclbin {
namespace {

struct Section {
  axlf_section_kind kind;
  const char* name;
  std::string payload;
};

template <typename T>
void append(std::string& out, const T& value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof(T));
}

// A count followed by `count` records: the layout of ip_layout,
// mem_topology and connectivity, whose structs declare the first record
// inline at `firstRecord` (8 after the count for 8-byte aligned records,
// 4 for connectivity's int32 triples).
template <typename T>
std::string countedArray(const std::vector<T>& records, size_t firstRecord) {
  std::string out;
  append(out, static_cast<int32_t>(records.size()));
  out.resize(firstRecord, '\0');
  for (const T& r : records) append(out, r);
  return out;
}

bool copyName(unsigned char* dst, size_t capacity, const std::string& name) {
  if (name.size() >= capacity) return false;
  std::memset(dst, 0, capacity);
  std::memcpy(dst, name.data(), name.size());
  return true;
}

}  // namespace

Result<std::string> buildXclbin(const XclbinSpec& spec) {
  const KernelDescription& k = spec.kernel;
  if (k.name.empty() || k.args.empty()) return invalidArgument("xclbin: the kernel has no name or no arguments");
  if (spec.banks.empty()) return invalidArgument("xclbin: no memory bank");

  // IP_LAYOUT: one kernel compute unit. A user_managed kernel is AP_CTRL_NONE
  // to XRT (its scheduler never starts it; xrt::ip drives the registers).
  ip_data ip{};
  ip.m_type = IP_KERNEL;
  const uint32_t control = k.hwControlProtocol == "user_managed" ? AP_CTRL_NONE
                           : k.hwControlProtocol == "ap_ctrl_chain" ? AP_CTRL_CHAIN
                                                                    : AP_CTRL_HS;
  ip.properties = (control << IP_CONTROL_SHIFT) | (k.interrupt ? IP_INT_ENABLE_MASK : 0u);
  ip.m_base_address = spec.cuBase;
  if (!copyName(ip.m_name, sizeof ip.m_name, k.name + ":" + spec.cuName)) {
    return invalidArgument("xclbin: the compute unit's name is longer than 63 characters");
  }

  std::vector<mem_data> mems;
  for (const MemoryBank& b : spec.banks) {
    mem_data m{};
    m.m_type = b.tag.rfind("HBM", 0) == 0 ? MEM_HBM : MEM_DDR4;
    m.m_used = 1;
    if (b.bytes == 0 || b.bytes % 1024 != 0) return invalidArgument("xclbin: a bank's size is not a multiple of 1 KiB");
    m.m_size = b.bytes / 1024;
    m.m_base_address = b.base;
    if (!copyName(m.m_tag, sizeof m.m_tag, b.tag)) return invalidArgument("xclbin: bank tag " + b.tag + " is too long");
    mems.push_back(m);
  }

  // CONNECTIVITY: every global pointer argument to each bank of its port.
  std::vector<connection> links;
  for (const KernelArg& a : k.args) {
    if (a.addressQualifier != 1) continue;
    const auto it = spec.portBanks.find(a.port);
    const std::vector<size_t> banks = it == spec.portBanks.end() ? std::vector<size_t>{0} : it->second;
    if (banks.empty()) return invalidArgument(fmt::format("xclbin: port {} is connected to no bank", a.port));
    for (const size_t bank : banks) {
      if (bank >= spec.banks.size()) {
        return invalidArgument(fmt::format("xclbin: port {} maps to bank {}, which does not exist", a.port, bank));
      }
      links.push_back(connection{static_cast<int32_t>(a.id), 0, static_cast<int32_t>(bank)});
    }
  }

  std::vector<Section> sections;
  sections.push_back({EMBEDDED_METADATA, "", embeddedMetadata(k, spec.cuName, spec.cuBase, spec.platformVbnv)});
  sections.push_back({MEM_TOPOLOGY, "", countedArray(mems, offsetof(mem_topology, m_mem_data))});
  sections.push_back({IP_LAYOUT, "", countedArray(std::vector<ip_data>{ip}, offsetof(ip_layout, m_ip_data))});
  sections.push_back({CONNECTIVITY, "", countedArray(links, offsetof(connectivity, m_connection))});
  if (!spec.bitstream.empty()) sections.push_back({BITSTREAM, "", spec.bitstream});

  // Header, then the section headers (the first is inside axlf), then the
  // payloads, each 8-byte aligned.
  axlf top;
  std::memset(&top, 0, sizeof top);
  std::memcpy(top.m_magic, "xclbin2", 8);
  top.m_signature_length = -1;
  std::memset(top.reserved, 0xFF, sizeof top.reserved);
  std::memset(top.m_keyBlock, 0xFF, sizeof top.m_keyBlock);
  top.m_header.m_timeStamp = static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count());
  top.m_uniqueId = top.m_header.m_timeStamp;
  top.m_header.m_versionMajor = 2;
  top.m_header.m_versionMinor = 13;
  top.m_header.m_mode = spec.mode == XclbinMode::HW_EMU ? XCLBIN_HW_EMU : XCLBIN_FLAT;
  if (!copyName(top.m_header.m_platformVBNV, sizeof top.m_header.m_platformVBNV, spec.platformVbnv)) {
    return invalidArgument("xclbin: platform name longer than 63 characters");
  }
  std::array<uint8_t, 16> uuid = spec.uuid;
  if (uuid == std::array<uint8_t, 16>{}) {
    std::random_device rd;
    for (auto& b : uuid) b = static_cast<uint8_t>(rd());
    uuid[6] = static_cast<uint8_t>((uuid[6] & 0x0F) | 0x40);  // RFC 4122 version 4
    uuid[8] = static_cast<uint8_t>((uuid[8] & 0x3F) | 0x80);
  }
  std::memcpy(top.m_header.uuid, uuid.data(), uuid.size());
  top.m_header.m_numSections = static_cast<uint32_t>(sections.size());

  const size_t headerBytes = sizeof(axlf) + (sections.size() - 1) * sizeof(axlf_section_header);
  auto align8 = [](size_t n) { return (n + 7) & ~size_t{7}; };
  std::vector<axlf_section_header> headers;
  size_t offset = align8(headerBytes);
  for (const Section& s : sections) {
    axlf_section_header h{};
    h.m_sectionKind = s.kind;
    std::strncpy(h.m_sectionName, s.name, sizeof h.m_sectionName - 1);
    h.m_sectionOffset = offset;
    h.m_sectionSize = s.payload.size();
    headers.push_back(h);
    offset = align8(offset + s.payload.size());
  }
  top.m_header.m_length = offset;
  top.m_sections[0] = headers[0];

  std::string out;
  out.reserve(offset);
  append(out, top);
  for (size_t i = 1; i < headers.size(); ++i) append(out, headers[i]);
  for (size_t i = 0; i < sections.size(); ++i) {
    out.resize(headers[i].m_sectionOffset, '\0');
    out += sections[i].payload;
  }
  out.resize(offset, '\0');
  return out;
}

}  // namespace nnfab::xclbin
