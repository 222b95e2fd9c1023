# Integration tests: the real sluiced on a private socket, the real commands;
# the Kubernetes executor's against the fake API server (tests/fake-k8s/).
INTEGRATION_TESTS = \
	tests/integration/basic.sh \
	tests/integration/conns.sh \
	tests/integration/login.sh \
	tests/integration/cancel.sh \
	tests/integration/cancel_window.sh \
	tests/integration/timeout.sh \
	tests/integration/kill9.sh \
	tests/integration/kill9_acts.sh \
	tests/integration/kept.sh \
	tests/integration/restart.sh \
	tests/integration/config.sh \
	tests/integration/confperm.sh \
	tests/integration/unitfile.sh \
	tests/integration/deb.sh \
	tests/integration/replay.sh \
	tests/integration/clusters.sh \
	tests/integration/workflow.sh \
	tests/integration/pbs_workflow.sh \
	tests/integration/sbcast.sh \
	tests/integration/rlimits.sh tests/integration/userenv.sh \
	tests/integration/limits.sh \
	tests/integration/suspend.sh \
	tests/integration/partitions.sh \
	tests/integration/badinput.sh \
	tests/integration/preempt.sh \
	tests/integration/inactive.sh \
	tests/integration/nonroot.sh \
	tests/integration/constraint.sh \
	tests/integration/noderange.sh \
	tests/integration/pam.sh \
	tests/integration/store.sh \
	tests/integration/diskfull.sh \
	tests/integration/resubmit.sh \
	tests/integration/sinfo.sh \
	tests/integration/nodestate.sh \
	tests/integration/deps.sh \
	tests/integration/control.sh \
	tests/integration/control_inside.sh \
	tests/integration/query.sh \
	tests/integration/pbs.sh \
	tests/integration/pbs_walltime.sh \
	tests/integration/tracejob.sh \
	tests/integration/sbatch_opts.sh \
	tests/integration/estimate.sh \
	tests/integration/sbatch_timed.sh \
	tests/integration/overflow.sh \
	tests/integration/prio.sh \
	tests/integration/private.sh \
	tests/integration/usage.sh \
	tests/integration/usage_steps.sh \
	tests/integration/json.sh \
	tests/integration/sstat.sh \
	tests/integration/k8s_basic.sh \
	tests/integration/k8s_ends.sh \
	tests/integration/k8s_timeout.sh \
	tests/integration/k8s_cancel.sh \
	tests/integration/k8s_sstat.sh \
	tests/integration/k8s_podsready.sh \
	tests/integration/k8s_outage.sh \
	tests/integration/k8s_kill9.sh \
	tests/integration/k8s_kill9_acts.sh \
	tests/integration/k8s_restart.sh \
	tests/integration/k8s_kubeconfig.sh \
	tests/integration/k8s_race.sh \
	tests/integration/k8s_nodes.sh \
	tests/integration/k8s_tas.sh \
	tests/integration/k8s_suspend.sh \
	tests/integration/k8s_faults.sh \
	tests/integration/tas.sh \
	tests/integration/yaml_anchors.sh
INTEGRATION_TESTS += tests/integration/arrays.sh tests/integration/arrays_update.sh
INTEGRATION_TESTS += tests/integration/jobs_fields.sh
INTEGRATION_TESTS += tests/integration/sacctmgr.sh
TESTS += $(INTEGRATION_TESTS)
# Tests that spend most of their wall time asleep, waiting out a time limit
# Slurm counts in whole minutes, an action's delay, an idle connection's
# timeout or a dependency chain; test.sh runs them in a lane of their own
# beside make check's (see there). Each is in INTEGRATION_TESTS too.
WAITING_TESTS = tests/integration/timeout.sh tests/integration/k8s_timeout.sh \
	tests/integration/sbatch_timed.sh tests/integration/k8s_suspend.sh \
	tests/integration/pam.sh tests/integration/k8s_outage.sh \
	tests/integration/kill9_acts.sh tests/integration/k8s_kill9_acts.sh \
	tests/integration/conns.sh tests/integration/deps.sh tests/integration/resubmit.sh
EXTRA_DIST += tests/integration/arrays_scenario.sh tests/integration/arrays_capture.sh \
	tests/data/arrays/arrays.golden tests/bench/array.sh
EXTRA_DIST += tests/integration/lib.sh tests/integration/conf.sh tests/integration/pam_lib.sh $(INTEGRATION_TESTS) \
	tests/integration/scontrol_scenario.sh tests/integration/ref_capture.sh \
	tests/data/scontrol/deps.golden tests/data/scontrol/control.golden \
	tests/integration/k8s_lib.sh tests/integration/k8s_golden.py \
	tests/bench/k8s_calls.sh tests/bench/k8s_nodes.sh tests/bench/munge.sh \
	tests/data/k8s-golden/jobset-1node.json tests/data/k8s-golden/jobset-4node-8gpu.json \
	tests/data/k8s-golden/jobset-agent-4node.json \
	tests/data/k8s-status/CASES \
	tests/data/k8s-status/job-deadline.json \
	tests/data/k8s-status/jobset-completed.json \
	tests/data/k8s-status/jobset-configuring.json \
	tests/data/k8s-status/jobset-evicted.json \
	tests/data/k8s-status/jobset-exit3.json \
	tests/data/k8s-status/jobset-failed-no-pods.json \
	tests/data/k8s-status/jobset-oom.json \
	tests/data/k8s-status/jobset-running.json \
	tests/data/k8s-status/mpijob-deadline.json \
	tests/data/k8s-status/mpijob-evicted.json \
	tests/data/k8s-status/mpijob-exit.json \
	tests/data/k8s-status/mpijob-running.json \
	tests/data/k8s-status/mpijob-succeeded.json \
	tests/data/k8s-status/mpijob-waiting.json

# --json: the documents real Slurm 22.05 printed (ids and times masked)
EXTRA_DIST += tests/integration/json_shape.py tests/integration/json_ref_capture.sh \
	tests/data/json/squeue_real.json tests/data/json/squeue_real_cancelled.json \
	tests/data/json/sacct_real.json tests/data/json/sacct_real_measured.json \
	tests/data/output/sstat_default.out tests/data/output/sstat_aP.out \
	tests/data/output/sstat_pn.out tests/data/output/sstat_e.out tests/data/output/sstat_help.out
# srun inside a local allocation, diffed against Slurm 22.05 (srun_scenario.sh).
INTEGRATION_TESTS += tests/integration/srun.sh
# srun --mpi=pmix with OpenMPI (srun_pmix.c), and mpirun in a job.
INTEGRATION_TESTS += tests/integration/srun_mpi.sh
# srun --mpi=pmi2 (srun_pmi2.c) with a client that speaks PMI-1 and PMI-2 itself.
INTEGRATION_TESTS += tests/integration/srun_pmi2.sh
check_PROGRAMS += tests/integration/pmi_client
tests_integration_pmi_client_SOURCES = tests/integration/pmi_client.c
tests_integration_pmi_client_LDADD =
EXTRA_DIST += tests/integration/pmi_probe.py tests/data/srun/pmi_probe1.ref \
	tests/data/srun/pmi_probe2.ref
# srun inside a job: the tasks' GPUs and environment against Slurm 22.05.
INTEGRATION_TESTS += tests/integration/srun_env.sh
# srun through two step agents standing for pods (no Kubernetes).
INTEGRATION_TESTS += tests/integration/srun_agent.sh
# srun across a JobSet's pods on the fake API server's exec-mode kubelet.
INTEGRATION_TESTS += tests/integration/k8s_srun.sh
# pbsdsh in qsub jobs of two nodes: a copy per vnode, -n, -c, -s, -o, -v.
INTEGRATION_TESTS += tests/integration/pbsdsh.sh
