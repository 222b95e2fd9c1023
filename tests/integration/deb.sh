#!/bin/sh
# The Debian packages (make deb): build them, install them into a scratch
# root with dpkg --root, check what each holds, then start the installed
# sluiced from the installed unit's ExecStart line and run a job with the
# installed commands.
. "$top_srcdir/tests/integration/lib.sh"
command -v dpkg-deb >/dev/null 2>&1 || skip "no dpkg-deb"
command -v dpkg-shlibdeps >/dev/null 2>&1 || skip "no dpkg-shlibdeps (dpkg-dev)"
need_root

out="$T/debs"
# What is checked here is the packaging, not the code generation: at -O0 the
# packages' build takes about half the time, in the longest test of the suite.
CFLAGS="-O0" sh "$top_srcdir/etc/deb/mkdeb.sh" "$top_srcdir" "$out" >"$T/mkdeb.out" 2>&1 ||
	fail "mkdeb.sh: $(tail -n 20 "$T/mkdeb.out")"
srv=$(ls "$out"/sluice_*.deb 2>/dev/null)
cli=$(ls "$out"/sluice-client_*.deb 2>/dev/null)
[ -f "$srv" ] && [ -f "$cli" ] || fail "packages missing: $(ls "$out")"
[ -z "$(ls "$out"/sluice-dev_* 2>/dev/null)" ] || fail "a sluice-dev package with no library in it"
ok "make deb built sluice and sluice-client"

# Each package says what it needs; libcurl and munge come from the machine.
dpkg-deb -f "$srv" Depends | grep -q 'libc6' || fail "sluice Depends: $(dpkg-deb -f "$srv" Depends)"
dpkg-deb -f "$srv" Depends | grep -q 'libsqlite3' || fail "sluice lacks libsqlite3 in Depends"
dpkg-deb -f "$cli" Depends | grep -q 'libmunge' || fail "sluice-client lacks libmunge in Depends"
dpkg-deb -f "$cli" Depends | grep -q 'libsqlite3' && fail "sluice-client pulls in SQLite"
ok "dependencies computed from the binaries"

R="$T/root"
mkdir -p "$R/var/lib/dpkg/info" "$R/var/lib/dpkg/updates"
: >"$R/var/lib/dpkg/status"
dpkg --root="$R" --force-depends --force-not-root --log=/dev/null -i "$srv" "$cli" \
	>"$T/dpkg.out" 2>&1 || fail "dpkg -i: $(cat "$T/dpkg.out")"
dpkg --root="$R" -s sluice 2>/dev/null | grep -q '^Status: install ok installed' ||
	fail "sluice not installed: $(cat "$T/dpkg.out")"
ok "both install into a scratch root"

have() { [ -e "$R/$1" ] || fail "$2 does not ship $1"; }
have usr/sbin/sluiced sluice
have usr/libexec/sluice-stepd sluice
have usr/lib/systemd/system/sluiced.service sluice
have etc/pam.d/sluice sluice
have etc/sluice/sluice.yaml sluice
for c in sbatch squeue scancel sacct scontrol sinfo qsub qstat qdel tracejob sluice; do have "usr/bin/$c" sluice-client; done
dpkg --root="$R" -L sluice-client | grep -q sluiced && fail "sluice-client ships the daemon"
dpkg --root="$R" -L sluice | grep -q '^/usr/bin/' && fail "sluice ships commands: $(dpkg --root="$R" -L sluice | grep /usr/bin/)"
conff=$(dpkg-deb --ctrl-tarfile "$srv" | tar -xO ./conffiles)
echo "$conff" | grep -qx /etc/sluice/sluice.yaml || fail "config not a conffile: $conff"
echo "$conff" | grep -qx /etc/pam.d/sluice || fail "PAM service not a conffile: $conff"
mode=$(stat -c %a "$R/usr/sbin/sluiced")
[ "$mode" = 755 ] || fail "sluiced mode $mode"
[ "$(stat -c %U "$R/etc/sluice/sluice.yaml")" = root ] || fail "config not owned by root"
grep -q '^socket: /run/sluice/sluiced.sock' "$R/etc/sluice/sluice.yaml" || fail "installed config socket"
ok "files, conffiles and modes"

# The unit's own command line, rooted in the scratch root: the installed
# sluiced with the installed config, only its socket and state moved here.
exec_start=$(sed -n 's/^ExecStart=//p' "$R/usr/lib/systemd/system/sluiced.service")
[ "$exec_start" = "/usr/sbin/sluiced -D -f /etc/sluice/sluice.yaml" ] || fail "ExecStart=$exec_start"
sed -e "s|^socket: .*|socket: $T/sluiced.sock|" -e "s|^stateDir: .*|stateDir: $T/state|" \
	"$R/etc/sluice/sluice.yaml" >"$T/installed.yaml"
chmod 0644 "$T/installed.yaml"
cmd=$(echo "$exec_start" | sed -e "s|^/usr/sbin/|$R/usr/sbin/|" -e "s| /etc/sluice/sluice.yaml| $T/installed.yaml|")
export SLUICE_STEPD="$R/usr/libexec/sluice-stepd" SLUICE_CONF="$T/installed.yaml"
$cmd >"$T/sluiced.log" 2>&1 &
DPID=$!
i=0
while [ ! -S "$T/sluiced.sock" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ -S "$T/sluiced.sock" ] || fail "the installed sluiced did not start"
cd "$T" || fail "cd"
id=$("$R/usr/bin/sbatch" --parsable --wrap 'echo from-the-package') || fail "installed sbatch"
i=0
while [ $i -lt 100 ]; do
	st=$("$R/usr/bin/sacct" -n -X -j "$id" -o State | tr -d ' ')
	[ "$st" = COMPLETED ] && break
	sleep 0.1; i=$((i + 1))
done
[ "$st" = COMPLETED ] || fail "job $id: state '$st'"
grep -q from-the-package "$T/slurm-$id.out" || fail "job output: $(cat "$T/slurm-$id.out")"
ok "the installed sluiced runs a job submitted by the installed sbatch"
