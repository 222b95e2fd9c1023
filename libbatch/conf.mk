# libbatch/conf.mk: configuration loading (YAML tree, quantities, sluice config).
libbatch_libbatch_a_SOURCES += \
	libbatch/yaml.c libbatch/yaml.h \
	libbatch/quantity.c libbatch/quantity.h \
	libbatch/conf.c libbatch/conf.h libbatch/conf_peek.c \
	libbatch/conf_keys.c libbatch/conf_int.h \
	libbatch/features.c libbatch/features.h \
	libbatch/conf_kube.c libbatch/conf_kube.h

UNIT_TESTS += tests/unit/test_yaml tests/unit/test_quantity tests/unit/test_conf \
	tests/unit/test_conf_sections

# test_conf loads the shipped etc/sluice.yaml and these files; it and
# test_conf_sections share conf_fixture.h.
EXTRA_DIST += etc/sluice.yaml tests/unit/conf_testlib.h tests/unit/conf_fixture.h \
	tests/data/conf/full.yaml \
	tests/data/conf/unknown-kind.yaml \
	tests/data/conf/dir/10-settings.yaml \
	tests/data/conf/dir/20-queues.yaml \
	tests/data/conf/dir/30-local.yaml \
	tests/data/conf/dir/notes.txt \
	tests/data/conf/dir/.hidden.yaml

# QOS and Account objects and their limits (libbatch/qos_limits*.c).
UNIT_TESTS += tests/unit/test_qos_limits
