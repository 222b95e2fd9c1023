# compat/migrate.mk: `sluice migrate`'s readers and mapper: slurm.conf
# (lines, nodes, partitions), sacctmgr's outputs, and the mapping to
# Sluice's config with its report.
compat_libcompat_a_SOURCES += \
	compat/slurm_conf.c compat/slurm_conf.h compat/slurm_nodes.c \
	compat/sacctmgr.h compat/sacctmgr_db.c compat/sacctmgr_dump.c compat/sacctmgr_table.c \
	compat/migrate.c compat/migrate.h compat/migrate_int.h compat/migrate_keys.c \
	compat/migrate_flavors.c compat/migrate_queues.c compat/migrate_acct.c

UNIT_TESTS += tests/unit/test_slurm_conf tests/unit/test_migrate

# Inputs (site configs, Debian's examples, the reference cluster's
# slurm.conf and sacctmgr captures) and their goldens.
EXTRA_DIST += tests/data/migrate tests/unit/tmpdir_testlib.h

TESTS += tests/integration/migrate.sh
EXTRA_DIST += tests/integration/migrate.sh
EXTRA_DIST += tests/bench/migrate.sh
