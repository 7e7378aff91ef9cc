// Tests build models with host/models' builder under the name testing::.
#pragma once

#include "models/model_builder.h"

namespace nnfab::testing {
using namespace nnfab::models;
}  // namespace nnfab::testing
