#!/bin/bash
#PBS -N pbsjob
#PBS -l nodes=2:ppn=4
#PBS -l walltime=00:10:00,mem=4gb
#PBS -q cpu
#PBS -m abe
#PBS -M user@example.org
#PBS -j oe
#PBS -V
#PBS -v FOO=1
cd "$PBS_O_WORKDIR"
echo hi
#PBS -p 5
