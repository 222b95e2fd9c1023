# tests/bench/bench.mk: benchmarks of the admission engine (libbatch/sched/).
# They are EXTRA_PROGRAMS: not built by `make` nor `make check` (a benchmark
# asserts invariants, not timings, and timings on a loaded CI host lie).
# Run them with `make bench-sched`; tests/bench/README.md has the figures.
# Makefile.am must declare `EXTRA_PROGRAMS =` before including this file.
EXTRA_PROGRAMS += tests/bench/sched_baseline tests/bench/sched_scale
tests_bench_sched_baseline_SOURCES = tests/bench/sched_baseline.c
tests_bench_sched_baseline_LDADD = $(SL_LIBS)
tests_bench_sched_scale_SOURCES = tests/bench/sched_scale.c
tests_bench_sched_scale_LDADD = $(SL_LIBS)
# automake does not clean EXTRA_PROGRAMS by itself
CLEANFILES += tests/bench/sched_baseline$(EXEEXT) tests/bench/sched_scale$(EXEEXT)
EXTRA_DIST += tests/bench/README.md

bench-sched: tests/bench/sched_baseline$(EXEEXT) tests/bench/sched_scale$(EXEEXT)
	./tests/bench/sched_baseline$(EXEEXT)
	./tests/bench/sched_scale$(EXEEXT)
.PHONY: bench-sched
