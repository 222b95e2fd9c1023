/* sstat_fmt.h - sstat's fields (Slurm 22.05's sstat.c fields[], in its
 * order: -o matches names by prefix in that order) and its rows: one per
 * step, from the use its supervisor measured (libbatch/usage.h). */
#ifndef SL_SSTAT_FMT_H
#define SL_SSTAT_FMT_H

#include "buf.h"
#include "err.h"
#include "usage.h"

#define SL_SSTAT_FIELDS_DEFAULT                                                            \
	"JobID,MaxVMSize,MaxVMSizeNode,MaxVMSizeTask,AveVMSize,MaxRSS,MaxRSSNode,MaxRSSTask," \
	"AveRSS,MaxPages,MaxPagesNode,MaxPagesTask,AvePages,MinCPU,MinCPUNode,MinCPUTask,"   \
	"AveCPU,NTasks,AveCPUFreq,ReqCPUFreqMin,ReqCPUFreqMax,ReqCPUFreqGov,ConsumedEnergy," \
	"MaxDiskRead,MaxDiskReadNode,MaxDiskReadTask,AveDiskRead,MaxDiskWrite,"              \
	"MaxDiskWriteNode,MaxDiskWriteTask,AveDiskWrite,TRESUsageInAve,TRESUsageInMax,"      \
	"TRESUsageInMaxNode,TRESUsageInMaxTask,TRESUsageInMin,TRESUsageInMinNode,"           \
	"TRESUsageInMinTask,TRESUsageInTot,TRESUsageOutAve,TRESUsageOutMax,"                 \
	"TRESUsageOutMaxNode,TRESUsageOutMaxTask,TRESUsageOutMin,TRESUsageOutMinNode,"       \
	"TRESUsageOutMinTask,TRESUsageOutTot"
#define SL_SSTAT_FIELDS_PIDS "JobID,Nodelist,Pids" /* -i */

enum sl_sstat_mode { SL_SSTAT_TABLE = 0, SL_SSTAT_PARSABLE, SL_SSTAT_PARSABLE2 };

struct sl_sstat_fmt;
/* "-o" list: names by case-insensitive prefix, each with an optional %N.
 * err: `Invalid field requested: "X"`. Caller frees. */
int sl_sstat_fmt_new(const char *fields, enum sl_sstat_mode mode, int noconvert,
		     struct sl_sstat_fmt **out, struct sl_err *err);
void sl_sstat_fmt_free(struct sl_sstat_fmt *f);
/* The header line and, in a table, its dashes. */
int sl_sstat_fmt_header(const struct sl_sstat_fmt *f, struct sl_buf *b);
/* One step's row: its id ("241.batch"), use and node. */
int sl_sstat_fmt_step(const struct sl_sstat_fmt *f, const char *stepid,
		      const struct sl_usage *u, const char *node, struct sl_buf *b);
/* -e: the names, four a line, as sstat prints them. */
int sl_sstat_fields_help(struct sl_buf *b);

#endif
