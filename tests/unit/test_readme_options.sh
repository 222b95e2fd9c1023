#!/bin/sh
# test_readme_options.sh - README.md's table of sbatch options is the one
# `sluice options` prints from the option table (compat/slurm_opt.c), so
# that the two cannot drift. After changing the table, put the output of
# BUILD/bin/sluice options between the two marker lines in README.md.
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
readme=$top_srcdir/README.md
tmp=$(mktemp -d "${TMPDIR:-/tmp}/readme_opts.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$top_builddir/bin/sluice" options >"$tmp/want" || fail "sluice options: exit $?"
[ "$(wc -l <"$tmp/want")" -gt 100 ] || fail "sluice options printed too little"
sed -n '/^<!-- sbatch options: begin/,/^<!-- sbatch options: end/p' "$readme" |
	sed '1d;$d' >"$tmp/got"
[ -s "$tmp/got" ] || fail "README.md has no table between the sbatch options markers"
diff -u "$tmp/want" "$tmp/got" >"$tmp/diff" ||
	fail "README.md's sbatch option table differs from \`sluice options\`:
$(cat "$tmp/diff")"
echo "ok - README.md's sbatch options table is sluice options'"
