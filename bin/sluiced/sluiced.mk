# bin/sluiced/sluiced.mk: the daemon core (startup, connections, dispatch,
# authorization, handlers, lifecycle, scheduling glue, store). Executors
# live in bin/exec/*/ and are linked in as their own libraries.
sbin_PROGRAMS += bin/sluiced/sluiced
bin_sluiced_sluiced_SOURCES = \
	bin/sluiced/main.c bin/sluiced/sluiced.h \
	bin/sluiced/listen.c bin/sluiced/listen.h \
	bin/sluiced/conn.c bin/sluiced/conn.h \
	bin/sluiced/authq.c bin/sluiced/authq.h \
	bin/sluiced/dispatch.c bin/sluiced/dispatch.h \
	bin/sluiced/pam.c bin/sluiced/pam.h \
	bin/sluiced/handlers.h \
	bin/sluiced/h_submit.c bin/sluiced/h_query.c bin/sluiced/h_control.c bin/sluiced/h_hold.c \
	bin/sluiced/h_info.c bin/sluiced/h_update.c bin/sluiced/h_admin.c \
	bin/sluiced/update_fields.c bin/sluiced/update_place.c bin/sluiced/update_int.h \
	bin/sluiced/h_stat.c bin/sluiced/h_diag.c bin/sluiced/diag.c bin/sluiced/diag.h \
	bin/sluiced/h_share.c bin/sluiced/h_share_conf.c \
	bin/sluiced/gates.c bin/sluiced/gates.h \
	bin/sluiced/limgate.c bin/sluiced/limgate.h \
	bin/sluiced/lifecycle.c bin/sluiced/lifecycle.h \
	bin/sluiced/acts.c bin/sluiced/acts.h \
	bin/sluiced/mail.c bin/sluiced/mail.h bin/sluiced/timed.c bin/sluiced/timed.h \
	bin/sluiced/schedule.c bin/sluiced/schedule.h \
	bin/sluiced/nodefeed.c bin/sluiced/nodefeed.h \
	bin/sluiced/nodeadmin.c bin/sluiced/nodeadmin.h bin/sluiced/nodecordon.c \
	bin/sluiced/partadmin.c bin/sluiced/partadmin.h \
	bin/sluiced/jobtab.c bin/sluiced/jobtab.h \
	bin/sluiced/store.c bin/sluiced/store.h bin/sluiced/store_open.c bin/sluiced/store_rows.c \
	bin/sluiced/store_int.h bin/sluiced/store_nodes.c bin/sluiced/store_nodes.h bin/sluiced/statedir.c bin/sluiced/statedir.h
bin_sluiced_sluiced_SOURCES += bin/sluiced/metrics.c bin/sluiced/metrics.h \
	bin/sluiced/metrics_int.h bin/sluiced/metrics_text.c
bin_sluiced_sluiced_CPPFLAGS = $(AM_CPPFLAGS) -iquote $(top_srcdir)/bin $(MHD_CFLAGS)
bin_sluiced_sluiced_SOURCES += bin/sluiced/info_nodes.c bin/sluiced/info_nodes.h
UNIT_TESTS += tests/unit/test_info_nodes tests/unit/test_diag
tests_unit_test_diag_SOURCES = tests/unit/test_diag.c bin/sluiced/diag.c
tests_unit_test_diag_CPPFLAGS = $(AM_CPPFLAGS) -iquote $(top_srcdir)/bin/sluiced
tests_unit_test_info_nodes_SOURCES = tests/unit/test_info_nodes.c bin/sluiced/info_nodes.c
# The TAS node feed, with the engine's side recorded by the test.
UNIT_TESTS += tests/unit/test_nodefeed
tests_unit_test_nodefeed_SOURCES = tests/unit/test_nodefeed.c bin/sluiced/nodefeed.c
tests_unit_test_nodefeed_CPPFLAGS = $(AM_CPPFLAGS) -iquote $(top_srcdir)/bin/sluiced \
	-iquote $(top_srcdir)/tests/unit
tests_unit_test_info_nodes_CPPFLAGS = $(AM_CPPFLAGS) -iquote $(top_srcdir)/bin/sluiced \
	-iquote $(top_srcdir)/tests/unit
# Static link order: the executors, then what they use.
bin_sluiced_sluiced_LDADD = $(SLUICED_EXECUTORS) k8s/librender.a k8s/libk8s.a \
	$(SL_LIBS) $(SQLITE_LIBS) $(CURL_LIBS) $(PAM_LIBS) $(MHD_LIBS) -lpthread

UNIT_TESTS += tests/unit/test_store tests/unit/test_jobtab tests/unit/test_authz
tests_unit_test_store_SOURCES = tests/unit/test_store.c bin/sluiced/store.c \
	bin/sluiced/store_open.c bin/sluiced/store_rows.c bin/sluiced/statedir.c \
	bin/sluiced/store_steps.c
tests_unit_test_store_CPPFLAGS = $(AM_CPPFLAGS) -iquote $(top_srcdir)/bin/sluiced
tests_unit_test_store_LDADD = $(TEST_LIBS) $(SQLITE_LIBS)
tests_unit_test_jobtab_SOURCES = tests/unit/test_jobtab.c bin/sluiced/jobtab.c
tests_unit_test_jobtab_CPPFLAGS = $(AM_CPPFLAGS) -iquote $(top_srcdir)/bin/sluiced
# The dispatcher and its rules, with stand-ins for the handlers.
tests_unit_test_authz_SOURCES = tests/unit/test_authz.c bin/sluiced/dispatch.c
tests_unit_test_authz_CPPFLAGS = $(AM_CPPFLAGS) -iquote $(top_srcdir)/bin/sluiced

# /metrics scraped over HTTP while jobs run, wait and are preempted.
TESTS += tests/integration/metrics.sh
EXTRA_DIST += tests/integration/metrics.sh
# A Grafana dashboard of the metrics, for sites to import.
grafanadir = $(datadir)/sluice
dist_grafana_DATA = etc/grafana-sluice.json
EXTRA_DIST += tests/bench/metrics.sh
# Job steps: the requests srun, sacct, squeue -s and scancel N.S make.
bin_sluiced_sluiced_SOURCES += bin/sluiced/h_step.c bin/sluiced/store_steps.c \
	bin/sluiced/store_steps.h
UNIT_TESTS += tests/unit/test_store_steps tests/unit/test_store_nodes
tests_unit_test_store_nodes_SOURCES = tests/unit/test_store_nodes.c bin/sluiced/store_nodes.c \
	bin/sluiced/store.c bin/sluiced/store_open.c bin/sluiced/store_rows.c bin/sluiced/statedir.c
tests_unit_test_store_nodes_CPPFLAGS = $(AM_CPPFLAGS) -iquote $(top_srcdir)/bin/sluiced
tests_unit_test_store_nodes_LDADD = $(TEST_LIBS) $(SQLITE_LIBS)
tests_unit_test_store_steps_SOURCES = tests/unit/test_store_steps.c bin/sluiced/store_steps.c \
	bin/sluiced/store.c bin/sluiced/store_open.c bin/sluiced/store_rows.c bin/sluiced/statedir.c
tests_unit_test_store_steps_CPPFLAGS = $(AM_CPPFLAGS) -iquote $(top_srcdir)/bin/sluiced
tests_unit_test_store_steps_LDADD = $(TEST_LIBS) $(SQLITE_LIBS)
