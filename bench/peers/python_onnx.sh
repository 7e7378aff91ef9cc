# Sourced by the peer scripts and their tests: the one check that Debian's
# python3-onnx is usable from the system interpreter (a pyenv one on PATH
# would not have it). It imports onnx.helper, not onnx: libonnx-testdata
# alone leaves a bare onnx/ directory in dist-packages, which Python imports
# as an empty namespace package, so `import onnx` succeeds without the
# package.
nnfab_python=/usr/bin/python3
have_python_onnx() { "$nnfab_python" -c 'import onnx.helper' 2>/dev/null; }
