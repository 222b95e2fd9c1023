#!/bin/sh
#SBATCH -J commented
#SBATCH --comment="a comment"
hostname
