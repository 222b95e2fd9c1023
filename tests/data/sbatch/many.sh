#!/bin/bash
#SBATCH -J manyopts
#SBATCH -p gpu
#SBATCH -N 2
#SBATCH -n 4
#SBATCH --ntasks-per-node=2
#SBATCH -c 2
#SBATCH --mem=1G
#SBATCH --gres=gpu:2
#SBATCH -t 00:10:00
#SBATCH -o out-%x-%j.txt
#SBATCH -e err-%x-%j.txt
#SBATCH --export=ALL,MYVAR=hello
#SBATCH --nice=100
env | grep -E '^(SLURM|SBATCH|MYVAR|CUDA|GPU)' | sort
echo "cwd=$(pwd)"
