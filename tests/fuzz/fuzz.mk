# tests/fuzz: libFuzzer harnesses, one per parser of input that users,
# admins or the Kubernetes API write. `make check` replays every seed corpus
# (tests/fuzz/corpus/NAME) through replay.c's main() (tests/fuzz/replay.sh);
# test.sh replays them again built with clang's -fsanitize=fuzzer and the
# sanitizers; `make fuzz FUZZ_SECONDS=N` fuzzes each harness for N seconds
# (new inputs go to fuzz-work/NAME/, crashes to fuzz-work/NAME/crash-*:
# copy a reproducer into its corpus once fixed).
FUZZ_HARNESSES = proto script sbatch_opt slurm_time hostlist conf kubeconfig \
	k8s_status k8s_watch quantity squeue_fmt sacct_fmt job_parse scontrol_update
FUZZ_BINS = tests/fuzz/fuzz_proto tests/fuzz/fuzz_script tests/fuzz/fuzz_sbatch_opt \
	tests/fuzz/fuzz_slurm_time tests/fuzz/fuzz_hostlist tests/fuzz/fuzz_conf \
	tests/fuzz/fuzz_kubeconfig tests/fuzz/fuzz_k8s_status tests/fuzz/fuzz_k8s_watch \
	tests/fuzz/fuzz_quantity tests/fuzz/fuzz_squeue_fmt tests/fuzz/fuzz_sacct_fmt \
	tests/fuzz/fuzz_job_parse tests/fuzz/fuzz_scontrol_update
check_PROGRAMS += $(FUZZ_BINS)
TESTS += tests/fuzz/replay.sh

# The main() of a replay; empty when libFuzzer brings its own (with
# FUZZ_LDFLAGS=-fsanitize=fuzzer: not LDFLAGS, which configure's reruns
# would use to link their test programs, and fail).
check_LIBRARIES = tests/fuzz/libreplay.a
tests_fuzz_libreplay_a_SOURCES = tests/fuzz/replay.c
FUZZ_MAIN = tests/fuzz/libreplay.a
FUZZ_LDFLAGS =
FUZZ_LIBS = $(FUZZ_MAIN) $(TEST_LIBS)
FUZZ_INCS = tests/fuzz/fuzz.h tests/fuzz/fuzz_jobs.h
tests_fuzz_fuzz_proto_LDADD = $(FUZZ_LIBS)
tests_fuzz_fuzz_script_LDADD = $(FUZZ_LIBS)
tests_fuzz_fuzz_sbatch_opt_LDADD = $(FUZZ_LIBS)
tests_fuzz_fuzz_slurm_time_LDADD = $(FUZZ_LIBS)
tests_fuzz_fuzz_hostlist_LDADD = $(FUZZ_LIBS)
tests_fuzz_fuzz_conf_LDADD = $(FUZZ_LIBS)
tests_fuzz_fuzz_kubeconfig_LDADD = $(FUZZ_MAIN) k8s/libk8s.a $(TEST_LIBS) $(CURL_LIBS)
tests_fuzz_fuzz_k8s_status_LDADD = $(FUZZ_MAIN) k8s/librender.a $(TEST_LIBS)
tests_fuzz_fuzz_k8s_watch_LDADD = $(FUZZ_MAIN) k8s/libk8s.a k8s/librender.a $(TEST_LIBS) \
	$(CURL_LIBS)
tests_fuzz_fuzz_quantity_LDADD = $(FUZZ_LIBS)
tests_fuzz_fuzz_squeue_fmt_SOURCES = tests/fuzz/fuzz_squeue_fmt.c $(FUZZ_INCS)
tests_fuzz_fuzz_squeue_fmt_LDADD = $(FUZZ_LIBS)
tests_fuzz_fuzz_sacct_fmt_SOURCES = tests/fuzz/fuzz_sacct_fmt.c $(FUZZ_INCS)
tests_fuzz_fuzz_sacct_fmt_LDADD = $(FUZZ_LIBS)
tests_fuzz_fuzz_job_parse_LDADD = $(FUZZ_LIBS)
tests_fuzz_fuzz_scontrol_update_LDADD = $(FUZZ_LIBS)
tests_fuzz_fuzz_proto_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_script_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_sbatch_opt_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_slurm_time_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_hostlist_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_conf_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_kubeconfig_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_k8s_status_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_k8s_watch_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_quantity_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_squeue_fmt_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_sacct_fmt_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_job_parse_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_scontrol_update_LDFLAGS = $(FUZZ_LDFLAGS)
EXTRA_DIST += tests/fuzz/replay.sh tests/fuzz/corpus $(FUZZ_INCS)

# The libFuzzer build: its own tree configured with clang (the code under
# test instrumented with -fsanitize=fuzzer-no-link, the harnesses linked
# with -fsanitize=fuzzer), so the gcc build here stays as it is.
FUZZ_CC = clang
FUZZ_BUILD = $(abs_top_builddir)/fuzz-build
FUZZ_SECONDS = 60
fuzz-programs:
	@command -v $(FUZZ_CC) >/dev/null 2>&1 || \
		{ echo "fuzzing needs $(FUZZ_CC) (Debian: apt-get install clang)" >&2; exit 1; }
	@$(MKDIR_P) $(FUZZ_BUILD)
	@test -f $(FUZZ_BUILD)/Makefile || (cd $(FUZZ_BUILD) && $(abs_top_srcdir)/configure \
		--quiet --enable-sanitize --disable-static-commands CC=$(FUZZ_CC) \
		CFLAGS="-g -O1 -fsanitize=fuzzer-no-link")
	@$(MAKE) -s -C $(FUZZ_BUILD) FUZZ_MAIN= FUZZ_LDFLAGS=-fsanitize=fuzzer $(FUZZ_BINS)

# Replay every corpus once through the libFuzzer builds (test.sh's stage).
fuzz-replay: fuzz-programs
	top_srcdir=$(abs_top_srcdir) top_builddir=$(FUZZ_BUILD) $(SHELL) \
		$(abs_top_srcdir)/tests/fuzz/replay.sh

# The same through replay.c's main in this build (test.sh without clang).
fuzz-replay-here: $(FUZZ_BINS)
	top_srcdir=$(abs_top_srcdir) top_builddir=$(abs_top_builddir) $(SHELL) \
		$(abs_top_srcdir)/tests/fuzz/replay.sh

fuzz: fuzz-programs
	@for h in $(FUZZ_HARNESSES); do \
		$(MKDIR_P) fuzz-work/$$h/new; \
		echo "fuzzing $$h for $(FUZZ_SECONDS) s (fuzz-work/$$h/log)"; \
		$(FUZZ_BUILD)/tests/fuzz/fuzz_$$h -max_total_time=$(FUZZ_SECONDS) -timeout=10 \
			-artifact_prefix=fuzz-work/$$h/ fuzz-work/$$h/new \
			$(abs_top_srcdir)/tests/fuzz/corpus/$$h >fuzz-work/$$h/log 2>&1 || \
			{ tail -n 40 fuzz-work/$$h/log; exit 1; }; \
		tail -n 1 fuzz-work/$$h/log; \
	done
.PHONY: fuzz fuzz-programs fuzz-replay fuzz-replay-here
