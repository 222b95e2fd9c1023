#!/bin/sh
# FireWorks' SLURM template with a key set to "" leaves its value empty:
# Slurm 22.05 takes these (--exclusive= is --exclusive, --nice= is
# --nice, the rest ask for nothing).
#SBATCH --exclusive=
#SBATCH --nice=
#SBATCH --license=
#SBATCH --reservation=
#SBATCH --network=""
hostname
