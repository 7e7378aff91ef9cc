# ONNX (Debian libonnx-dev + libprotobuf-dev) for `nnfab import` and
# `nnfab run MODEL.onnx`. libonnx-dev ships the generated protobuf classes
# (onnx/onnx-ml.pb.h, hence ONNX_ML=1 from its targets), the checker and shape
# inference. ONNXConfig.cmake does not look for Protobuf itself although
# onnx_proto links protobuf::libprotobuf, so Protobuf comes first. Optional:
# without it nnfab builds, and `nnfab import` says it was built without ONNX.
find_package(Protobuf QUIET)
if(Protobuf_FOUND)
  find_package(ONNX CONFIG QUIET)
endif()
if(TARGET onnx AND TARGET onnx_proto)
  set(NNFAB_HAVE_ONNX ON)
  message(STATUS "ONNX found: ${ONNX_VERSION} (nnfab import)")
else()
  set(NNFAB_HAVE_ONNX OFF)
  message(STATUS "ONNX (libonnx-dev, libprotobuf-dev) not found: building without ONNX import")
endif()
# Debian's libonnx-testdata: the ONNX backend node tests the import is checked on.
find_path(NNFAB_ONNX_TESTDATA_DIR NAMES node/test_loop11/model.onnx
  PATHS /usr/share/libonnx-testdata/data NO_DEFAULT_PATH)
