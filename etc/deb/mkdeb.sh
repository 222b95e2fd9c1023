#!/bin/sh
# mkdeb.sh SRCDIR OUTDIR - build Sluice's Debian packages with dpkg-deb.
#
# Why not dpkg-buildpackage: it needs debhelper and a debian/ tree that
# would repeat what `make install` already knows. This script configures a
# private build for Debian's paths, installs it into a staging root, splits
# the root by the file lists below and lets dpkg-shlibdeps compute each
# package's library dependencies, so they follow the machine's libraries.
#
#   sluice         sluiced, sluice-stepd, the unit, the PAM service, the config,
#                  the Grafana dashboard
#   sluice-client  the commands, for login nodes
# There is no sluice-dev: libbatch is a convenience library, not installed.
set -eu
src=$(cd "$1" && pwd)
out=$(mkdir -p "$2" && cd "$2" && pwd)
work="$out/work"
stage="$work/stage"
jobs=$(nproc 2>/dev/null || echo 2)

rm -rf "$work"
mkdir -p "$work/build"
(cd "$work/build" && "$src/configure" --prefix=/usr --sysconfdir=/etc \
	--localstatedir=/var --runstatedir=/run --libexecdir=/usr/libexec \
	>"$work/configure.log" 2>&1) || { cat "$work/configure.log" >&2; exit 1; }
make -C "$work/build" -j"$jobs" >"$work/make.log" 2>&1 || { tail -40 "$work/make.log" >&2; exit 1; }
make -C "$work/build" install DESTDIR="$stage" >>"$work/make.log" 2>&1 || { tail -40 "$work/make.log" >&2; exit 1; }

version=$(sed -n 's/^PACKAGE_VERSION = //p' "$work/build/Makefile")
arch=$(dpkg --print-architecture)

# pkg NAME PATHS...: move PATHS (relative to the staging root) into NAME's tree.
pkg() {
	name=$1; shift
	root="$work/pkg/$name"
	mkdir -p "$root/DEBIAN"
	for p in "$@"; do
		[ -e "$stage/$p" ] || continue
		mkdir -p "$root/$(dirname "$p")"
		mv "$stage/$p" "$root/$p"
	done
	mkdir -p "$root/usr/share/doc/$name"
	cp "$src/README.md" "$root/usr/share/doc/$name/README.md"
}

pkg sluice usr/sbin usr/libexec etc/sluice etc/pam.d lib/systemd usr/lib/systemd usr/share/sluice
pkg sluice-client usr/bin

# Nothing may be left behind: a file make install adds must be given a home.
left=$(cd "$stage" && find . -type f | head -5)
if [ -n "$left" ]; then
	echo "mkdeb.sh: installed files in no package:" >&2
	echo "$left" >&2
	exit 1
fi

# dpkg-shlibdeps reads debian/control from the current directory.
mkdir -p "$work/shlib/debian"
printf 'Source: sluice\n\nPackage: sluice\nArchitecture: any\n\nPackage: sluice-client\nArchitecture: any\n' \
	>"$work/shlib/debian/control"
depends() {
	files=$(find "$work/pkg/$1" -type f -perm -u+x)
	(cd "$work/shlib" && dpkg-shlibdeps -O $files 2>/dev/null) |
		sed -n 's/^shlibs:Depends=//p'
}

control() {
	name=$1 deps=$2 summary=$3 text=$4
	cat >"$work/pkg/$name/DEBIAN/control" <<CTL
Package: $name
Version: $version
Architecture: $arch
Maintainer: Sluice developers <sluice@localhost>
Section: admin
Priority: optional
Depends: $deps
Description: $summary
$text
CTL
	(cd "$work/pkg/$name" && find etc -type f 2>/dev/null | sed 's|^|/|') \
		>"$work/pkg/$name/DEBIAN/conffiles"
	[ -s "$work/pkg/$name/DEBIAN/conffiles" ] || rm -f "$work/pkg/$name/DEBIAN/conffiles"
	dpkg-deb --root-owner-group -Zxz --build "$work/pkg/$name" \
		"$out/${name}_${version}_${arch}.deb" >/dev/null
	echo "$out/${name}_${version}_${arch}.deb"
}

control sluice "$(depends sluice)" \
	"Slurm- and PBS-compatible batch queue daemon (Kueue admission model)" \
	" sluiced keeps the queue, admits jobs with Kueue's quota, cohort and
 preemption rules, and runs them on this machine or on Kubernetes.
 Install sluice-client for the sbatch, squeue and qsub commands."
control sluice-client "$(depends sluice-client)" \
	"Slurm and PBS commands for the Sluice batch queue" \
	" sbatch, squeue, scancel, sacct, scontrol, sinfo, qsub, qstat, qdel and
 the other commands, talking to sluiced over its socket or over TCP with
 munge (login nodes)."
rm -rf "$work"
