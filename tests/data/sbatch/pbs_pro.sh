#!/bin/bash
#PBS -l select=2:ncpus=8:mpiprocs=4
#PBS -l walltime=1:00:00
mpirun ./a.out
