# compat/scontrol.mk: scontrol's dialect: what `show job|partition|node|
# config` print and what `update` reads, as pure functions.
compat_libcompat_a_SOURCES += \
	compat/scontrol_fmt.h compat/scontrol_job.c compat/scontrol_show.c \
	compat/scontrol_update.c compat/scontrol_cmd.c compat/scontrol_step.c \
	compat/scontrol_ids.c compat/scontrol_node.c compat/scontrol_node.h

UNIT_TESTS += tests/unit/test_scontrol_fmt tests/unit/test_scontrol_node
