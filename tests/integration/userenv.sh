#!/bin/sh
# The user's login environment under the job's, as slurmd loads it when
# SLURM_GET_USER_ENV=1 (--get-user-env, or --export other than ALL; checked
# on the reference cluster: `--export=NONE` jobs get /etc/profile.d's PATH
# and variables, and su's PAM session's, MAIL among them). The expected values come from the same login shell run
# here, so the test holds whatever this machine's profiles say.
. "$top_srcdir/tests/integration/lib.sh"
write_conf
start_daemon
cd "$T" || fail "cd"
me=$(id -un)
sh_=$(getent passwd "$(id -u)" | cut -d: -f7)
home=$(getent passwd "$(id -u)" | cut -d: -f6)
case "$sh_" in
*/nologin | */false | "") skip "this user has no login shell ($sh_)" ;;
esac
# `env; :`, not `env`: a shell that execs its last command lowers SHLVL,
# and sluice-stepd's shell runs more after env (as su's does for slurmd)
login_env() { # the login shell's environment from a clean start, as sorted lines
	(cd "$home" && env -i HOME="$home" USER="$me" LOGNAME="$me" SHELL="$sh_" \
		PATH=/usr/local/bin:/usr/bin:/bin "$sh_" -l -c 'env; :') 2>/dev/null |
		grep -v '^_=\|^PWD=\|^OLDPWD=' | sort
}
login_env >"$T/login"
login_path=$(sed -n 's/^PATH=//p' "$T/login")
[ -n "$login_path" ] || skip "the login shell $sh_ printed no PATH"
# the job's fallback PATH: equal to it, the first check below would pass
# without any login environment read
[ "$login_path" != /usr/local/bin:/usr/bin:/bin ] ||
	skip "the login PATH is sluice-stepd's fallback; nothing to tell apart"

job() { # job SBATCH_ARGS... -> the job's environment, sorted
	id=$(env -i HOME="$home" PATH=/tmp/sluice-submit-path:/usr/bin:/bin FOO=from-submit \
		SLUICE_CONF="$SLUICE_CONF" "$BIN/sbatch" --parsable -o "$T/%j.out" "$@" \
		--wrap 'env | sort') || fail "sbatch $*"
	wait_state "$id" COMPLETED
	cat "$T/$id.out"
}

job --export=NONE >"$T/none"
expect_eq "--export=NONE: the login PATH" "PATH=$login_path" "$(grep '^PATH=' "$T/none")"
expect_eq "--export=NONE: nothing of the submission" "" "$(grep '^FOO=' "$T/none")"
expect_eq "--export=NONE: the cue" "SLURM_GET_USER_ENV=1" "$(grep '^SLURM_GET_USER_ENV=' "$T/none")"
# every variable of the login shell is the job's, but those Slurm sets itself
missing=$(grep -v '^SLURM_\|^SHELL=\|^HOME=' "$T/login" | while IFS= read -r l; do
	grep -qxF "$l" "$T/none" || echo "$l"
done)
expect_eq "--export=NONE: the whole login environment" "" "$missing"
# spank_pbs reads the final environment: PBS_O_* of the login one's
expect_eq "--export=NONE: PBS_O_PATH" "PBS_O_PATH=$login_path" "$(grep '^PBS_O_PATH=' "$T/none")"
expect_eq "--export=NONE: PBS_O_HOME" "PBS_O_HOME=$home" "$(grep '^PBS_O_HOME=' "$T/none")"
# as root, through su's PAM session as slurmd's: pam_mail's MAIL, pam_env's
if [ "$(id -u)" = 0 ] && [ -x /bin/su ]; then
	su_mail=$(env -i ENVIRONMENT=BATCH /bin/su - "$me" -c env 2>/dev/null | grep '^MAIL=')
	[ -z "$su_mail" ] || expect_eq "--export=NONE: su's MAIL" "$su_mail" "$(grep '^MAIL=' "$T/none")"
fi
ok "--export=NONE: the job gets the user's login environment, as slurmd gives it"

job >"$T/all"
expect_eq "--export=ALL: the submitted PATH" "PATH=/tmp/sluice-submit-path:/usr/bin:/bin" \
	"$(grep '^PATH=' "$T/all")"
expect_eq "--export=ALL: no cue" "" "$(grep '^SLURM_GET_USER_ENV=' "$T/all")"
ok "the default export takes no login environment"

job --get-user-env=30L >"$T/get"
expect_eq "--get-user-env: the submitted PATH over the login one" \
	"PATH=/tmp/sluice-submit-path:/usr/bin:/bin" "$(grep '^PATH=' "$T/get")"
expect_eq "--get-user-env: FOO kept" "FOO=from-submit" "$(grep '^FOO=' "$T/get")"
expect_eq "--get-user-env: the cue" "SLURM_GET_USER_ENV=1" "$(grep '^SLURM_GET_USER_ENV=' "$T/get")"
extra=$(grep -v '^PATH=\|^HOME=\|^SHELL=\|^USER=\|^LOGNAME=\|^SLURM_' "$T/login" | head -n 1)
if [ -n "$extra" ]; then
	expect_eq "--get-user-env: a login-only variable" "$extra" "$(grep -xF "$extra" "$T/get")"
fi
# a submission without PATH: the login one, not the fallback, fills it
id=$(env -i HOME="$home" SLUICE_CONF="$SLUICE_CONF" "$BIN/sbatch" --parsable -o "$T/%j.out" \
	--get-user-env --wrap 'echo "PATH=$PATH"') || fail "sbatch --get-user-env without PATH"
wait_state "$id" COMPLETED
expect_eq "--get-user-env: the login PATH where none was sent" "PATH=$login_path" \
	"$(cat "$T/$id.out")"
ok "--get-user-env: the login environment under the submitted one"

out=$("$BIN/sbatch" --get-user-env=5X --wrap true 2>&1); rc=$?
expect_eq "--get-user-env=5X" "255:sbatch: error: Invalid --get-user-env specification" "$rc:$out"
ok "a bad --get-user-env is refused in Slurm's words"
