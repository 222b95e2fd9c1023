/* pbsdsh.c - OpenPBS's pbsdsh in Sluice's terms (pbsdsh.h). The texts and
 * rules cite OpenPBS's src/cmds/pbsdsh.c: the getopt loop and usage of
 * main(), the spawn loop's choice of node, find_hostline() and
 * host_match(); the variables, src/resmom/start_exec.c's start_process();
 * the vnodes, job_nodes_inner() (one per MPI process of each chunk), which
 * tm_nodeinfo() returns as MOM sent them at TM_INIT. */
#include "pbsdsh.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "hostlist.h"
#include "slurm_env.h"
#include "xalloc.h"

#define OPTSTRING "c:n:h:svo"

char *sl_pbsdsh_usage(const char *p)
{
	return sl_xasprintf(
		"Usage: %s [-c copies][-s][-v][-o] -- program [args...]\n"
		"       %s [-n node_index][-s][-v][-o] -- program [args...]\n"
		"       %s --version\n"
		"Where -c copies =  run a copy of \"program\" on the first \"copies\" nodes,\n"
		"      -n node_index = run a copy of \"program\" on the \"node_index\"-th node,\n"
		"      -h hostname = run a copy of \"program\" on the node named by hostname,\n"
		"      -s = forces synchronous execution,\n"
		"      -v = forces verbose output.\n"
		"      -o = no obits are waited for.\n",
		p, p, p);
}

/* glibc's own line for what getopt() refused (its opterr text). */
static void getopt_line(char **text, const char *prog, int c)
{
	const char *needs = c != ':' && c != 0 ? strchr(OPTSTRING, c) : NULL;
	char *line = needs && needs[1] == ':'
			     ? sl_xasprintf("%s: option requires an argument -- '%c'\n", prog, c)
			     : sl_xasprintf("%s: invalid option -- '%c'\n", prog, c);
	char *all = sl_xasprintf("%s%s", *text ? *text : "", line);

	free(line);
	free(*text);
	*text = all;
}

int sl_pbsdsh_parse(int argc, char **argv, sl_pbsdsh_host_fn host, void *ctx,
		    struct sl_pbsdsh_opts *o, struct sl_err *err)
{
	int c, bad = 0, saved_opterr = opterr;

	memset(o, 0, sizeof(*o));
	o->copies = o->node = -1;
	opterr = 0; /* glibc's lines are composed here: the library never prints */
	optind = 0; /* a whole new scan, POSIXLY_CORRECT read again */
	while ((c = getopt(argc, argv, OPTSTRING)) != -1) {
		switch (c) {
		case 'c':
			o->copies = atoi(optarg);
			bad |= o->copies < 0;
			break;
		case 'n':
			o->node = atoi(optarg);
			bad |= o->node < 0;
			break;
		case 'h': /* looked up now: a later -n may replace it */
			o->node = host ? host(optarg, ctx) : -1;
			bad |= o->node < 0;
			break;
		case 's':
			o->sync = 1;
			break;
		case 'v':
			o->verbose = 1;
			break;
		case 'o':
			o->no_obit = 1;
			break;
		default:
			getopt_line(&o->text, argv[0], optopt);
			bad = 1;
			break;
		}
	}
	opterr = saved_opterr;
	if (bad || (o->node >= 0 && o->copies >= 0) || optind >= argc) {
		char *usage = sl_pbsdsh_usage(argv[0]), *all;
		all = sl_xasprintf("%s%s", o->text ? o->text : "", usage);
		free(usage);
		free(o->text);
		o->text = all;
		return sl_err_set(err, SL_EINVAL, "pbsdsh: bad command line");
	}
	o->argv = argv + optind;
	o->argc = argc - optind;
	return 0;
}

void sl_pbsdsh_opts_clear(struct sl_pbsdsh_opts *o)
{
	free(o->text);
	memset(o, 0, sizeof(*o));
	o->copies = o->node = -1;
}

/* One count of SLURM_TASKS_PER_NODE ("2" or "2(x3)") at *s: 0, or -1. */
static int count_at(const char **s, long *count, long *times)
{
	char *end;
	*count = strtol(*s, &end, 10);
	*times = 1;
	if (end == *s || *count < 0)
		return -1;
	if (strncmp(end, "(x", 2) == 0) {
		const char *t = end + 2;
		*times = strtol(t, &end, 10);
		if (end == t || *end != ')' || *times < 1)
			return -1;
		end++;
	}
	*s = end;
	return 0;
}

int sl_pbsdsh_vnodes(size_t nnodes, const char *tasks_per_node, int **node_of, struct sl_err *err)
{
	int *per = sl_xcalloc(nnodes ? nnodes : 1, sizeof(*per)), *v = NULL, r = -SL_EINVAL;
	const char *s = tasks_per_node;
	size_t i = 0;
	long total = 0;

	*node_of = NULL;
	for (size_t k = 0; k < nnodes; k++)
		per[k] = 1;
	while (s != NULL && *s != '\0' && i < nnodes) {
		long count, times;
		if (count_at(&s, &count, &times) != 0 || count > SL_PBSDSH_MAX)
			goto bad;
		for (long k = 0; k < times && i < nnodes; k++)
			per[i++] = (int)count;
		if (*s != ',' && *s != '\0')
			goto bad;
		s += *s == ',';
	}
	for (size_t k = 0; k < nnodes; k++)
		total += per[k];
	if (total > SL_PBSDSH_MAX)
		goto bad;
	v = sl_xcalloc(total > 0 ? (size_t)total : 1, sizeof(*v));
	for (size_t k = 0, at = 0; k < nnodes; k++)
		for (int m = 0; m < per[k]; m++)
			v[at++] = (int)k;
	*node_of = v;
	r = (int)total;
	goto out;
bad:
	r = sl_err_set(err, SL_EINVAL, "SLURM_TASKS_PER_NODE=%s: not a list of counts "
		       "(at most %d in all)", tasks_per_node, SL_PBSDSH_MAX);
out:
	free(per);
	return r;
}

int sl_pbsdsh_plan(const struct sl_pbsdsh_opts *o, int nvnodes, int **vnode_of, struct sl_err *err)
{
	int start = 0, n = nvnodes;

	*vnode_of = NULL;
	if (o->node >= 0) { /* one copy onto logical node o->node */
		start = o->node;
		n = 1;
	} else if (o->copies >= 0) { /* the first o->copies nodes, round again past the last */
		n = o->copies;
	}
	if (n > SL_PBSDSH_MAX)
		return sl_err_set(err, SL_ETOOBIG, "%d copies: more than %d", n, SL_PBSDSH_MAX);
	if (n <= 0 || nvnodes <= 0)
		return 0;
	*vnode_of = sl_xcalloc((size_t)n, sizeof(**vnode_of));
	for (int c = 0; c < n; c++)
		(*vnode_of)[c] = (int)(((long)start + c) % nvnodes);
	return n;
}

char **sl_pbsdsh_task_env(int copy, int vnode, int node)
{
	char **v = sl_xcalloc(4, sizeof(*v));

	/* start_process() writes the task id "%8.8X" (the job script's, in
	 * the job's own start, "%u") */
	v[0] = sl_xasprintf("PBS_NODENUM=%d", node);
	v[1] = sl_xasprintf("PBS_TASKNUM=%08X", (unsigned)(SL_PBSDSH_FIRST_TASK + copy));
	v[2] = sl_xasprintf("PBS_VNODENUM=%d", vnode);
	return v;
}

void sl_pbsdsh_layout(const struct sl_srun_alloc *a, const int *node_of, const int *vnode_of,
		      int ncopies, struct sl_srun_layout *l)
{
	int *step_of = sl_xcalloc(a->nnodes + 1, sizeof(*step_of)), *count = NULL, ordered = 1;
	char buf[4096];

	memset(l, 0, sizeof(*l));
	l->job_id = a->job_id;
	l->array_job_id = a->array_job_id;
	l->array_task_id = a->array_task_id;
	l->ntasks = ncopies;
	l->gpus = a->gpus;
	l->ngpus = a->ngpus;
	l->umask = -1;
	l->uid = l->gid = -1;
	/* the step's nodes: the job's that a copy goes to, in the job's order */
	count = sl_xcalloc(a->nnodes + 1, sizeof(*count));
	for (int c = 0; c < ncopies; c++)
		count[node_of[vnode_of[c]]]++;
	l->nodes = sl_xcalloc(a->nnodes + 1, sizeof(*l->nodes));
	l->cpus_on = sl_xcalloc(a->nnodes + 1, sizeof(*l->cpus_on));
	l->tasks_on = sl_xcalloc(a->nnodes + 1, sizeof(*l->tasks_on));
	for (size_t k = 0; k < a->nnodes; k++) {
		if (count[k] == 0)
			continue;
		step_of[k] = l->nnodes;
		l->nodes[l->nnodes] = sl_xstrdup(a->nodes[k]);
		l->cpus_on[l->nnodes++] = a->cpus ? a->cpus[k] : 1;
	}
	l->task = sl_xcalloc((size_t)ncopies + 1, sizeof(*l->task));
	for (int c = 0; c < ncopies; c++) {
		int node = step_of[node_of[vnode_of[c]]];
		l->task[c] = (struct sl_srun_task){node, l->tasks_on[node]++};
		ordered &= c == 0 || node >= l->task[c - 1].node;
	}
	l->nodelist = sl_hostlist_compress(l->nodes, (size_t)l->nnodes);
	l->job_nodelist = sl_hostlist_compress(a->nodes, a->nnodes); /* as srun's steps */
	sl_slurm_env_fmt_counts(l->tasks_on, (size_t)l->nnodes, buf, sizeof(buf));
	l->tasks_per_node = sl_xstrdup(buf);
	l->distribution = sl_xstrdup(ordered ? "block" : "arbitrary");
	free(count);
	free(step_of);
}

/* host_match()'s address test: does line's name have host's address? 1,
 * 0, or -2 when it cannot be looked up. */
static int same_address(const char *line, struct in_addr want)
{
	struct addrinfo hints = {.ai_family = AF_INET, .ai_socktype = SOCK_STREAM}, *res, *p;
	int found = 0;

	if (getaddrinfo(line, NULL, &hints, &res) != 0)
		return -2;
	for (p = res; p != NULL && !found; p = p->ai_next)
		found = ((struct sockaddr_in *)(void *)p->ai_addr)->sin_addr.s_addr == want.s_addr;
	freeaddrinfo(res);
	return found;
}

int sl_pbsdsh_host_line(char *const *lines, size_t n, const char *host, const char *domain)
{
	struct in_addr addr = {.s_addr = inet_addr(host)};
	int is_addr = addr.s_addr != INADDR_NONE;

	for (size_t i = 0; i < n; i++) {
		const char *line = lines[i];
		size_t len = strlen(line);
		if (strcmp(line, host) == 0)
			return (int)i;
		if (is_addr) { /* an address is compared as one, never by name */
			int m = same_address(line, addr);
			if (m != 0)
				return m < 0 ? -2 : (int)i;
			continue;
		}
		if (domain != NULL && *domain != '\0' && strncmp(host, line, len) == 0 &&
		    host[len] == '.' && strcmp(host + len + 1, domain) == 0)
			return (int)i;
	}
	return -1;
}
