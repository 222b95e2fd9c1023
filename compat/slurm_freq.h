/* slurm_freq.h - Slurm 22.05's --cpu-freq and --gpu-freq values
 * (src/common/cpu_frequency.c's cpu_freq_verify_cmdline, to_cmdline and
 * debug; tres_frequency.c's GPU check), with Slurm's messages.
 *
 * Sluice sets no frequency: on the local executor a job's CPUs are not
 * its own (no task is bound to a CPU), so a frequency set for one job's
 * CPUs would be every job's, and a pod's node belongs to the kubelet. The
 * values are checked, kept on the job and passed to its steps through the
 * environment, as a Slurm node without cpufreq support passes them. */
#ifndef SL_SLURM_FREQ_H
#define SL_SLURM_FREQ_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

/* Slurm's encodings (slurm.h): a value with the top bit is a name. */
#define SL_CPU_FREQ_RANGE_FLAG 0x80000000u
#define SL_CPU_FREQ_LOW 0x80000001u
#define SL_CPU_FREQ_MEDIUM 0x80000002u
#define SL_CPU_FREQ_HIGH 0x80000003u
#define SL_CPU_FREQ_HIGHM1 0x80000004u
#define SL_CPU_FREQ_CONSERVATIVE 0x88000000u
#define SL_CPU_FREQ_ONDEMAND 0x84000000u
#define SL_CPU_FREQ_PERFORMANCE 0x82000000u
#define SL_CPU_FREQ_POWERSAVE 0x81000000u
#define SL_CPU_FREQ_USERSPACE 0x80800000u
#define SL_CPU_FREQ_SCHEDUTIL 0x80400000u

/* min, max, gov: 0 where the value does not set it. */
struct sl_cpu_freq {
	uint32_t min, max, gov;
};

/* --cpu-freq=p1[-p2[:p3]]: on a bad value err->msg is Slurm's line (then
 * the caller's "Invalid --cpu-freq argument"). The governors allowed are
 * Slurm's default CpuFreqGovernors (OnDemand, Performance, UserSpace). */
int sl_slurm_cpu_freq_parse(const char *arg, struct sl_cpu_freq *f, struct sl_err *err);

/* SLURM_CPU_FREQ_REQ's text ("Low-Medium", "1000-2000:Performance"), into
 * buf; "" when f sets nothing. */
void sl_slurm_cpu_freq_cmdline(const struct sl_cpu_freq *f, char *buf, size_t len);

/* One value as sacct's ReqCPUFreq* fields print it (cpu_freq_to_string):
 * a name, or kHz in Slurm's units ("2G", "1.50M"); "Unknown" for 0. */
void sl_slurm_cpu_freq_value(uint32_t v, char *buf, size_t len);

/* scontrol show job's line ("CPU_min_freq=Low CPU_max_freq=Medium ",
 * trailing space and all); "" when f sets nothing. */
void sl_slurm_cpu_freq_show(const struct sl_cpu_freq *f, char *buf, size_t len);

/* --gpu-freq=[low|medium|high|highm1|N][,memory=...][,verbose]: 0 or
 * -SL_EINVAL (Slurm's message is the caller's: "Invalid --gpu-freq
 * argument: gpu:ARG"). */
int sl_slurm_gpu_freq_check(const char *arg);

#endif
