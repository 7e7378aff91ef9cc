// Models that exercise partitioning: INT32/BOOL8 parts a fabric runs mixed
// with FLOAT32 parts it does not, control flow of every placement.
#pragma once

#include <cstdint>

#include "model/model.h"

namespace nnfab::testing {

// Inputs a (INT32 [3]), f (FLOAT32 [3]). t = a + a; u = t * a; g = f + f;
// v = u - t. Outputs v, g. Fabric: ops 0, 1 and 3; CPU: op 2.
Model mixedModel();

// while (i < n) { i = i + 1; f = f * 2 } from i = 0; inputs n (INT32 [1]),
// f (FLOAT32 [2]); outputs i, f. The body's ADD runs on a fabric, its MUL
// does not: the WHILE is interpreted.
Model mixedLoop();

// mixedLoop with f FLOAT32 [1]: every value has one element, so the CPU
// executor runs the whole loop as register code (docs/cpu-executor.md).
Model scalarMixedLoop();

// As mixedLoop, but the condition is i >= 0 and i never grows: it never ends.
Model infiniteMixedLoop();

// IF (c) then x + 1 else x - 1 on INT32 [2]: inputs c (BOOL8 [1]), x.
// `unknownOutput`: the IF's output is declared with unknown dimensions.
Model intIf(bool unknownOutput = false);

// while (i < n) { i = i + 1; f = f + f } where i and n are FLOAT32: nothing
// for a fabric. Inputs n, f (FLOAT32 [1]); outputs i, f.
Model floatLoop();

// `depth` nested WHILEs, each running once with an INT32 counter; the
// innermost body also doubles a FLOAT32 value. Inputs x (INT32 [1]), f
// (FLOAT32 [1]); outputs x + 1, 2f.
Model deepMixedChain(uint32_t depth);

// `count` chained INT32 [1] additions (x + 1 + 1 ...): more instructions than
// a program may have once count > MAX_PROGRAM_INSTRUCTIONS.
Model longChain(uint32_t count);

}  // namespace nnfab::testing
