# tests/bench/bench.mk: benchmarks of the admission engine (libbatch/sched/).
# They are EXTRA_PROGRAMS: not built by `make` nor `make check` (a benchmark
# asserts invariants, not timings, and timings on a loaded CI host lie).
# Run them with `make bench-sched`; tests/bench/README.md has the figures.
# Makefile.am must declare `EXTRA_PROGRAMS =` before including this file.
EXTRA_PROGRAMS += tests/bench/sched_baseline tests/bench/sched_scale
tests_bench_sched_baseline_SOURCES = tests/bench/sched_baseline.c tests/bench/sched_bench.h
tests_bench_sched_baseline_LDADD = $(SL_LIBS)
tests_bench_sched_scale_SOURCES = tests/bench/sched_scale.c tests/bench/sched_bench.h
tests_bench_sched_scale_LDADD = $(SL_LIBS)
# automake does not clean EXTRA_PROGRAMS by itself
CLEANFILES += tests/bench/sched_baseline$(EXEEXT) tests/bench/sched_scale$(EXEEXT)
EXTRA_DIST += tests/bench/README.md

bench-sched: tests/bench/sched_baseline$(EXEEXT) tests/bench/sched_scale$(EXEEXT)
	./tests/bench/sched_baseline$(EXEEXT)
	./tests/bench/sched_scale$(EXEEXT)
.PHONY: bench-sched

# Loading a model of 5 000 ClusterQueues (issue 11, hole 14): the engine
# alone (sched_load), then sluiced --check-config and a sluiced start on
# the same four configurations (sched_load.sh).
EXTRA_PROGRAMS += tests/bench/sched_load
tests_bench_sched_load_SOURCES = tests/bench/sched_load.c tests/bench/sched_bench.h
tests_bench_sched_load_LDADD = $(SL_LIBS)
CLEANFILES += tests/bench/sched_load$(EXEEXT)
EXTRA_DIST += tests/bench/sched_load.sh

bench-sched-load: all tests/bench/sched_load$(EXEEXT)
	./tests/bench/sched_load$(EXEEXT)
	bash $(srcdir)/tests/bench/sched_load.sh --build $(abs_top_builddir)
.PHONY: bench-sched-load

# The whole sluiced on the same schedule, on real time, with jobs that sleep
# (tests/bench/README.md, "sluiced on real time"). sluiced_baseline.sh writes
# the configuration, starts the daemon and runs this program against it.
# Options pass through BENCH_ARGS, e.g. a quick check:
#   make bench-sluiced BENCH_ARGS='--state-shm -- --scale 0.1'
EXTRA_PROGRAMS += tests/bench/sluiced_baseline
tests_bench_sluiced_baseline_SOURCES = tests/bench/sluiced_baseline.c
tests_bench_sluiced_baseline_LDADD = $(SL_LIBS) -lpthread
CLEANFILES += tests/bench/sluiced_baseline$(EXEEXT)
EXTRA_DIST += tests/bench/sluiced_baseline.sh tests/bench/sleeper.c

bench-sluiced: all tests/bench/sluiced_baseline$(EXEEXT)
	bash $(srcdir)/tests/bench/sluiced_baseline.sh --build $(abs_top_builddir) $(BENCH_ARGS)
.PHONY: bench-sluiced

# The --json documents' cost (tests/bench/README.md, "The --json documents")
EXTRA_DIST += tests/bench/json.sh
# squeue with 10 000 pending jobs (README.md, "squeue with 10 000 pending
# jobs"); BENCH_ARGS=--slurm times the real Slurm beside it.
EXTRA_DIST += tests/bench/squeue.sh tests/bench/paired.sh
bench-squeue: all
	bash $(srcdir)/tests/bench/squeue.sh $(BENCH_ARGS) $(abs_top_builddir)
.PHONY: bench-squeue
# scancel over 5 000-20 000 pending jobs (README.md, "scancel over many
# pending jobs"); OLD=DIR of an older build runs it there too and compares.
EXTRA_DIST += tests/bench/cancel.sh
bench-cancel: all
	bash $(srcdir)/tests/bench/cancel.sh $(abs_top_builddir)
.PHONY: bench-cancel
# srun -n 64 true, Sluice beside the real Slurm (issue 14): tests/bench/srun.sh.
EXTRA_DIST += tests/bench/srun.sh
# The same on the fake API server's exec-mode kubelet (4 pods): tests/bench/srun_k8s.sh.
EXTRA_DIST += tests/bench/srun_k8s.sh
# Start-time estimates and backfill at 100 000 pending (issue 16).
EXTRA_PROGRAMS += tests/bench/sched_estimate
tests_bench_sched_estimate_SOURCES = tests/bench/sched_estimate.c tests/bench/sched_bench.h
tests_bench_sched_estimate_LDADD = $(SL_LIBS)
CLEANFILES += tests/bench/sched_estimate$(EXEEXT)

bench-estimate: tests/bench/sched_estimate$(EXEEXT)
	./tests/bench/sched_estimate$(EXEEXT)
.PHONY: bench-estimate
EXTRA_DIST += tests/bench/estimate_trace.sh

# Late starts against first estimates, and backfill's waits, on a trace.
bench-estimate-trace: all
	bash $(srcdir)/tests/bench/estimate_trace.sh --build $(abs_top_builddir)
.PHONY: bench-estimate-trace
# Kueue's TAS performance test (15 000 workloads, 640 nodes) on the engine:
# sh tests/bench/tas.sh BUILD_DIR (tests/bench/README.md, "sched_tas").
EXTRA_DIST += tests/bench/tas.sh tests/bench/sched_tas.c
# sluiced's drain rate on the local executor (issue 16): 5,000 `true` jobs
# submitted 50 at a time. drain.sh starts the daemon and runs this program.
EXTRA_PROGRAMS += tests/bench/drain
tests_bench_drain_SOURCES = tests/bench/drain.c
tests_bench_drain_LDADD = $(SL_LIBS) -lpthread
CLEANFILES += tests/bench/drain$(EXEEXT)
EXTRA_DIST += tests/bench/drain.sh

bench-drain: all tests/bench/drain$(EXEEXT)
	bash $(srcdir)/tests/bench/drain.sh --build $(abs_top_builddir) $(BENCH_ARGS)
.PHONY: bench-drain

# One ClusterQueue, 50 000 pending (issue 16): admissions per second from a
# deep queue, and what one end costs with a deep BestEffortFIFO queue parked.
EXTRA_PROGRAMS += tests/bench/sched_deep
tests_bench_sched_deep_SOURCES = tests/bench/sched_deep.c tests/bench/sched_bench.h
tests_bench_sched_deep_LDADD = $(SL_LIBS)
CLEANFILES += tests/bench/sched_deep$(EXEEXT)
bench-sched-deep: tests/bench/sched_deep$(EXEEXT)
	./tests/bench/sched_deep$(EXEEXT)
	./tests/bench/sched_deep$(EXEEXT) --strict
.PHONY: bench-sched-deep

# The on-demand scripts the targets above do not name, so that a tarball
# carries every benchmark the README lists.
EXTRA_DIST += tests/bench/array.sh tests/bench/k8s_calls.sh tests/bench/k8s_nodes.sh \
	tests/bench/metrics.sh tests/bench/migrate.sh tests/bench/munge.sh \
	tests/bench/pbs_array.sh tests/bench/replay.sh tests/bench/replay_trace.py \
	tests/bench/submit.sh
