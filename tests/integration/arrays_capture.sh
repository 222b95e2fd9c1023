#!/bin/sh
# arrays_capture.sh - write tests/data/arrays/arrays.golden from a real Slurm
# 22.05 (/work/shared/slurm: user alice, MaxArraySize=10001): the transcript
# of arrays_scenario.sh that arrays.sh diffs Sluice's against. Run as root
# with SL_CAPTURE=1 on a machine with that cluster up; not part of `make check`.
set -u
# A reference capture rewrites files under tests/data: never by accident
# (a run of every tests/integration/*.sh), only when asked (77: skipped).
if [ "${SL_CAPTURE:-}" != 1 ]; then
	echo "$(basename "$0"): rewrites tests/data from a real Slurm; run it with SL_CAPTURE=1" >&2
	exit 77
fi
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../data/arrays"
SBATCH=/usr/bin/sbatch SQUEUE=/usr/bin/squeue SCONTROL=/usr/bin/scontrol
SCANCEL=/usr/bin/scancel SACCT=/usr/bin/sacct OWNER=alice
as_user() { u=$1; shift; runuser -u "$u" -- "$@"; }
. "$here/arrays_scenario.sh"
work=$(mktemp -d /tmp/ar-ref.XXXXXX)
chmod 1777 "$work"
cd "$work" || exit 1
mkdir -p "$out"
scenario_arrays >"$out/arrays.golden"
echo "arrays: $(wc -l <"$out/arrays.golden") lines"
cd / && rm -rf "$work"
