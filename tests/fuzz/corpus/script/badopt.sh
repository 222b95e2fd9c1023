#!/bin/sh
#SBATCH --bogus-option
true
