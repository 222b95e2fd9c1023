#!/bin/sh
#SBATCH --hint=nomultithread
#SBATCH --cores-per-socket=4
true
