// Whether a file holds a whole axlf container (an xclbin): a regular file,
// the "xclbin2" magic, a header whose length is the file's, a section table
// inside the file and every section inside it. XRT's own parser
// (xrt::xclbin) trusts those sizes: handed a truncated file it copies past
// the end of its buffer (AddressSanitizer reports a heap overflow in
// xrt::xclbin_full::init_axlf), so the xrt backend checks the layout first.
#pragma once

#include <string>

#include "model/status.h"

namespace nnfab::xclbin {

// INVALID_ARGUMENT with the reason when the file is missing, not regular,
// not an xclbin, truncated or damaged; OK otherwise.
Status checkXclbinLayout(const std::string& path);

}  // namespace nnfab::xclbin
