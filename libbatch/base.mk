# libbatch core: errors, memory, logging, buffers, job records, the submit
# policy, wire, client, the event loop and the executors' event queue, the
# job-directory contract between sluiced and sluice-stepd, and the executor
# interface (exec.h).
libbatch_libbatch_a_SOURCES += \
	libbatch/err.c libbatch/err.h \
	libbatch/clock.c libbatch/clock.h \
	libbatch/xalloc.c libbatch/xalloc.h \
	libbatch/log.c libbatch/log.h \
	libbatch/buf.c libbatch/buf.h \
	libbatch/fsutil.c libbatch/fsutil.h \
	libbatch/fdpass.c libbatch/fdpass.h \
	libbatch/jobstate.c libbatch/jobstate.h \
	libbatch/job.c libbatch/job.h libbatch/job_fields.h libbatch/job_text.c \
	libbatch/job_parse.c libbatch/job_proj.c libbatch/job_proj.h \
	libbatch/depend.c libbatch/depend.h \
	libbatch/workload.c libbatch/workload.h \
	libbatch/authz.c libbatch/authz.h \
	libbatch/submit.c libbatch/submit.h \
	libbatch/proto.c libbatch/proto.h \
	libbatch/client.c libbatch/client.h libbatch/client_int.h \
	libbatch/client_conn.c libbatch/client_shares.c libbatch/client_node.c \
	libbatch/lim_json.c libbatch/lim_json.h \
	libbatch/jobfilter.c libbatch/jobfilter.h \
	libbatch/loop.c libbatch/loop.h \
	libbatch/evq.c libbatch/evq.h libbatch/exec.h \
	libbatch/idcache.c libbatch/idcache.h \
	libbatch/jobdir.c libbatch/jobdir.h \
	libbatch/usage.c libbatch/usage.h \
	libbatch/proctree.c libbatch/proctree.h \
	libbatch/sha256.c libbatch/sha256.h \
	libbatch/auth.c libbatch/auth.h \
	libbatch/pamconv.c libbatch/pamconv.h \
	libbatch/netaddr.c libbatch/netaddr.h \
	libbatch/rlimit.c libbatch/rlimit.h \
	libbatch/partdef.c libbatch/partdef.h libbatch/idsorted.h \
	libbatch/qos_limits.c libbatch/qos_limits.h libbatch/qos_limits_int.h libbatch/qos_limits_check.c \
	libbatch/array.c libbatch/array.h

UNIT_TESTS += tests/unit/test_rlimit tests/unit/test_proctree tests/unit/test_usage
UNIT_TESTS += tests/unit/test_buf tests/unit/test_job tests/unit/test_proto \
	tests/unit/test_job_text tests/unit/test_job_parse tests/unit/test_jobfilter \
	tests/unit/test_fsutil tests/unit/test_fdpass
UNIT_TESTS += tests/unit/test_workload tests/unit/test_submit tests/unit/test_loop \
	tests/unit/test_evq tests/unit/test_idcache tests/unit/test_sha256 \
	tests/unit/test_auth tests/unit/test_netaddr tests/unit/test_depend \
	tests/unit/test_submit_opts
UNIT_TESTS += tests/unit/test_array tests/unit/test_job_proj
EXTRA_DIST += tests/unit/submit_testlib.h
tests_unit_test_job_SOURCES = tests/unit/test_job.c tests/unit/job_testlib.h
tests_unit_test_job_text_SOURCES = tests/unit/test_job_text.c tests/unit/job_testlib.h
tests_unit_test_job_parse_SOURCES = tests/unit/test_job_parse.c tests/unit/job_testlib.h
tests_unit_test_job_proj_SOURCES = tests/unit/test_job_proj.c tests/unit/job_testlib.h
