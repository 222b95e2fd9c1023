#!/bin/sh
#PBS -N later
#PBS -a 202612312359
true
