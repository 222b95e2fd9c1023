#!/bin/sh
# Self-test of the fake Kubernetes API server: certificates, kubeconfigs,
# a live server, then selftest.py's cases.  Exit 77 (skip) without openssl.
set -u
srcdir=${top_srcdir:-.}/tests/fake-k8s
[ -f "$srcdir/fake_k8s.py" ] || srcdir=$(dirname "$0")
command -v openssl >/dev/null 2>&1 || { echo "openssl not found: skipping"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "python3 not found: skipping"; exit 77; }
export PYTHONDONTWRITEBYTECODE=1

tmp=$(mktemp -d "${TMPDIR:-/tmp}/fake-k8s.XXXXXX")
pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

sh "$srcdir/mkcerts.sh" "$tmp/certs" || exit 1
token=selftest-token-0123456789
printf '%s,selftest,1001,"system:masters"\n' "$token" > "$tmp/tokens.csv"

python3 "$srcdir/fake_k8s.py" --certs "$tmp/certs" --port 0 --control-port 0 \
	--tokens "$tmp/tokens.csv" --ready-file "$tmp/ready" 2> "$tmp/server.log" &
pid=$!
i=0
while [ ! -s "$tmp/ready" ]; do
	i=$((i + 1))
	if [ $i -gt 200 ] || ! kill -0 "$pid" 2>/dev/null; then
		echo "fake-k8s did not start:"; cat "$tmp/server.log"; exit 1
	fi
	sleep 0.1
done
port=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["port"])' "$tmp/ready")
sh "$srcdir/kubeconfig.sh" "$tmp/certs" "$port" "$tmp/kc" "$token" || exit 1

python3 "$srcdir/selftest.py" "$tmp/ready" "$tmp/certs" "$token" "$tmp/kc" "$@"
rc=$?
if [ -s "$tmp/server.log" ]; then
	echo "--- server stderr"; cat "$tmp/server.log"
	rc=1
fi
kill "$pid" 2>/dev/null
wait "$pid"
src=$?
pid=
[ $src -eq 0 ] || { echo "server exit status $src after SIGTERM"; rc=1; }
exit $rc
