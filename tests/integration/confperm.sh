#!/bin/sh
# sluiced refuses a configuration that users other than root and its own
# user can write (it says who is an operator): a file, a config directory,
# or any file in it. --check-config, a start and a reload all load it the
# same way (sl_conf_load).
. "$top_srcdir/tests/integration/lib.sh"
write_conf
cd "$T"
conf="$T/sluice.yaml"
self=$(id -u)
[ "$self" -eq 0 ] && also="" || also=" and sluiced's own"

# refused CODE PATH MODE OWNER: --check-config fails with the reason.
refused() {
	out=$("$SLUICED" --check-config "$1" 2>&1); rc=$?
	expect_eq "rc for $2" 1 "$rc"
	expect_eq "$2" "sluiced: $2: users other than root$also can write it (owner uid $4, mode $3); sluiced will not trust it: chown root and chmod go-w" "$out"
}

chmod 0644 "$conf"
expect_eq "0644" "$conf: OK" "$("$SLUICED" --check-config "$conf" 2>&1)"
chmod 0664 "$conf"
refused "$conf" "$conf" 0664 "$self"
chmod 0646 "$conf"
refused "$conf" "$conf" 0646 "$self"
out=$("$SLUICED" -D -f "$conf" 2>&1); rc=$?
[ "$rc" -ne 0 ] || fail "sluiced started with a world-writable config"
case "$out" in *"users other than root$also can write it"*) ;; *) fail "start: $out" ;; esac
ok "a group- or world-writable config file is refused, at check and at start"

chmod 0644 "$conf"
mkdir "$T/shared"
cp "$conf" "$T/shared/sluice.yaml"
chmod 0775 "$T/shared" # a group member could swap the file
refused "$T/shared/sluice.yaml" "$T/shared" 0775 "$self"
chmod 1777 "$T/shared" # like /tmp: no one else can swap it
expect_eq "sticky" "$T/shared/sluice.yaml: OK" "$("$SLUICED" --check-config "$T/shared/sluice.yaml" 2>&1)"
ok "so is one in a directory others can write, unless that is sticky"

chmod 0644 "$conf"
mkdir "$T/conf.d"
chmod 0755 "$T/conf.d"
cp "$conf" "$T/conf.d/10-all.yaml"
expect_eq "dir" "$T/conf.d: OK" "$("$SLUICED" --check-config "$T/conf.d" 2>&1)"
chmod 0777 "$T/conf.d"
refused "$T/conf.d" "$T/conf.d" 0777 "$self"
chmod 1777 "$T/conf.d" # the sticky bit does not stop anyone adding a file
refused "$T/conf.d" "$T/conf.d" 1777 "$self"
chmod 0755 "$T/conf.d"
chmod 0666 "$T/conf.d/10-all.yaml"
refused "$T/conf.d" "$T/conf.d/10-all.yaml" 0666 "$self"
ok "so is a writable config directory, or a writable file in it"

if [ "$self" -eq 0 ]; then
	chmod 0644 "$T/conf.d/10-all.yaml"
	chown 54321 "$T/conf.d/10-all.yaml"
	refused "$T/conf.d" "$T/conf.d/10-all.yaml" 0644 54321
	ok "and a file another user owns"
fi

# A reload (SIGHUP) with a config made writable keeps the loaded one.
chmod 0644 "$conf"
start_daemon
chmod 0666 "$conf"
kill -HUP "$DPID"
sleep 0.5
kill -0 "$DPID" || fail "sluiced exited on the reload"
grep -q "users other than root$also can write it" "$T/sluiced.log" || fail "the reload did not say why"
"$BIN/squeue" -h >/dev/null || fail "sluiced stopped serving"
ok "a reload of a config made writable keeps the old one, and says why"
