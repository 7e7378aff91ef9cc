// The NNAPI test harness's comparison rules (docs/file-formats.md,
// "Conformance test case"), shared by the conformance and differential tests.
#pragma once

#include <string>

#include "model/model.h"

namespace nnfab::testing {

// Empty when `actual` matches `expected` (dimensions and data within the
// tolerance of the expected type; `relaxed` widens float tolerance), else a
// description of the first mismatch.
std::string compareOutput(const TensorValue& expected, const TensorValue& actual, bool relaxed);

}  // namespace nnfab::testing
