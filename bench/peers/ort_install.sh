# Sourced by the peer drivers (run.sh, onnx_testdata.sh): where
# onnxruntime-node lives and how it gets there, written once.
#
# ORT_VERSION is the version the figures in docs/ were taken with.
# ort_present DIR      true when DIR/node_modules holds onnxruntime-node ORT_VERSION
# ort_install DIR      installs it there (npm, --ignore-scripts; README.md says why)
# Both take the peers work directory, BUILD/peers.

ORT_VERSION=1.30.0

ort_present() {
  local pkg="$1/node/node_modules/onnxruntime-node/package.json"
  [[ -f "$pkg" ]] && grep -q "\"version\": \"$ORT_VERSION\"" "$pkg"
}

ort_install() {
  local work
  mkdir -p "$1/node"
  work="$(cd "$1" && pwd)"  # npm runs in another directory: the path must be absolute
  ort_present "$work" && return 0
  echo "installing onnxruntime-node $ORT_VERSION into $work/node (once)" >&2
  (cd "$work/node" && npm install --ignore-scripts --no-audit --no-fund --silent \
      --prefix "$work/node" "onnxruntime-node@$ORT_VERSION" >&2)
}
