#!/bin/sh
# FireWorks' SLURM template with exclude_nodes and the GPU keys set
# to "": Slurm 22.05 takes these as no list and no GPUs.
#SBATCH --exclude=
#SBATCH --nodelist=
#SBATCH --gpus=
#SBATCH --gpus-per-node=
#SBATCH --gpus-per-task=
hostname
