#!/bin/sh
#SBATCH --sockets-per-node=2
true
