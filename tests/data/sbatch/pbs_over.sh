#!/bin/sh
#SBATCH -J fromsbatch
#SBATCH -t 5
#PBS -N frompbs
#PBS -W umask=027
true
