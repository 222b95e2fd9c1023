# sluiced: the daemon.
sbin_PROGRAMS += bin/sluiced/sluiced
bin_sluiced_sluiced_SOURCES = \
	bin/sluiced/main.c bin/sluiced/sluiced.h \
	bin/sluiced/loop.c bin/sluiced/loop.h \
	bin/sluiced/conn.c bin/sluiced/conn.h \
	bin/sluiced/dispatch.c bin/sluiced/dispatch.h \
	bin/sluiced/handlers.h bin/sluiced/filter.c \
	bin/sluiced/h_submit.c bin/sluiced/h_query.c bin/sluiced/h_control.c \
	bin/sluiced/lifecycle.c bin/sluiced/lifecycle.h \
	bin/sluiced/schedule.c bin/sluiced/schedule.h \
	bin/sluiced/jobtab.c bin/sluiced/jobtab.h \
	bin/sluiced/store.c bin/sluiced/store.h \
	bin/sluiced/idcache.c bin/sluiced/idcache.h \
	$(SLUICED_EXEC_SOURCES)
bin_sluiced_sluiced_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/bin/sluiced
bin_sluiced_sluiced_LDADD = $(SL_LIBS) $(SQLITE_LIBS)

UNIT_TESTS += tests/unit/test_store tests/unit/test_loop tests/unit/test_jobtab \
	tests/unit/test_idcache
tests_unit_test_idcache_SOURCES = tests/unit/test_idcache.c bin/sluiced/idcache.c
tests_unit_test_idcache_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/bin/sluiced
tests_unit_test_store_SOURCES = tests/unit/test_store.c bin/sluiced/store.c
tests_unit_test_store_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/bin/sluiced
tests_unit_test_store_LDADD = $(TEST_LIBS) $(SQLITE_LIBS)
tests_unit_test_loop_SOURCES = tests/unit/test_loop.c bin/sluiced/loop.c
tests_unit_test_loop_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/bin/sluiced
tests_unit_test_jobtab_SOURCES = tests/unit/test_jobtab.c bin/sluiced/jobtab.c
tests_unit_test_jobtab_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/bin/sluiced
