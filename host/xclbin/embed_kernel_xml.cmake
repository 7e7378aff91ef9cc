# Wraps the generated kernel.xml into a C++ source (kernel_xml_embedded.cpp),
# so that the binary carries the kernel description of the isa.json it was
# built from: the xrt backend checks a card's xclbin against it, and xrt-emu
# builds its xclbin from it. Run as cmake -DIN=... -DOUT=... -P this-file.
file(READ ${IN} xml)
file(WRITE ${OUT}.tmp
  "// GENERATED from kernel.xml by host/xclbin/embed_kernel_xml.cmake. Do not edit.\n"
  "#include \"xclbin/kernel_xml.h\"\n\n"
  "namespace nnfab::xclbin {\n"
  "const std::string& builtKernelXml() {\n"
  "  static const std::string xml = R\"nnfabxml(${xml})nnfabxml\";\n"
  "  return xml;\n"
  "}\n"
  "}  // namespace nnfab::xclbin\n")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUT}.tmp)
