# XRT (Debian libxrt-dev) as an imported target. xrt.pc is broken (it points
# at /usr/usr) and XRT ships no CMake config, so the headers and
# libxrt_coreutil are found by hand. Optional: without XRT the tree builds
# without the xrt / xrt-emu devices, as it builds without `sim` where
# Verilator is missing. The includes are SYSTEM: XRT's headers trip
# -Wpedantic, and third-party code never runs under our -Werror.
find_path(NNFAB_XRT_INCLUDE_DIR NAMES xrt/xrt_device.h PATHS /usr/include/xrt /opt/xilinx/xrt/include)
find_library(NNFAB_XRT_COREUTIL_LIB NAMES xrt_coreutil PATHS /opt/xilinx/xrt/lib)
find_library(NNFAB_UUID_LIB NAMES uuid)
# The xclbin writer reads kernel.xml with expat (a SAX parser: small, in Debian).
find_package(EXPAT QUIET)
if(NNFAB_XRT_INCLUDE_DIR AND NNFAB_XRT_COREUTIL_LIB AND NNFAB_UUID_LIB AND EXPAT_FOUND)
  add_library(nnfab::xrt INTERFACE IMPORTED)
  set_target_properties(nnfab::xrt PROPERTIES
    INTERFACE_SYSTEM_INCLUDE_DIRECTORIES "${NNFAB_XRT_INCLUDE_DIR}"
    INTERFACE_INCLUDE_DIRECTORIES "${NNFAB_XRT_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES "${NNFAB_XRT_COREUTIL_LIB};${NNFAB_UUID_LIB}")
  # The axlf structs alone (xclbin.h), for code that writes xclbins without
  # talking to XRT.
  add_library(nnfab::xclbin_h INTERFACE IMPORTED)
  set_target_properties(nnfab::xclbin_h PROPERTIES
    INTERFACE_SYSTEM_INCLUDE_DIRECTORIES "${NNFAB_XRT_INCLUDE_DIR}"
    INTERFACE_INCLUDE_DIRECTORIES "${NNFAB_XRT_INCLUDE_DIR}")
  set(NNFAB_HAVE_XRT ON)
  # The multiarch folder holding the shims (libxrt_hwemu.so.2, libxrt_noop.so.2):
  # a fake XILINX_XRT root links its lib/ here (docs/xrt-emu.md).
  get_filename_component(NNFAB_XRT_LIB_DIR ${NNFAB_XRT_COREUTIL_LIB} DIRECTORY)
  message(STATUS "XRT found: ${NNFAB_XRT_COREUTIL_LIB} (xrt and xrt-emu devices)")
else()
  set(NNFAB_HAVE_XRT OFF)
  message(STATUS "XRT or expat not found: building without the xrt devices")
endif()
