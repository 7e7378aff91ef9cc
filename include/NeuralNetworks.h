/* The spelling AOSP's platform code and tests use; the header is
 * <android/NeuralNetworks.h>. */
#include "android/NeuralNetworks.h"
