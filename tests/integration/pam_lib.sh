# pam_lib.sh - sluiced and its supervisors under libpam_wrapper, with a
# private PAM service "sluice-test" under $T/pam.d made of the system's own
# modules (options pointing at files under $T): sourced by pam.sh and
# login.sh. After pam_wrap, $SLUICED starts the daemon under the wrapper;
# write_conf "pam: {service: sluice-test}" turns PAM on.
#   account: users listed in $T/pam-denied are refused without a message;
#            while $T/nologin exists everyone but $USER1 is refused with its
#            text;
#   session: users in $T/pam-nosession fail; pam_env ($T/pam_env.conf) and
#            pam_limits ($T/limits.conf) apply; pam_exec logs each open and
#            close to $T/pam.log as "TYPE USER JOBID SUPERVISOR-PID".
pam_wrap() {
	WRAPPER=/usr/lib/x86_64-linux-gnu/libpam_wrapper.so
	MODS=/usr/lib/x86_64-linux-gnu/security
	[ -f "$WRAPPER" ] || skip "no $WRAPPER (Debian: libpam-wrapper)"
	for m in pam_permit pam_listfile pam_succeed_if pam_nologin pam_env pam_limits pam_exec; do
		[ -f "$MODS/$m.so" ] || skip "no $MODS/$m.so"
	done
	# A static sluice-stepd would neither load modules nor the wrapper.
	file -L "$SLUICE_STEPD" 2>/dev/null | grep -q 'statically linked' &&
		skip "sluice-stepd is linked statically"

	# The service. Account: listed in pam-denied -> refused without a message
	# (pam_strerror); $USER1 skips pam_nologin, everyone else is refused with
	# its file's text while it exists. Session: listed in pam-nosession -> the
	# session fails; pam_env, pam_limits, and pam_exec logging each open and
	# close with the job directory of the supervisor that called it.
	mkdir "$T/pam.d"
	cat >"$T/pam.d/sluice-test" <<EOF
auth     required  pam_permit.so
account  requisite pam_listfile.so item=user sense=deny file=$T/pam-denied onerr=succeed
account  [success=1 default=ignore] pam_succeed_if.so quiet user = $USER1
account  required  pam_nologin.so file=$T/nologin
account  required  pam_permit.so
session  requisite pam_listfile.so item=user sense=deny file=$T/pam-nosession onerr=succeed
session  required  pam_env.so conffile=$T/pam_env.conf readenv=0
session  required  pam_limits.so conf=$T/limits.conf
session  required  pam_exec.so quiet $T/pamlog.sh
EOF
	printf 'auth required pam_deny.so\naccount required pam_deny.so\nsession required pam_deny.so\n' \
		>"$T/pam.d/other"
	cat >"$T/pam_env.conf" <<'EOF'
SLUICE_PAM_SITE DEFAULT=scratch-@{PAM_USER}
SLUICE_PAM_MINE DEFAULT=from-pam
EOF
	printf '%s soft nofile 555\n%s hard nofile 777\n' "$USER1" "$USER1" >"$T/limits.conf"
	# pam_exec runs this in the supervisor's child: its parent's command line
	# ends with the job directory, whose name is the job id.
	cat >"$T/pamlog.sh" <<EOF
#!/bin/sh
for a in \$(tr '\\000' '\\n' </proc/\$PPID/cmdline); do last=\$a; done
echo "\$PAM_TYPE \$PAM_USER \${last##*/} \$PPID" >>$T/pam.log
EOF
	chmod 755 "$T/pamlog.sh"
	: >"$T/pam.log"

	# sluiced (and through its fork server every supervisor) under the wrapper;
	# exec keeps the pid that start_daemon records.
	cat >"$T/sluiced-pam" <<EOF
#!/bin/sh
LD_PRELOAD=$WRAPPER PAM_WRAPPER=1 PAM_WRAPPER_SERVICE_DIR=$T/pam.d
export LD_PRELOAD PAM_WRAPPER PAM_WRAPPER_SERVICE_DIR
exec $SLUICED "\$@"
EOF
	chmod 755 "$T/sluiced-pam"
	SLUICED="$T/sluiced-pam"
}
