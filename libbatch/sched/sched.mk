# libbatch/sched/sched.mk: owned by its area; see Makefile.am
