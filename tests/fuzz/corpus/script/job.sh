#!/bin/sh
#SBATCH --job-name=fromscript
#SBATCH --partition scriptpart
#SBATCH -A scriptacct
#SBATCH -t 10

# a comment and a blank line do not end the directives
#SBATCH --qos=low
hostname
#SBATCH --qos=ignored-after-command
