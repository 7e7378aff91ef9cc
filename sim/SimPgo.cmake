# Profile-guided optimisation of the Verilated models (docs/sim.md
# "Profile-guided build, ..."): about 20 % more simulated cycles per second
# for one more compile of the models' unity translation unit and one
# training run at build time.
#
#   1. nnfab_rtl_models_train: the same sources as nnfab_rtl_models, the same
#      unity grouping, compiled with -fprofile-generate;
#   2. sim_pgo_train (sim_pgo_train.cpp and the harness) runs once on one
#      thread and leaves the unity TU's .gcda next to its object; its
#      workload is fixed in the repository, so the profile is the same on
#      every build (and ccache, which hashes it, hits);
#   3. the .gcda is copied next to nnfab_rtl_models' unity object, which is
#      compiled with -fprofile-use. Both compiles see the same source files
#      (the unity file only #includes them), so the per-function checksums
#      match. -fprofile-partial-training keeps what the training does not
#      run (the unit models of tests/rtl) optimised as without a profile.
#
# The training run takes a few seconds; the instrumented compile takes about
# as long as the models' own, before it on the build's critical path.
set(pgo_default OFF)
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_BUILD_TYPE STREQUAL "Release"
   AND NOT CMAKE_CXX_FLAGS MATCHES "-fsanitize|-fprofile|--coverage" AND NOT CMAKE_CROSSCOMPILING)
  set(pgo_default ON)
endif()
option(NNFAB_SIM_PGO "build the Verilated models with g++ profile-guided optimisation (GNU, Release)" ${pgo_default})
if(NOT NNFAB_SIM_PGO)
  return()
endif()
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  message(FATAL_ERROR "NNFAB_SIM_PGO needs g++ (its .gcda profiles); configure with -DNNFAB_SIM_PGO=OFF")
endif()

# The twin: every property that decides what the compiler sees.
get_target_property(pgo_sources nnfab_rtl_models SOURCES)
add_library(nnfab_rtl_models_train STATIC ${pgo_sources})
foreach(prop INCLUDE_DIRECTORIES COMPILE_DEFINITIONS COMPILE_OPTIONS COMPILE_FEATURES LINK_LIBRARIES
             INTERFACE_INCLUDE_DIRECTORIES INTERFACE_SYSTEM_INCLUDE_DIRECTORIES INTERFACE_LINK_LIBRARIES
             VERILATOR_COVERAGE VERILATOR_SYSTEMC VERILATOR_TRACE VERILATOR_TRACE_VCD VERILATOR_TRACE_FST
             UNITY_BUILD UNITY_BUILD_BATCH_SIZE)
  get_target_property(value nnfab_rtl_models ${prop})
  if(NOT value STREQUAL "value-NOTFOUND")
    set_property(TARGET nnfab_rtl_models_train PROPERTY ${prop} "${value}")
  endif()
endforeach()
# The C API's shared library makes nnfab_rtl_models PIC later in the
# configure (host/capi); -fPIC changes the code GCC instruments, so both are
# PIC from here on.
set_target_properties(nnfab_rtl_models nnfab_rtl_models_train PROPERTIES POSITION_INDEPENDENT_CODE ON)
add_dependencies(nnfab_rtl_models_train isa-headers)
# The profile is the same bytes on every build (and the profile-use compile
# hits ccache): -frandom-seed, else GCC stamps the instrumented object, and
# so the profile, with the compile's time; -fno-profile-values, else the
# value profiles record pointers (memcpy alignments, call targets), which
# address-space randomisation changes from run to run. Both on both
# compiles, so that they agree on every function and counter.
set(pgo_common -fno-profile-values -frandom-seed=nnfab_rtl_models)
target_compile_options(nnfab_rtl_models_train PRIVATE -fprofile-generate -fprofile-update=single ${pgo_common})

add_executable(sim_pgo_train sim_pgo_train.cpp axi_memory.cpp sim_harness.cpp sim_coverage.cpp)
target_include_directories(sim_pgo_train PRIVATE ${CMAKE_CURRENT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/host)
target_link_libraries(sim_pgo_train PRIVATE nnfab_rtl_models_train nnfab_isa fmt::fmt Threads::Threads)
target_link_options(sim_pgo_train PRIVATE -fprofile-generate)
nnfab_target_warnings(sim_pgo_train)

# CMake's names of the unity translation unit and of its object's profile.
set(pgo_unity_train ${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/nnfab_rtl_models_train.dir/Unity/unity_0_cxx.cxx)
set(pgo_unity ${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/nnfab_rtl_models.dir/Unity/unity_0_cxx.cxx)
add_custom_command(
  OUTPUT ${pgo_unity}.gcda
  # Counters add up over runs: start from none, so every build trains the same.
  COMMAND ${CMAKE_COMMAND} -E rm -f ${pgo_unity_train}.gcda
  COMMAND sim_pgo_train
  COMMAND ${CMAKE_COMMAND} -E copy ${pgo_unity_train}.gcda ${pgo_unity}.gcda
  DEPENDS sim_pgo_train
  COMMENT "Training the Verilated models for profile-guided optimisation (sim_pgo_train)"
  VERBATIM)
set_source_files_properties(${pgo_unity} PROPERTIES OBJECT_DEPENDS ${pgo_unity}.gcda)
# For the test that trains again and compares (tests/sim).
set_target_properties(sim_pgo_train PROPERTIES NNFAB_PGO_TRAIN_PROFILE ${pgo_unity_train}.gcda
                                               NNFAB_PGO_USED_PROFILE ${pgo_unity}.gcda)
target_compile_options(nnfab_rtl_models PRIVATE -fprofile-use -fprofile-partial-training -Wno-missing-profile
                                                ${pgo_common})
