// libnnfab_runtime.so has no code of its own: it is the client API
// (host/api) and the layers below it, linked whole (CMakeLists.txt).
// CMake needs one source file to define a library.
