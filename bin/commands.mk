# bin/commands.mk: the user commands, one thin file each. They parse with
# compat/'s tables, make one client call (libbatch/client.c) and print.
bin_PROGRAMS += bin/sbatch bin/squeue bin/sacct bin/scancel bin/scontrol bin/sinfo
bin_sbatch_SOURCES = bin/sbatch.c
bin_sbatch_LDADD = $(SL_LIBS)
# sbatch runs once per job and uses no NSS: static unless configured not to.
bin_sbatch_LDFLAGS = $(STATIC_LDFLAGS)
bin_squeue_SOURCES = bin/squeue.c
bin_squeue_LDADD = $(SL_LIBS)
bin_sacct_SOURCES = bin/sacct.c
bin_sacct_LDADD = $(SL_LIBS)
bin_scancel_SOURCES = bin/scancel.c
bin_scancel_LDADD = $(SL_LIBS)
bin_scontrol_SOURCES = bin/scontrol.c
bin_scontrol_LDADD = $(SL_LIBS)
bin_sinfo_SOURCES = bin/sinfo.c
bin_sinfo_LDADD = $(SL_LIBS)

# `sluice`, the admin tool: simulate (the admission engine on scenarios)
# and render (the object a job would become on Kubernetes).
bin_PROGRAMS += bin/sluice
bin_sluice_SOURCES = bin/sluice.c bin/sluice_render.c bin/sluice_render.h
# The renderer needs compat and libbatch after it: static link order.
bin_sluice_LDADD = k8s/librender.a $(SL_LIBS)
TESTS += tests/unit/test_sluice_render.sh tests/unit/test_readme_options.sh \
	tests/unit/test_sluice_render_opts.sh
EXTRA_DIST += tests/unit/test_sluice_render.sh tests/unit/test_readme_options.sh \
	tests/unit/test_sluice_render_opts.sh tests/unit/render_testlib.sh

# The PBS commands over the same job record (compat/pbs.mk's dialect).
bin_PROGRAMS += bin/qsub
bin_qsub_SOURCES = bin/qsub.c
bin_qsub_LDADD = $(SL_LIBS)
# Dynamic, unlike sbatch: qsub looks up the user's home and login shell (NSS).
bin_PROGRAMS += bin/qstat
bin_qstat_SOURCES = bin/qstat.c
bin_qstat_LDADD = $(SL_LIBS)
bin_PROGRAMS += bin/qdel bin/qhold bin/qrls bin/qsig bin/qselect bin/qalter bin/qmove bin/pbsnodes
bin_qdel_SOURCES = bin/qdel.c
bin_qdel_LDADD = $(SL_LIBS)
bin_qhold_SOURCES = bin/qhold.c bin/pbs_jobcmd.c bin/pbs_jobcmd.h
bin_qhold_LDADD = $(SL_LIBS)
bin_qrls_SOURCES = bin/qrls.c bin/pbs_jobcmd.c bin/pbs_jobcmd.h
bin_qrls_LDADD = $(SL_LIBS)
bin_qsig_SOURCES = bin/qsig.c bin/pbs_jobcmd.c bin/pbs_jobcmd.h
bin_qsig_LDADD = $(SL_LIBS)
bin_qselect_SOURCES = bin/qselect.c
bin_qselect_LDADD = $(SL_LIBS)
bin_qalter_SOURCES = bin/qalter.c
bin_qmove_SOURCES = bin/qmove.c
bin_pbsnodes_SOURCES = bin/pbsnodes.c
bin_pbsnodes_LDADD = $(SL_LIBS)

# srun: job steps inside an allocation (the tasks run as srun's children,
# in the job's process group); steps are recorded by sluiced.
bin_PROGRAMS += bin/srun
bin_srun_SOURCES = bin/srun.c bin/srun_step.c bin/srun_step.h bin/srun_io.c bin/srun_io.h \
	bin/srun_alloc.c bin/srun_alloc.h bin/srun_pty.c bin/srun_pty.h
bin_srun_LDADD = $(SL_LIBS)
libbatch_libbatch_a_SOURCES += libbatch/step.c libbatch/step.h \
	libbatch/client_step.c libbatch/client_step.h
compat_libcompat_a_SOURCES += compat/srun_opt.c compat/srun_opt.h \
	compat/srun_layout.c compat/srun_layout.h \
	compat/srun_multiprog.c compat/srun_multiprog.h
UNIT_TESTS += tests/unit/test_srun_opt tests/unit/test_step_rows
compat_libcompat_a_SOURCES += compat/squeue_steps.c compat/squeue_steps.h
EXTRA_DIST += tests/integration/srun_scenario.sh tests/integration/srun_capture.sh \
	tests/integration/srun_lib.sh tests/integration/srun_share.sh tests/data/srun/srun.golden
# salloc: an allocation (srun_alloc.c) and a command in it.
bin_PROGRAMS += bin/salloc
bin_salloc_SOURCES = bin/salloc.c bin/srun_alloc.c bin/srun_alloc.h
bin_salloc_LDADD = $(SL_LIBS)
bin_PROGRAMS += bin/sattach
bin_sattach_SOURCES = bin/sattach.c
