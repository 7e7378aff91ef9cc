#!/usr/bin/env bash
# After a build: fails when the build included a system header from a Debian
# package that scripts/install-deps.sh would not bring onto a bare Debian 12,
# the one mistake a machine that already has the package cannot show.
# The checker lives beside the source tree (../shared/tools); where it is
# absent (a clone on its own) this says so and skips.
#   usage: scripts/check-install.sh [BUILD_DIR]
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/default}
checker=../shared/tools/check-install-deps.sh
if [ ! -f "$checker" ]; then
  echo "check-install: $checker not found beside the source tree; skipped" >&2
  exit 0
fi
bash "$checker" "$build" scripts/install-deps.sh
rc=$?
case $rc in
  0) exit 0 ;;
  1) echo "check-install: add the packages above to scripts/install-deps.sh" >&2; exit 1 ;;
  *) echo "check-install: the checker could not run (exit $rc)" >&2; exit 1 ;;
esac
