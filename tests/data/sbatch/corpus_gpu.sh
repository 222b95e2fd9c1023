#!/bin/bash
#SBATCH --job-name=train
#SBATCH --account=accre_gpu
#SBATCH --partition=pascal
#SBATCH --nodes=1
#SBATCH --tasks-per-node=4
#SBATCH --cpus-per-task=2
#SBATCH --mem=0
#SBATCH --gres=gpu:a100:4
#SBATCH --exclusive
#SBATCH --signal=B:USR1@120
#SBATCH --hint=nomultithread
#SBATCH --mail-type=END,FAIL
#SBATCH --mail-user=someone@example.org
#SBATCH --time=2-00:00:00
#SBATCH --output=logs/%x-%j.out
#SBATCH --requeue
#SBATCH --open-mode=append
module load cuda
srun python train.py
