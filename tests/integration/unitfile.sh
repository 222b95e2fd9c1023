#!/bin/sh
# The installed systemd unit: its placeholders replaced (config.status used
# to eat the sed's own @sbindir@, leaving "ExecStart=@sbindir@/sluiced"), and
# systemd accepting it where systemd-analyze is at hand.
. "$top_srcdir/tests/integration/lib.sh"
unit="$top_builddir/etc/sluiced.service"
[ -f "$unit" ] || fail "$unit was not built"
left=$(grep -n '@[a-z_]*@' "$unit")
[ -z "$left" ] || fail "placeholders left in the unit: $left"
sbindir=$(sed -n 's/^sbindir = //p' "$top_builddir/Makefile")
prefix=$(sed -n 's/^prefix = //p' "$top_builddir/Makefile")
exec_prefix=$(sed -n 's/^exec_prefix = //p' "$top_builddir/Makefile")
exec_prefix=$(echo "$exec_prefix" | sed "s|\${prefix}|$prefix|")
sbindir=$(echo "$sbindir" | sed "s|\${exec_prefix}|$exec_prefix|")
grep -q "^ExecStart=$sbindir/sluiced -D -f " "$unit" || fail "ExecStart: $(grep ExecStart "$unit")"
ok "the unit's paths are the configured ones"

command -v systemd-analyze >/dev/null 2>&1 || skip "no systemd-analyze"
# Verify a copy that runs a binary that exists here: only the settings are
# under test.
sed "s|^ExecStart=[^ ]*|ExecStart=$SLUICED|" "$unit" >"$T/sluiced.service"
out=$(systemd-analyze verify "$T/sluiced.service" 2>&1) || fail "systemd-analyze: $out"
[ -z "$out" ] || fail "systemd-analyze: $out"
ok "systemd-analyze verify accepts it"
