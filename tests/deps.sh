#!/bin/sh
# Debian packages Sluice needs to build and test. Sourced by quickstart.sh
# and test.sh, which install what is missing (apt-get, as root or via sudo).
SLUICE_BUILD_DEPS="gcc make autoconf automake pkg-config libyaml-dev
libcurl4-openssl-dev libjson-c-dev libsqlite3-dev libpam0g-dev libmunge-dev
libmicrohttpd-dev libpmix-dev"
# clang: libFuzzer (clang -fsanitize=fuzzer) for tests/fuzz. curl: metrics.sh
# scrapes /metrics. dpkg-dev: dpkg-shlibdeps for `make deb`
# (tests/integration/deb.sh). chromium: the headless browser that opens
# `sluice replay --html` (tests/integration/replay.sh). openmpi: the MPI
# program srun --mpi=pmix wires up (tests/integration/srun_mpi.sh).
SLUICE_TEST_DEPS="libcmocka-dev munge libpam-wrapper sqlite3 python3 procps passwd util-linux openssl
clang curl dpkg-dev chromium openmpi-bin libopenmpi-dev"

sluice_install_missing() {
	missing=""
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
			missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	echo "==> installing:$missing"
	if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
	$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null &&
		$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null ||
		{ echo "error: apt-get could not install:$missing" >&2; return 1; }
}
