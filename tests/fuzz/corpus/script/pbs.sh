#!/bin/sh
#PBS -N pbsjob -l nodes=2:ppn=4
#SBATCH -J "quoted name" --export='A=1,B=2' # comment
#SBATCH -N 1-4k
hostname
