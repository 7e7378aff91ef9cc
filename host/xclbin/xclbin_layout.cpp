#include "xclbin/xclbin_layout.h"

#include <xclbin.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>
#include <vector>

#include <fmt/format.h>

namespace nnfab::xclbin {

Status checkXclbinLayout(const std::string& path) {
  std::error_code ec;
  const auto type = std::filesystem::status(path, ec).type();
  if (ec || type == std::filesystem::file_type::not_found) {
    return invalidArgument(fmt::format("xclbin {}: cannot be read", path));
  }
  if (type != std::filesystem::file_type::regular) {
    return invalidArgument(fmt::format("xclbin {}: not a regular file", path));
  }
  const uint64_t size = std::filesystem::file_size(path, ec);
  std::ifstream in(path, std::ios::binary);
  if (ec || !in) return invalidArgument(fmt::format("xclbin {}: cannot be read", path));

  axlf top;
  std::memset(&top, 0, sizeof top);
  in.read(reinterpret_cast<char*>(&top), static_cast<std::streamsize>(std::min<uint64_t>(size, sizeof top)));
  if (size < 8 || std::string(top.m_magic, 7) != "xclbin2") {
    return invalidArgument(fmt::format("{} is not an xclbin (no xclbin2 header)", path));
  }
  if (size < sizeof top || !in) {
    return invalidArgument(
        fmt::format("xclbin {}: truncated: {} bytes, less than the axlf header's {}", path, size, sizeof top));
  }
  if (top.m_header.m_length != size) {
    return invalidArgument(fmt::format("xclbin {}: truncated or damaged: its header says {} bytes, the file has {}",
                                       path, top.m_header.m_length, size));
  }
  // The section table: the first header inside axlf, the others after it.
  const uint64_t count = top.m_header.m_numSections;
  const uint64_t room = (size - sizeof top) / sizeof(axlf_section_header) + 1;
  if (count > room) {
    return invalidArgument(fmt::format("xclbin {}: damaged: {} sections do not fit in its {} bytes", path, count, size));
  }
  std::vector<axlf_section_header> sections(count);
  if (count > 0) {
    sections[0] = top.m_sections[0];
    in.read(reinterpret_cast<char*>(sections.data() + 1),
            static_cast<std::streamsize>((count - 1) * sizeof(axlf_section_header)));
    if (!in) return invalidArgument(fmt::format("xclbin {}: cannot be read", path));
  }
  for (uint64_t i = 0; i < count; ++i) {
    const axlf_section_header& s = sections[i];
    if (s.m_sectionOffset > size || s.m_sectionSize > size - s.m_sectionOffset) {
      return invalidArgument(fmt::format(
          "xclbin {}: damaged: section {} (kind {}) at offset {}, {} bytes, runs past the end of its {} bytes", path, i,
          s.m_sectionKind, s.m_sectionOffset, s.m_sectionSize, size));
    }
  }
  return Status::ok();
}

}  // namespace nnfab::xclbin
