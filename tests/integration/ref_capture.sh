#!/bin/bash
# ref_capture.sh - write tests/data/scontrol/{deps,control}.golden from a real
# Slurm 22.05 (/work/shared/slurm: users alice and bob, root an operator):
# the transcripts of scontrol_scenario.sh that deps.sh and control.sh diff
# Sluice's against. Run as root with SL_CAPTURE=1 on a machine with that cluster up;
# not part of `make check`.
set -u
# A reference capture rewrites files under tests/data: never by accident
# (a run of every tests/integration/*.sh), only when asked (77: skipped).
if [ "${SL_CAPTURE:-}" != 1 ]; then
	echo "$(basename "$0"): rewrites tests/data from a real Slurm; run it with SL_CAPTURE=1" >&2
	exit 77
fi
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../data/scontrol"
SBATCH=/usr/bin/sbatch SCONTROL=/usr/bin/scontrol SCANCEL=/usr/bin/scancel
OWNER=alice OTHER=bob
as_user() {
	u=$1; shift
	if [ "$u" = root ]; then "$@"; else runuser -u "$u" -- "$@"; fi
}
. "$here/scontrol_scenario.sh"
work=$(mktemp -d /tmp/sc-ref.XXXXXX)
chmod 1777 "$work"
cd "$work" || exit 1
mkdir -p "$out"
for s in ${1:-deps control}; do
	SC_IDS="" SC_SED=""
	"scenario_$s" >"$out/$s.golden"
	echo "$s: $(wc -l <"$out/$s.golden") lines"
done
cd / && rm -rf "$work"
