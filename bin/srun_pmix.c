/* srun_pmix.c - the PMIx server of a local step (srun_pmix.h).
 *
 * libpmix (Debian's libpmix-dev) does the wire protocol, the shared-memory
 * store the clients read the job's data from, and the clients' security
 * (their uid, from the socket). What it needs from its host: the job's
 * shape (registered once, as maps the library expands into each rank's
 * local rank, node rank and peers), each client before it is forked, and
 * the collectives. A fence across this host's ranks is complete once the
 * library has gathered it, so the fence upcall returns what it was given.
 *
 * The library runs its own progress thread and calls the upcalls there:
 * the abort upcall only records the status and writes to srun's
 * self-pipe, and srun's poll loop ends the step. */
#include "srun_pmix.h"

#include <errno.h>
#include <ftw.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pmix.h>
#include <pmix_server.h>

#include "xalloc.h"

struct srun_pmix {
	char nspace[PMIX_MAX_NSLEN + 1];
	char *dir;   /* the server's rendezvous directory, removed at the end */
	int ntasks;
	int running; /* PMIx_server_init succeeded */
};

/* One server per srun process: the upcalls have no context pointer for it. */
static int abort_pipe = -1;
static atomic_int abort_status;
static atomic_int abort_seen;

static pmix_status_t on_connected(const pmix_proc_t *proc, void *obj, pmix_op_cbfunc_t cb,
				  void *cbdata)
{
	(void)proc, (void)obj, (void)cb, (void)cbdata;
	return PMIX_OPERATION_SUCCEEDED;
}

static pmix_status_t on_finalized(const pmix_proc_t *proc, void *obj, pmix_op_cbfunc_t cb,
				  void *cbdata)
{
	(void)proc, (void)obj, (void)cb, (void)cbdata;
	return PMIX_OPERATION_SUCCEEDED;
}

/* MPI_Abort: the first status is srun's exit code (Slurm's srun exits
 * with the abort code); the step is ended by srun's loop. The client is
 * released at once and exits with the status itself. */
static pmix_status_t on_abort(const pmix_proc_t *proc, void *obj, int status, const char msg[],
			      pmix_proc_t procs[], size_t nprocs, pmix_op_cbfunc_t cb,
			      void *cbdata)
{
	int m[2] = {0, (int)proc->rank};
	(void)obj, (void)msg, (void)procs, (void)nprocs, (void)cb, (void)cbdata;
	if (atomic_exchange(&abort_seen, 1) == 0) {
		atomic_store(&abort_status, status);
		if (abort_pipe >= 0)
			(void)!write(abort_pipe, m, sizeof(m));
	}
	return PMIX_OPERATION_SUCCEEDED;
}

static void release(void *data)
{
	free(data);
}

/* Every rank is on this host: what the library gathered is the whole, and
 * its local status (the last info, when libpmix adds it) the outcome. The
 * data is the host's to free once the library has taken it. */
static pmix_status_t on_fence(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[],
			      size_t ninfo, char *data, size_t ndata, pmix_modex_cbfunc_t cb,
			      void *cbdata)
{
	pmix_status_t st = PMIX_SUCCESS;
	(void)procs, (void)nprocs;
	if (ninfo > 0 && PMIX_CHECK_KEY(&info[ninfo - 1], PMIX_LOCAL_COLLECTIVE_STATUS))
		st = info[ninfo - 1].value.data.status;
	if (cb == NULL) {
		free(data);
		return PMIX_SUCCESS;
	}
	cb(st, data, ndata, cbdata, release, data);
	return PMIX_SUCCESS;
}

static pmix_server_module_t module = {
	.client_connected = on_connected,
	.client_finalized = on_finalized,
	.abort = on_abort,
	.fence_nb = on_fence,
};

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	(void)remove(path);
	return 0;
}

static int failed(struct sl_err *err, const char *what, pmix_status_t rc)
{
	return sl_err_set(err, SL_EIO, "srun: error: mpi/pmix: %s: %s", what, PMIx_Error_string(rc));
}

/* "0,1,...,n-1": the ranks on this host. */
static char *rank_list(int n)
{
	size_t cap = (size_t)n * 8 + 1, len = 0;
	char *s = sl_xcalloc(cap, 1);
	for (int i = 0; i < n; i++)
		len += (size_t)snprintf(s + len, cap - len, "%s%d", i ? "," : "", i);
	return s;
}

static int register_job(struct srun_pmix *p, struct sl_err *err)
{
	char host[256] = "localhost", *ranks = rank_list(p->ntasks), *nodes = NULL, *procs = NULL;
	uint32_t n = (uint32_t)p->ntasks, one = 1, zero = 0;
	pmix_info_t info[10];
	size_t k = 0;
	pmix_status_t rc;
	int r = 0;

	(void)gethostname(host, sizeof(host) - 1);
	if ((rc = PMIx_generate_regex(host, &nodes)) != PMIX_SUCCESS ||
	    (rc = PMIx_generate_ppn(ranks, &procs)) != PMIX_SUCCESS) {
		r = failed(err, "maps", rc);
		goto out;
	}
	PMIX_INFO_LOAD(&info[k++], PMIX_UNIV_SIZE, &n, PMIX_UINT32);
	PMIX_INFO_LOAD(&info[k++], PMIX_JOB_SIZE, &n, PMIX_UINT32);
	PMIX_INFO_LOAD(&info[k++], PMIX_MAX_PROCS, &n, PMIX_UINT32);
	PMIX_INFO_LOAD(&info[k++], PMIX_LOCAL_SIZE, &n, PMIX_UINT32);
	PMIX_INFO_LOAD(&info[k++], PMIX_NODE_SIZE, &n, PMIX_UINT32);
	PMIX_INFO_LOAD(&info[k++], PMIX_NUM_NODES, &one, PMIX_UINT32);
	PMIX_INFO_LOAD(&info[k++], PMIX_APPNUM, &zero, PMIX_UINT32);
	PMIX_INFO_LOAD(&info[k++], PMIX_LOCAL_PEERS, ranks, PMIX_STRING);
	PMIX_INFO_LOAD(&info[k++], PMIX_NODE_MAP, nodes, PMIX_REGEX);
	PMIX_INFO_LOAD(&info[k++], PMIX_PROC_MAP, procs, PMIX_REGEX);
	rc = PMIx_server_register_nspace(p->nspace, p->ntasks, info, k, NULL, NULL);
	if (rc != PMIX_SUCCESS && rc != PMIX_OPERATION_SUCCEEDED)
		r = failed(err, "register the job", rc);
	for (size_t i = 0; i < k; i++)
		PMIX_INFO_DESTRUCT(&info[i]);
out:
	free(ranks);
	free(nodes);
	free(procs);
	return r;
}

int srun_pmix_start(struct srun_pmix **out, uint64_t job, uint32_t step, int ntasks,
		    const char *tmpdir, int abort_fd, struct sl_err *err)
{
	struct srun_pmix *p = sl_xcalloc(1, sizeof(*p));
	pmix_info_t info[2];
	pmix_status_t rc;
	int r = 0;

	p->ntasks = ntasks;
	snprintf(p->nspace, sizeof(p->nspace), "slurm.pmix.%llu.%u", (unsigned long long)job, step);
	p->dir = sl_xasprintf("%s/sluice-pmix.%llu.%u.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp",
			      (unsigned long long)job, step);
	if (mkdtemp(p->dir) == NULL) {
		r = sl_err_set(err, SL_EIO, "srun: error: mpi/pmix: %s: %s", p->dir, strerror(errno));
		free(p->dir);
		p->dir = NULL;
		goto out;
	}
	/* the clients are this user's processes on this host: the socket's
	 * credentials prove who they are, with no munge round trip */
	setenv("PMIX_MCA_psec", "native", 0);
	abort_pipe = abort_fd;
	PMIX_INFO_LOAD(&info[0], PMIX_SERVER_TMPDIR, p->dir, PMIX_STRING);
	PMIX_INFO_LOAD(&info[1], PMIX_SYSTEM_TMPDIR, p->dir, PMIX_STRING);
	rc = PMIx_server_init(&module, info, 2);
	PMIX_INFO_DESTRUCT(&info[0]);
	PMIX_INFO_DESTRUCT(&info[1]);
	if (rc != PMIX_SUCCESS) {
		r = failed(err, "server start", rc);
		goto out;
	}
	p->running = 1;
	r = register_job(p, err);
out:
	if (r != 0) {
		srun_pmix_free(p);
		p = NULL;
	}
	*out = p;
	return r;
}

int srun_pmix_task(struct srun_pmix *p, int t, char ***env, struct sl_err *err)
{
	pmix_proc_t proc;
	pmix_status_t rc;

	PMIX_PROC_LOAD(&proc, p->nspace, (pmix_rank_t)t);
	rc = PMIx_server_register_client(&proc, getuid(), getgid(), NULL, NULL, NULL);
	if (rc != PMIX_SUCCESS && rc != PMIX_OPERATION_SUCCEEDED)
		return failed(err, "register a task", rc);
	if ((rc = PMIx_server_setup_fork(&proc, env)) != PMIX_SUCCESS)
		return failed(err, "a task's environment", rc);
	return 0;
}

int srun_pmix_aborted(const struct srun_pmix *p, int *status)
{
	if (p == NULL || !atomic_load(&abort_seen))
		return 0;
	*status = atomic_load(&abort_status);
	return 1;
}

void srun_pmix_free(struct srun_pmix *p)
{
	if (p == NULL)
		return;
	if (p->running)
		(void)PMIx_server_finalize();
	abort_pipe = -1;
	if (p->dir != NULL)
		(void)nftw(p->dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	free(p->dir);
	free(p);
}
