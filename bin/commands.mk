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
bin_scontrol_SOURCES = bin/scontrol.c bin/scontrol_jobs.c bin/scontrol_jobs.h
bin_scontrol_LDADD = $(SL_LIBS)
bin_sinfo_SOURCES = bin/sinfo.c
bin_sinfo_LDADD = $(SL_LIBS)
# sdiag: sluiced's statistics (bin/sluiced/diag.c)
bin_PROGRAMS += bin/sdiag
bin_sdiag_SOURCES = bin/sdiag.c
bin_sdiag_LDADD = $(SL_LIBS)
TESTS += tests/integration/sdiag.sh
EXTRA_DIST += tests/integration/sdiag.sh
# sstat: running jobs' use, from their supervisors (h_stat.c)
bin_PROGRAMS += bin/sstat
bin_sstat_SOURCES = bin/sstat.c
bin_sstat_LDADD = $(SL_LIBS)

# `sluice`, the admin tool: simulate (the admission engine on scenarios),
# render (the object a job would become on Kubernetes), migrate (a Slurm
# cluster's config to Sluice's) and top (the ClusterQueues, live).
bin_PROGRAMS += bin/sluice
bin_sluice_SOURCES = bin/sluice.c bin/sluice_render.c bin/sluice_render.h \
	bin/sluice_replay.c bin/sluice_replay.h
bin_sluice_SOURCES += bin/sluice_migrate.c bin/sluice_migrate.h bin/sluice_top.c bin/sluice_top.h
TESTS += tests/integration/top.sh
EXTRA_DIST += tests/integration/top.sh
# The renderer needs compat and libbatch after it: static link order.
bin_sluice_LDADD = k8s/librender.a $(SL_LIBS)
TESTS += tests/unit/test_sluice_render.sh tests/unit/test_readme_options.sh \
	tests/unit/test_sluice_render_opts.sh
EXTRA_DIST += tests/unit/test_sluice_render.sh tests/unit/test_readme_options.sh \
	tests/unit/test_sluice_render_opts.sh tests/unit/render_testlib.sh

# The PBS commands over the same job record (compat/pbs.mk's dialect).
bin_PROGRAMS += bin/qsub
bin_qsub_SOURCES = bin/qsub.c bin/srun_alloc.c bin/srun_alloc.h
bin_qsub_LDADD = $(SL_LIBS)
# Dynamic, unlike sbatch: qsub looks up the user's home and login shell (NSS).
bin_PROGRAMS += bin/qstat
bin_qstat_SOURCES = bin/qstat.c
bin_qstat_LDADD = $(SL_LIBS)
bin_PROGRAMS += bin/qdel bin/qhold bin/qrls bin/qsig bin/qselect bin/qalter bin/qmove bin/pbsnodes
bin_qdel_SOURCES = bin/qdel.c bin/pbs_jobcmd.c bin/pbs_jobcmd.h
bin_qdel_LDADD = $(SL_LIBS)
bin_qhold_SOURCES = bin/qhold.c bin/pbs_jobcmd.c bin/pbs_jobcmd.h
bin_qhold_LDADD = $(SL_LIBS)
bin_qrls_SOURCES = bin/qrls.c bin/pbs_jobcmd.c bin/pbs_jobcmd.h
bin_qrls_LDADD = $(SL_LIBS)
bin_qsig_SOURCES = bin/qsig.c bin/pbs_jobcmd.c bin/pbs_jobcmd.h
bin_qsig_LDADD = $(SL_LIBS)
bin_qselect_SOURCES = bin/qselect.c
bin_qselect_LDADD = $(SL_LIBS)
bin_qalter_SOURCES = bin/qalter.c bin/pbs_jobcmd.c bin/pbs_jobcmd.h
bin_qalter_LDADD = $(SL_LIBS)
bin_qmove_SOURCES = bin/qmove.c bin/pbs_jobcmd.c bin/pbs_jobcmd.h
bin_qmove_LDADD = $(SL_LIBS)
bin_pbsnodes_SOURCES = bin/pbsnodes.c
bin_pbsnodes_LDADD = $(SL_LIBS)
# tracejob: a job's log lines as OpenPBS's daemons would have written them,
# rebuilt from its record (compat/pbs_tracejob.c).
bin_PROGRAMS += bin/tracejob
bin_tracejob_SOURCES = bin/tracejob.c
bin_tracejob_LDADD = $(SL_LIBS)
# pbsdsh: a program on each vnode of the job as one step's tasks, started
# by srun's task start (compat/pbsdsh.c: its command line and layout).
# Built without SL_HAVE_PMIX: its copies get no PMIx server, so srun_task.c
# links no libpmix here.
bin_PROGRAMS += bin/pbsdsh
bin_pbsdsh_SOURCES = bin/pbsdsh.c bin/pbsdsh_tm.c bin/pbsdsh_tm.h bin/sigpipe.c bin/sigpipe.h \
	bin/srun_task.c bin/srun_io.c bin/srun_files.c bin/srun_pty.c bin/srun_remote.c \
	bin/srun_pmi2.c bin/sluice-stepd/agent_wire.c
bin_pbsdsh_CPPFLAGS = $(AM_CPPFLAGS) -iquote $(top_srcdir)/bin/sluice-stepd
bin_pbsdsh_LDADD = $(SL_LIBS)

# sprio, sshare (priorities and fair sharing on Slurm's scale, libbatch/prio.h)
# and strigger (refused).
libbatch_libbatch_a_SOURCES += libbatch/prio.c libbatch/prio.h
compat_libcompat_a_SOURCES += compat/sprio_fmt.c compat/sprio_fmt.h \
	compat/sshare_fmt.c compat/sshare_fmt.h
bin_PROGRAMS += bin/sprio bin/sshare bin/strigger
bin_sprio_SOURCES = bin/sprio.c
bin_sprio_LDADD = $(SL_LIBS)
bin_sshare_SOURCES = bin/sshare.c
bin_sshare_LDADD = $(SL_LIBS)
bin_strigger_SOURCES = bin/strigger.c
UNIT_TESTS += tests/unit/test_sprio_fmt tests/unit/test_sshare_fmt
tests_unit_test_sprio_fmt_LDADD = $(TEST_LIBS)
tests_unit_test_sshare_fmt_LDADD = $(TEST_LIBS)
# sbcast: a file to a running job's nodes (compat/sbcast.c: the local copy).
compat_libcompat_a_SOURCES += compat/sbcast.c compat/sbcast.h
bin_PROGRAMS += bin/sbcast
bin_sbcast_SOURCES = bin/sbcast.c
bin_sbcast_LDADD = $(SL_LIBS)
UNIT_TESTS += tests/unit/test_sbcast
tests_unit_test_sbcast_LDADD = $(TEST_LIBS)
# sacctmgr, read-only: users, accounts, associations and QOS from the
# config behind sshare's associations (compat/sacctmgr_show.h).
compat_libcompat_a_SOURCES += compat/sacctmgr_show.h compat/sacctmgr_show_int.h \
	compat/sacctmgr_cmd.c compat/sacctmgr_fields.c compat/sacctmgr_rows.c
bin_PROGRAMS += bin/sacctmgr
bin_sacctmgr_SOURCES = bin/sacctmgr.c
bin_sacctmgr_LDADD = $(SL_LIBS)
UNIT_TESTS += tests/unit/test_sacctmgr_show
tests_unit_test_sacctmgr_show_LDADD = $(TEST_LIBS)
# srun: job steps inside an allocation (the tasks run as srun's children,
# in the job's process group); steps are recorded by sluiced.
bin_PROGRAMS += bin/srun
bin_srun_SOURCES = bin/srun.c bin/srun_step.c bin/srun_step.h bin/srun_step_int.h bin/srun_task.c bin/srun_io.c bin/srun_io.h \
	bin/srun_use.c bin/srun_use.h bin/sigpipe.c bin/sigpipe.h \
	bin/srun_files.c bin/srun_files.h \
	bin/srun_alloc.c bin/srun_alloc.h bin/srun_pty.c bin/srun_pty.h \
	bin/srun_remote.c bin/srun_remote.h \
	bin/sluice-stepd/agent_wire.c bin/sluice-stepd/agent_wire.h
bin_srun_CPPFLAGS = $(AM_CPPFLAGS) -iquote $(top_srcdir)/bin/sluice-stepd
bin_srun_LDADD = $(SL_LIBS)
bin_srun_SOURCES += bin/srun_pmix.h bin/srun_pmi2.c bin/srun_pmi2.h
if HAVE_PMIX
# --mpi=pmix (srun_pmix.c)
bin_srun_SOURCES += bin/srun_pmix.c
bin_srun_CPPFLAGS += -DSL_HAVE_PMIX
bin_srun_CFLAGS = $(AM_CFLAGS) $(PMIX_CFLAGS)
bin_srun_LDADD += $(PMIX_LIBS)
endif
libbatch_libbatch_a_SOURCES += libbatch/step.c libbatch/step.h \
	libbatch/client_step.c libbatch/client_step.h
compat_libcompat_a_SOURCES += compat/srun_opt.c compat/srun_opt.h \
	compat/srun_opt_place.c compat/srun_opt_int.h \
	compat/srun_layout.c compat/srun_layout.h \
	compat/srun_gpus.c compat/srun_gpus.h \
	compat/srun_gpu_bind.c compat/srun_gpu_bind.h \
	compat/srun_multiprog.c compat/srun_multiprog.h
# --mpi=pmi2: the PMI wire (compat/pmi2.c), served by bin/srun_pmi2.c
compat_libcompat_a_SOURCES += compat/pmi2.c compat/pmi2_map.c compat/pmi2.h
UNIT_TESTS += tests/unit/test_pmi2
UNIT_TESTS += tests/unit/test_srun_opt tests/unit/test_srun_gpus tests/unit/test_step_rows \
	tests/unit/test_srun_nodes
compat_libcompat_a_SOURCES += compat/squeue_steps.c compat/squeue_steps.h
EXTRA_DIST += tests/integration/srun_scenario.sh tests/integration/srun_capture.sh \
	tests/integration/srun_lib.sh tests/integration/srun_share.sh tests/data/srun/srun.golden
# salloc: an allocation (srun_alloc.c) and a command in it.
bin_PROGRAMS += bin/salloc
bin_salloc_SOURCES = bin/salloc.c bin/srun_alloc.c bin/srun_alloc.h
bin_salloc_LDADD = $(SL_LIBS)
bin_PROGRAMS += bin/sattach
bin_sattach_SOURCES = bin/sattach.c
