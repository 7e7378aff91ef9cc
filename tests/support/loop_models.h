// Tests run host/models' control-flow models under the name testing::.
#pragma once

#include "models/loop_models.h"
#include "support/model_builder.h"
