/* job_fields.h - the scalar members of the job spec and record, listed
 * once (X-macros) so that clear, copy, JSON and the listing writer
 * (job_listing.c) cannot drift. Private to libbatch. */
#ifndef SL_JOB_FIELDS_H
#define SL_JOB_FIELDS_H

#define SPEC_STRINGS(X)                                                      \
	X(name) X(partition) X(account) X(qos) X(gpu_type) X(std_out)        \
	X(std_err) X(std_in) X(work_dir) X(submit_dir) X(submit_host)         \
	X(script) X(script_path) X(export_spec) X(container_image) X(mpi)

#define SPEC_INTS(X)                                                         \
	X(nodes) X(nodes_max) X(ntasks) X(ntasks_per_node) X(cpus_per_task)  \
	X(gpus) X(gpus_per_node) X(hold) X(nice) X(wrapped) X(requeue)

#define SPEC_INT64S(X) X(mem_per_node) X(mem_per_cpu) X(time_limit) X(priority)

#define JOB_STRINGS(X) X(user) X(group) X(reason) X(reason_text) X(nodelist) \
	X(cluster_queue) X(flavors)
#define JOB_INTS(X) X(exit_code) X(exit_signal) X(alloc_cpus) X(attempt) \
	X(cancelled_by) X(queue_pos) X(ready_evictions) X(alloc_nodes)
#define JOB_INT64S(X) X(submit_time) X(eligible_time) X(start_time) X(end_time) \
	X(priority)

/* Every member at its default (no allocation): what "left out" means. */
struct sl_job;
void sl_job_defaults(struct sl_job *j);

#endif
