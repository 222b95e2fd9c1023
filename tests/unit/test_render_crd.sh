#!/bin/sh
# test_render_crd.sh - every rendering golden validates against the upstream
# CRD schemas (tests/data/crds/), and a broken object does not (so the check
# can fail). Needs node and `npm ci --prefix tests/node` (test.sh runs it);
# without them the test is skipped (77), never failed.
top_srcdir=${top_srcdir:-.}
node_dir=$top_srcdir/tests/node
if ! command -v node >/dev/null 2>&1; then
	echo "SKIP: node is not installed"
	exit 77
fi
if [ ! -d "$node_dir/node_modules/ajv" ] || [ ! -d "$node_dir/node_modules/yaml" ]; then
	echo "SKIP: run 'npm ci --prefix tests/node' first"
	exit 77
fi
set -e
crds=$top_srcdir/tests/data/crds
goldens=$(ls "$top_srcdir"/tests/data/render/*.json)
node "$node_dir/validate-crd.js" "$crds" $goldens

tmp=$(mktemp -d "${TMPDIR:-/tmp}/render_crd.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# A misspelt field, a replica count that is not a number, a bad quantity.
sed 's/"completionMode"/"completionMod"/' "$top_srcdir/tests/data/render/jobset-1node.json" \
	>"$tmp/typo.json"
sed 's/"replicas": 1,/"replicas": "one",/' \
	"$top_srcdir/tests/data/render/mpijob-openmpi.json" >"$tmp/replicas.json"
sed 's/"cpu": "4"/"cpu": "four"/' "$top_srcdir/tests/data/render/jobset-1node.json" \
	>"$tmp/quantity.json"
for f in typo replicas quantity; do
	if node "$node_dir/validate-crd.js" "$crds" "$tmp/$f.json" 2>"$tmp/$f.err"; then
		echo "FAIL: $f.json validated"
		exit 1
	fi
	echo "ok $f.json rejected: $(head -n 1 "$tmp/$f.err" | sed 's|.*/||')"
done
