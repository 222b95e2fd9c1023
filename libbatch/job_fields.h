/* job_fields.h - the members of the job spec and record, listed once
 * (X-macros). Clear, copy, the JSON writer (job_text.c) and reader
 * (job_parse.c) and sluiced's store columns (bin/sluiced/store.c) are all
 * written from these lists, so adding a field is its member in job.h, its
 * line here, and the code that gives it meaning. Shared by libbatch and
 * sluiced; commands use job.h. */
#ifndef SL_JOB_FIELDS_H
#define SL_JOB_FIELDS_H

#define SPEC_STRINGS(X)                                                      \
	X(name) X(partition) X(account) X(qos) X(gpu_type) X(std_out)        \
	X(std_err) X(std_in) X(work_dir) X(submit_dir) X(submit_host)         \
	X(script) X(script_path) X(export_spec) X(container_image) X(mpi)     \
	X(comment) X(dependency) X(mail_user) X(hint) X(nodelist) X(exclude)  \
	X(wckey) X(rlimits) X(array) X(topology) X(command) X(distribution) X(submit_line) \
	X(gpu_bind) X(mem_bind) X(cpu_freq) X(gpu_freq) X(pbs_resources)

#define SPEC_INTS(X)                                                         \
	X(nodes) X(nodes_max) X(ntasks) X(ntasks_per_node) X(cpus_per_task)  \
	X(gpus) X(gpus_per_node) X(hold) X(nice) X(wrapped) X(requeue)      \
	X(kill_invalid_dep) X(mail_type) X(shared) X(node_cpus) X(mem_all)   \
	X(mincpus) X(warn_signal) X(warn_time) X(warn_flags)                 \
	X(sockets_per_node) X(cores_per_socket) X(threads_per_core)          \
	X(ntasks_per_socket) X(ntasks_per_core) X(gpus_per_task)             \
	X(cpus_per_gpu) X(pbs) X(omp_threads) X(omp_threads_job) X(switches) X(get_user_env) X(get_user_env_mode) \
	X(interactive) X(ntasks_per_gpu) X(no_kill) X(acctg_task) \
	X(use_min_nodes) X(contiguous) X(wait_all_nodes) X(overcommit) \
	X(gres_flags) X(spread_job) X(submit_sid) X(torque_array) X(torque) \
	X(gpus_per_node_opt)

#define SPEC_INT64S(X) X(mem_per_node) X(mem_per_cpu) X(time_limit) X(priority) \
	X(begin_time) X(deadline) X(mem_per_gpu) X(wait4switch) \
	X(tmp_mb) X(delay_boot) X(time_min) X(time_limit_secs)

/* NULL-terminated string vectors. Only a launch reads the first two (and
 * the script): listings leave them out, and sluiced keeps them in its
 * store alone (sl_job_shed). The others are left out when empty. */
#define SPEC_LAUNCH_STRVS(X) X(argv) X(env)
#define SPEC_STRVS(X) X(features)

/* The record's members, each a column of the store's jobs table. */
#define JOB_STRINGS(X) X(user) X(group) X(reason) X(reason_text) X(nodelist) \
	X(cluster_queue) X(flavors) X(submit_key) X(dependency) X(runs) \
	X(topo_assign) X(start_reason)
#define JOB_INTS(X) X(exit_code) X(exit_signal) X(alloc_cpus) X(attempt) \
	X(cancelled_by) X(ready_evictions) X(alloc_nodes) X(mail_sent) \
	X(array_task_id) X(array_throttle) X(array_dropped) X(requeue_mark) \
	X(array_split)
#define JOB_INT64S(X) X(submit_time) X(eligible_time) X(start_time) X(end_time) \
	X(priority) X(suspend_time) X(pre_suspend) X(max_rss) X(max_vmsize) X(max_pages) \
	X(user_usec) X(sys_usec) X(disk_read) X(disk_write) \
	X(array_job_id) X(reaped_rss)
/* Worked out by sluiced when it lists a job: on the wire, never stored. */
#define JOB_LIVE_INTS(X) X(queue_pos) X(nodes_shown)
#define JOB_LIVE_STRINGS(X) X(array_tasks)

/* Every member at its default (no allocation): what "left out" means. */
struct sl_job;
void sl_job_defaults(struct sl_job *j);

#endif
