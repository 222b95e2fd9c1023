#!/bin/sh
# arrays_capture.sh - write tests/data/arrays/arrays.golden from a real Slurm
# 22.05 (/work/shared/slurm: user alice, MaxArraySize=10001): the transcript
# of arrays_scenario.sh that arrays.sh diffs Sluice's against. Run as root
# on a machine with that cluster up; not part of `make check`.
set -u
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
