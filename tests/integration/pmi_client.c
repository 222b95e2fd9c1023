/* pmi_client.c - a PMI rank for srun_pmi2.sh, speaking the wire itself
 * (no libpmi): PMI-1 as MPICH's simple PMI does, or PMI-2 as Slurm's
 * libpmi2 does, over the PMI_FD srun's mpi/pmi2 gave it.
 *
 * pmi_client 1|2 [abort RANK | nofin RANK | quiet]
 * Each rank puts "k<rank>", fences, reads every rank's key and the
 * process mapping, and prints one line; the checks it makes itself (rank,
 * size, the job id against PMI_JOBID) end it with status 2, said. "abort
 * R": rank R aborts the job after the fence (status 7 under PMI-1, PMI-2's
 * isworld exit 1 as libpmi2 does); the rest wait. "nofin R": rank R exits 0
 * without finalize. "quiet": put/fence/get only, no line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int fd, ver;

static void die(const char *what, const char *got)
{
	fprintf(stderr, "pmi_client: %s: %s\n", what, got ? got : "(none)");
	exit(2);
}

static void put_all(const char *s, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, s, n);
		if (w <= 0)
			die("write", "failed");
		s += w;
		n -= (size_t)w;
	}
}

static void get_all(char *s, size_t n)
{
	while (n > 0) {
		ssize_t r = read(fd, s, n);
		if (r <= 0)
			die("read", "end of file");
		s += r;
		n -= (size_t)r;
	}
}

/* PMI-1: one line out, one line back (without its newline). */
static void line(const char *req, char *resp, size_t cap)
{
	size_t n = 0;
	put_all(req, strlen(req));
	for (;;) {
		char c;
		get_all(&c, 1);
		if (c == '\n')
			break;
		if (n + 1 < cap)
			resp[n++] = c;
	}
	resp[n] = '\0';
}

/* PMI-2: a 6-character length, then the command. */
static void cmd2(const char *req, char *resp, size_t cap)
{
	char head[7];
	int len;
	snprintf(head, sizeof(head), "%-6d", (int)strlen(req));
	put_all(head, 6);
	put_all(req, strlen(req));
	get_all(head, 6);
	head[6] = '\0';
	len = atoi(head);
	if (len <= 0 || (size_t)len >= cap)
		die("reply length", head);
	get_all(resp, (size_t)len);
	resp[len] = '\0';
}

/* The value of key in a reply: PMI-1's "k=v k=v", PMI-2's "k=v;k=v;". */
static const char *val(const char *resp, const char *key, char *out, size_t cap)
{
	size_t kl = strlen(key);
	const char *p = resp, *sep = ver == 1 ? " " : ";";
	while (*p) {
		size_t n = strcspn(p, sep);
		if (n > kl && strncmp(p, key, kl) == 0 && p[kl] == '=') {
			snprintf(out, cap, "%.*s", (int)(n - kl - 1), p + kl + 1);
			return out;
		}
		p += n;
		p += *p != '\0';
	}
	die(key, resp);
	return NULL;
}

static void expect(const char *resp, const char *want)
{
	if (strcmp(resp, want) != 0)
		die(want, resp);
}

int main(int argc, char **argv)
{
	char req[1200], resp[1200], v[1100], jobid[64], map[256];
	const char *e = getenv("PMI_FD"), *what = argc > 2 ? argv[2] : "";
	int rank = getenv("PMI_RANK") ? atoi(getenv("PMI_RANK")) : -1;
	int size = getenv("PMI_SIZE") ? atoi(getenv("PMI_SIZE")) : -1;
	int who = argc > 3 ? atoi(argv[3]) : -1, ok = 0;

	ver = argc > 1 ? atoi(argv[1]) : 2;
	if (e == NULL || getenv("PMI_JOBID") == NULL)
		die("environment", "no PMI_FD or PMI_JOBID");
	fd = atoi(e);
	snprintf(req, sizeof(req), "cmd=init pmi_version=%d pmi_subversion=%d\n", ver,
		 ver == 1 ? 1 : 0);
	line(req, resp, sizeof(resp));
	snprintf(req, sizeof(req), "cmd=response_to_init rc=0 pmi_version=%d pmi_subversion=%d",
		 ver, ver == 1 ? 1 : 0);
	expect(resp, req);
	if (ver == 1) {
		line("cmd=get_maxes\n", resp, sizeof(resp));
		expect(resp, "cmd=maxes rc=0 kvsname_max=256 keylen_max=64 vallen_max=1024");
		line("cmd=get_my_kvsname\n", resp, sizeof(resp));
		val(resp, "kvsname", jobid, sizeof(jobid));
		line("cmd=get_universe_size\n", resp, sizeof(resp));
		if (atoi(val(resp, "size", v, sizeof(v))) != size)
			die("universe size", resp);
		line("cmd=get_appnum\n", resp, sizeof(resp));
		expect(resp, "cmd=appnum rc=0 appnum=-1");
		snprintf(req, sizeof(req), "cmd=put kvsname=%s key=k%d value=v%d\n", jobid, rank,
			 rank * 10);
		line(req, resp, sizeof(resp));
		expect(resp, "cmd=put_result rc=0");
		line("cmd=barrier_in\n", resp, sizeof(resp));
		expect(resp, "cmd=barrier_out rc=0");
	} else {
		snprintf(req, sizeof(req), "cmd=fullinit;pmijobid=%s;pmirank=%d;threaded=FALSE;",
			 getenv("PMI_JOBID"), rank);
		cmd2(req, resp, sizeof(resp));
		if (atoi(val(resp, "rank", v, sizeof(v))) != rank ||
		    atoi(val(resp, "size", v, sizeof(v))) != size)
			die("fullinit", resp);
		cmd2("cmd=job-getid;", resp, sizeof(resp));
		val(resp, "jobid", jobid, sizeof(jobid));
		snprintf(req, sizeof(req), "cmd=kvs-put;key=k%d;value=v%d;", rank, rank * 10);
		cmd2(req, resp, sizeof(resp));
		expect(resp, "cmd=kvs-put-response;rc=0;");
		if (rank == 0) {
			cmd2("cmd=info-putnodeattr;key=shm;value=seg0;", resp, sizeof(resp));
			expect(resp, "cmd=info-putnodeattr-response;rc=0;");
		}
		cmd2("cmd=kvs-fence;", resp, sizeof(resp));
		expect(resp, "cmd=kvs-fence-response;rc=0;");
		cmd2("cmd=info-getnodeattr;key=shm;wait=TRUE;", resp, sizeof(resp));
		expect(resp, "cmd=info-getnodeattr-response;rc=0;found=TRUE;value=seg0;");
	}
	if (strcmp(jobid, getenv("PMI_JOBID")) != 0)
		die("job id", jobid);
	for (int r = 0; r < size; r++) {
		if (ver == 1)
			snprintf(req, sizeof(req), "cmd=get kvsname=%s key=k%d\n", jobid, r);
		else
			snprintf(req, sizeof(req), "cmd=kvs-get;jobid=%s;srcid=-1;key=k%d;", jobid, r);
		if (ver == 1)
			line(req, resp, sizeof(resp));
		else
			cmd2(req, resp, sizeof(resp));
		ok += atoi(val(resp, "value", v, sizeof(v)) + 1) == r * 10;
	}
	if (ver == 1) {
		snprintf(req, sizeof(req), "cmd=get kvsname=%s key=PMI_process_mapping\n", jobid);
		line(req, resp, sizeof(resp));
	} else {
		cmd2("cmd=info-getjobattr;key=PMI_process_mapping;", resp, sizeof(resp));
	}
	val(resp, "value", map, sizeof(map));
	if (strcmp(what, "abort") == 0) {
		if (rank == who) {
			if (ver == 1) {
				put_all("cmd=abort exitcode=7\n", 21);
				exit(7);
			}
			snprintf(req, sizeof(req), "cmd=abort;isworld=TRUE;msg=rank %d gave up;", rank);
			snprintf(v, sizeof(v), "%-6d", (int)strlen(req));
			put_all(v, 6);
			put_all(req, strlen(req));
			exit(1);
		}
		sleep(60);
	}
	if (strcmp(what, "nofin") == 0 && rank == who)
		exit(0);
	if (ver == 1) {
		line("cmd=finalize\n", resp, sizeof(resp));
		expect(resp, "cmd=finalize_ack rc=0");
	} else {
		cmd2("cmd=finalize;", resp, sizeof(resp));
		expect(resp, "cmd=finalize-response;rc=0;");
	}
	if (strcmp(what, "quiet") != 0)
		printf("rank %d of %d: jobid %s, %d of %d keys, map %s\n", rank, size, jobid, ok,
		       size, map);
	return 0;
}
