// What the entry points share: the casts between NNAPI's opaque handles and
// nnfab's objects. (The header gives the 62 functions default visibility in
// this hidden-visibility library; the version script libneuralnetworks.map
// then exports exactly those names.)
#pragma once

#include <android/NeuralNetworks.h>

#include "capi/compilation.h"
#include "capi/event.h"
#include "capi/execution.h"
#include "capi/memory.h"
#include "capi/model_builder.h"

namespace nnfab::capi {

template <typename T> struct HandleOf;
template <> struct HandleOf<ANeuralNetworksModel> { using type = ModelBuilder; };
template <> struct HandleOf<ANeuralNetworksCompilation> { using type = Compilation; };
template <> struct HandleOf<ANeuralNetworksExecution> { using type = Execution; };
template <> struct HandleOf<ANeuralNetworksEvent> { using type = Event; };
template <> struct HandleOf<ANeuralNetworksMemory> { using type = Memory; };
template <> struct HandleOf<ANeuralNetworksMemoryDesc> { using type = MemoryDesc; };
template <> struct HandleOf<ANeuralNetworksBurst> { using type = Burst; };

template <typename H>
typename HandleOf<H>::type* object(H* handle) {
  return reinterpret_cast<typename HandleOf<H>::type*>(handle);
}
template <typename H>
const typename HandleOf<H>::type* object(const H* handle) {
  return reinterpret_cast<const typename HandleOf<H>::type*>(handle);
}
template <typename H>
H* handle(typename HandleOf<H>::type* object) {
  return reinterpret_cast<H*>(object);
}

}  // namespace nnfab::capi
