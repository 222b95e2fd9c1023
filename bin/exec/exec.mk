# bin/exec/exec.mk: the table of executors (each in its own room below,
# behind libbatch/exec.h's struct sl_executor).
noinst_LIBRARIES += bin/exec/libexec.a
bin_exec_libexec_a_SOURCES = bin/exec/executors.c bin/exec/executors.h
SLUICED_EXECUTORS = bin/exec/libexec.a

include bin/exec/local/local.mk
include bin/exec/k8s/k8s.mk
