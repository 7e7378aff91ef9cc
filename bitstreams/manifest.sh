#!/usr/bin/env bash
# Writes the manifest of a built xclbin (docs/deploy.md, "Manifest"):
#   manifest.sh XCLBIN PLATFORM KERNEL TARGET NNFAB_ISA_H OUT.json
# KERNEL is rtl or hls, TARGET hw or hw_emu; NNFAB_ISA_H is the generated
# header the kernel was built from (for the ISA version). Reads the tool
# version from `v++ --version` and the achieved kernel clock from
# `xclbinutil --info` (Vitis' own, which works; Debian's does not); a value
# that cannot be read is written as null, never guessed.
set -euo pipefail

if [ $# -ne 6 ]; then
  echo "usage: manifest.sh XCLBIN PLATFORM KERNEL TARGET NNFAB_ISA_H OUT.json" >&2
  exit 2
fi
xclbin=$1 platform=$2 kernel=$3 target=$4 isa_header=$5 out=$6
for f in "$xclbin" "$isa_header"; do
  [ -f "$f" ] || { echo "manifest.sh: $f does not exist" >&2; exit 1; }
done

# JSON string, or null for an empty value.
json_str() {
  if [ -z "$1" ]; then printf 'null'; return; fi
  local s=${1//\\/\\\\}
  s=${s//\"/\\\"}
  s=${s//$'\t'/ }
  printf '"%s"' "$s"
}
json_num() { if [ -z "$1" ]; then printf 'null'; else printf '%s' "$1"; fi; }

sha256=$(sha256sum "$xclbin" | cut -d' ' -f1)
bytes=$(stat -c %s "$xclbin")
tool=$(v++ --version 2>/dev/null | grep -m1 -E 'v\+\+|Vitis' | sed 's/^[*[:space:]]*//;s/[[:space:]]*$//' || true)
isa_version=$(sed -n 's/.*kIsaVersion = \([0-9]*\);.*/\1/p' "$isa_header")
requested=$(sed -n 's/.*kNOMINAL_CLOCK_MHZ = \([0-9]*\)u.*/\1/p' "$isa_header")

# xclbinutil --info lists each clock as indented "Name:", "Type:" and
# "Frequency: <n> MHz" lines; the kernel clock is the one of type DATA.
achieved=""
if info=$(xclbinutil --info --input "$xclbin" 2>/dev/null); then
  achieved=$(awk '
    /^[[:space:]]*Type:/      { type = $2 }
    /^[[:space:]]*Frequency:/ { if (type == "DATA" && found == "") found = $2 }
    END { print found }' <<<"$info")
fi
commit=$(git -C "$(dirname "$0")" rev-parse --short=12 HEAD 2>/dev/null || true)

tmp=$(mktemp "$out.XXXXXX")
{
  printf '{\n'
  printf '  "format": "nnfab-xclbin-manifest",\n'
  printf '  "format_version": 1,\n'
  printf '  "xclbin": %s,\n' "$(json_str "$(basename "$xclbin")")"
  printf '  "sha256": %s,\n' "$(json_str "$sha256")"
  printf '  "bytes": %s,\n' "$bytes"
  printf '  "platform": %s,\n' "$(json_str "$platform")"
  printf '  "kernel": %s,\n' "$(json_str "$kernel")"
  printf '  "kernel_name": "nnfab_core",\n'
  printf '  "target": %s,\n' "$(json_str "$target")"
  printf '  "isa_version": %s,\n' "$(json_num "$isa_version")"
  printf '  "tool_version": %s,\n' "$(json_str "$tool")"
  printf '  "requested_clock_mhz": %s,\n' "$(json_num "$requested")"
  printf '  "achieved_clock_mhz": %s,\n' "$(json_num "$achieved")"
  printf '  "source_commit": %s,\n' "$(json_str "$commit")"
  printf '  "built_at": %s\n' "$(json_str "$(date -u +%Y-%m-%dT%H:%M:%SZ)")"
  printf '}\n'
} > "$tmp"
mv "$tmp" "$out"
