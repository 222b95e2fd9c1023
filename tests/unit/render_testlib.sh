# render_testlib.sh - sourced by the `sluice render` tests after they set
# top_srcdir and name: $sluice with the render config, fail(), and a scratch
# directory "$tmp" named after $name (removed on exit), now the working
# directory, holding cpu.sh (a script with no directives).
top_builddir=${top_builddir:-.}
sluice=$top_builddir/bin/sluice
SLUICE_CONF=$top_srcdir/tests/data/render/sluice.yaml
export SLUICE_CONF
tmp=$(mktemp -d "${TMPDIR:-/tmp}/$name.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
printf '#!/bin/sh\nhostname\n' >"$tmp/cpu.sh"
cd "$tmp" || exit 1
