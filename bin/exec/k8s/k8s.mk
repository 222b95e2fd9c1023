# bin/exec/k8s/k8s.mk: the Kubernetes executor: it creates, watches,
# deletes and reconciles JobSets and MPIJobs through k8s/'s REST client.
noinst_LIBRARIES += bin/exec/k8s/libexec_k8s.a
bin_exec_k8s_libexec_k8s_a_SOURCES = \
	bin/exec/k8s/exec_k8s.c bin/exec/k8s/exec_k8s.h \
	bin/exec/k8s/exec_k8s_watch.c bin/exec/k8s/exec_k8s_logs.c \
	bin/exec/k8s/exec_k8s_job.c bin/exec/k8s/exec_k8s_nodes.c \
	bin/exec/k8s/exec_k8s_suspend.c bin/exec/k8s/exec_k8s_cordon.c
SLUICED_EXECUTORS += bin/exec/k8s/libexec_k8s.a
bin_exec_k8s_libexec_k8s_a_CPPFLAGS = $(AM_CPPFLAGS) -iquote $(top_srcdir)/bin
