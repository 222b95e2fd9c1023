# k8s/render.mk: an admitted job -> its JobSet / MPIJob (k8s/render*.c), the
# `kubernetes:` section of the config, `sluice render`, and their tests.
noinst_LIBRARIES += k8s/librender.a
k8s_librender_a_SOURCES = \
	k8s/render.c k8s/render.h \
	k8s/render_jobset.c k8s/render_jobset.h \
	k8s/render_mpijob.c k8s/render_mpijob.h \
	k8s/podlog.c k8s/podlog.h

# The config section belongs to the core library: conf.c parses it.
libbatch_libbatch_a_SOURCES += libbatch/conf_kube.c libbatch/conf_kube.h

# `sluice render` (bin_sluice_* come from libbatch/sched/sched.mk). The
# renderer needs compat and libbatch after it: static link order.
bin_sluice_SOURCES += bin/sluice_render.c bin/sluice_render.h
bin_sluice_LDADD += k8s/librender.a $(SL_LIBS)

UNIT_TESTS += tests/unit/test_render
tests_unit_test_render_LDADD = k8s/librender.a $(TEST_LIBS)

# Goldens against the CRD schemas (ajv; skips without node or
# `npm ci --prefix tests/node`), and the command end to end.
TESTS += tests/unit/test_render_crd.sh tests/unit/test_sluice_render.sh

EXTRA_DIST += \
	tests/unit/test_render_crd.sh tests/unit/test_sluice_render.sh \
	tests/node/package.json tests/node/package-lock.json tests/node/validate-crd.js \
	tests/data/render/sluice.yaml \
	tests/data/render/jobset-1node.json \
	tests/data/render/jobset-4node-8gpu.json \
	tests/data/render/jobset-time.json \
	tests/data/render/jobset-stderr.json \
	tests/data/render/jobset-image.json \
	tests/data/render/mpijob-openmpi.json \
	tests/data/render/mpijob-intel.json
