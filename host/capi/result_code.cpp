#include "capi/result_code.h"

namespace nnfab::capi {

int toResultCode(ErrorStatus status) {
  switch (status) {
    case ErrorStatus::NONE:
      return ANEURALNETWORKS_NO_ERROR;
    case ErrorStatus::DEVICE_UNAVAILABLE:
      return ANEURALNETWORKS_UNAVAILABLE_DEVICE;
    case ErrorStatus::OUTPUT_INSUFFICIENT_SIZE:
      return ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE;
    case ErrorStatus::INVALID_ARGUMENT:
      return ANEURALNETWORKS_BAD_DATA;
    case ErrorStatus::MISSED_DEADLINE_TRANSIENT:
      return ANEURALNETWORKS_MISSED_DEADLINE_TRANSIENT;
    case ErrorStatus::MISSED_DEADLINE_PERSISTENT:
      return ANEURALNETWORKS_MISSED_DEADLINE_PERSISTENT;
    case ErrorStatus::RESOURCE_EXHAUSTED_TRANSIENT:
      return ANEURALNETWORKS_RESOURCE_EXHAUSTED_TRANSIENT;
    case ErrorStatus::RESOURCE_EXHAUSTED_PERSISTENT:
      return ANEURALNETWORKS_RESOURCE_EXHAUSTED_PERSISTENT;
    case ErrorStatus::GENERAL_FAILURE:
      break;
  }
  return ANEURALNETWORKS_OP_FAILED;
}

}  // namespace nnfab::capi
