#!/bin/sh
#SBATCH -J arr
#SBATCH --array=0-15:4%2
#SBATCH -o arr-%A_%a.out
echo $SLURM_ARRAY_TASK_ID
