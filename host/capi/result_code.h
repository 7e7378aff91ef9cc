// NNAPI result codes (the C API's ints) for nnfab's HAL ErrorStatus, the way
// the Android runtime converts a driver's status for its caller.
#pragma once

#include <android/NeuralNetworks.h>

#include "model/status.h"

namespace nnfab::capi {

int toResultCode(ErrorStatus status);
inline int toResultCode(const Status& status) { return toResultCode(status.code()); }

}  // namespace nnfab::capi
