#!/bin/sh
# Config errors name file, line, object and key; --check-config; SIGHUP
# reloads a good file and refuses a bad one (the old config stays).
. "$top_srcdir/tests/integration/lib.sh"
write_conf
"$SLUICED" --check-config "$T/sluice.yaml" >/dev/null || fail "good config refused"

sed 's/nominalQuota: 8/nominalQuota: abc/' "$T/sluice.yaml" >"$T/bad.yaml"
out=$("$SLUICED" --check-config "$T/bad.yaml" 2>&1); rc=$?
expect_eq "bad config rc" 1 "$rc"
case "$out" in
*"bad.yaml:"*'ClusterQueue "main": spec.resourceGroups[0].flavors[0].resources[0].nominalQuota: "abc" is not a quantity'*) ;;
*) fail "unexpected message: $out" ;;
esac
ok "bad quantity: $out"

printf 'apiVersion: sluice.io/v1alpha1\nkind: SluiceConfiguration\nbogus: 1\n' >"$T/unk.yaml"
out=$("$SLUICED" --check-config "$T/unk.yaml" 2>&1) && fail "unknown key accepted"
case "$out" in *"unk.yaml:3"*bogus*) ;; *) fail "unknown key message: $out" ;; esac
ok "unknown key: $out"

# what the daemon would refuse or trip on at start: a stateDir everyone
# may write; a defaultPartition no LocalQueue has
mkdir -p "$T/ww" && chmod 1777 "$T/ww"
sed "s|^stateDir: .*|stateDir: $T/ww|" "$T/sluice.yaml" >"$T/ww.yaml"
out=$("$SLUICED" --check-config "$T/ww.yaml" 2>&1); rc=$?
expect_eq "world-writable stateDir" "1 sluiced: stateDir $T/ww may be written by everyone (mode 1777): the job store needs a directory of its own" "$rc $out"
sed 's/^defaultPartition: batch/defaultPartition: nosuch/' "$T/sluice.yaml" >"$T/dp.yaml"
out=$("$SLUICED" --check-config "$T/dp.yaml" 2>&1 >/dev/null); rc=$?
expect_eq "defaultPartition" "0 sluiced: warning: defaultPartition \"nosuch\" is no LocalQueue's name: jobs submitted without -p are refused" "$rc $out"
ok "--check-config: a world-writable stateDir refused; an unknown defaultPartition warned of"

start_daemon
cd "$T"
"$BIN/sbatch" -p extra --wrap true >/dev/null 2>&1 && fail "partition extra exists before reload"
EXTRA_OBJECTS='---
apiVersion: kueue.x-k8s.io/v1beta1
kind: LocalQueue
metadata: {name: extra, namespace: general}
spec: {clusterQueue: main}' write_conf
kill -HUP "$DPID"
n=0
# A loaded machine may leave the daemon a while before it reads the signal.
until "$BIN/sbatch" -p extra -H --wrap true >/dev/null 2>&1; do
	n=$((n + 1)); [ $n -lt 200 ] || fail "SIGHUP did not add partition extra within 20 s"
	sleep 0.1
done
ok "SIGHUP reload adds a partition"

cp "$T/bad.yaml" "$T/sluice.yaml"
kill -HUP "$DPID"
n=0
until grep -q "refused" "$T/sluiced.log"; do
	kill -0 "$DPID" || fail "sluiced died on a bad reload"
	n=$((n + 1)); [ $n -lt 200 ] || fail "no log line for the refused reload within 20 s"
	sleep 0.1
done
kill -0 "$DPID" || fail "sluiced died on a bad reload"
out=$("$BIN/sbatch" -p extra -H --wrap true 2>&1) || fail "old config not kept after bad reload: $out"
ok "bad reload refused with a log line; old config stays in force"

# Without sluice-stepd every job would fail 0:53: sluiced refuses to start,
# on the terminal, naming the path it tried (daemon mode and -D alike).
write_conf && sed -i -e "s|^socket: .*|socket: $T/nostepd.sock|" -e "s|^stateDir: .*|stateDir: $T/nostepd|" \
	"$T/sluice.yaml"
for mode in "" -D; do
	out=$(SLUICE_STEPD="$T/no/sluice-stepd" timeout 10 "$SLUICED" $mode -f "$T/sluice.yaml" 2>&1) &&
		fail "sluiced $mode started without sluice-stepd"
	printf '%s\n' "$out" | grep -q "cannot run sluice-stepd at $T/no/sluice-stepd: No such file" ||
		fail "sluiced $mode: no error naming the path: $out"
	[ ! -e "$T/nostepd.sock" ] || fail "sluiced $mode listened without sluice-stepd"
done
ok "no sluice-stepd: sluiced refuses to start and names the path"
