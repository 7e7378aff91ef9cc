#!/bin/bash
# Installs nnfab into a temporary prefix and uses it from outside the source
# tree: the C example built with `cc ... $(pkg-config --cflags --libs nnfab)`,
# and a CMake project with find_package(nnfab); runs both on each device.
#   install_test.sh BUILD_DIR SOURCE_DIR DEVICE...
set -euo pipefail
build=$1 source=$2
shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix

cmake --install "$build" --prefix "$prefix" > "$work/install.log"
for f in include/android/NeuralNetworks.h include/NeuralNetworks.h include/nnfab/api/client.h \
         lib/cmake/nnfab/nnfabConfig.cmake lib/pkgconfig/nnfab.pc bin/nnfab; do
  [[ -e $prefix/$f ]] || { echo "not installed: $f"; exit 1; }
done
ls "$prefix"/lib/libneuralnetworks.so "$prefix"/lib/libnnfab_runtime.so > /dev/null
# No test code under the prefix.
if find "$prefix" -iname '*test*' | grep .; then
  echo "test files were installed"; exit 1
fi
"$prefix/bin/nnfab" devices > /dev/null

# (a) pkg-config, with the sources copied out of the tree.
cp "$source/examples/c/while_loop.c" "$work/"
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
# shellcheck disable=SC2046
cc -std=c11 -Wall -Wextra -Werror "$work/while_loop.c" $(pkg-config --cflags --libs nnfab) -o "$work/while_loop"

# (b) find_package.
cp -r "$source/tests/capi/consumer" "$work/consumer"
cp "$source/examples/c/while_loop.c" "$work/consumer/"
cmake -S "$work/consumer" -B "$work/consumer-build" -DCMAKE_PREFIX_PATH="$prefix" > "$work/consumer.log"
cmake --build "$work/consumer-build" >> "$work/consumer.log"

for device in "$@"; do
  "$work/while_loop" "$device" 10 | tee "$work/out"
  grep -q "i = 10, s = 45" "$work/out"
  "$work/consumer-build/c_client" "$device" 6 | grep "i = 6, s = 15"
  "$work/consumer-build/cxx_client" "$device" | grep "= \[11, 22\]"
done
echo "install test passed"
