# SimPgo.TrainingIsDeterministic (tests/sim/CMakeLists.txt): runs
# sim_pgo_train from no profile and checks that it leaves the profile the
# build copied next to nnfab_rtl_models' unity object, byte for byte.
#   cmake -DTRAINER=... -DTRAIN_PROFILE=... -DUSED_PROFILE=... -P pgo_determinism.cmake
if(NOT EXISTS "${USED_PROFILE}")
  message(FATAL_ERROR "no profile at ${USED_PROFILE}: build the models first")
endif()
file(REMOVE "${TRAIN_PROFILE}")
execute_process(COMMAND "${TRAINER}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "sim_pgo_train failed: ${rc}")
endif()
if(NOT EXISTS "${TRAIN_PROFILE}")
  message(FATAL_ERROR "sim_pgo_train left no profile at ${TRAIN_PROFILE}")
endif()
file(SHA256 "${TRAIN_PROFILE}" again)
file(SHA256 "${USED_PROFILE}" used)
if(NOT again STREQUAL used)
  message(FATAL_ERROR "a second training run left another profile (${again}) than the build's (${used}): "
                      "the training is not deterministic")
endif()
message(STATUS "the training run left the build's profile again (${used})")
