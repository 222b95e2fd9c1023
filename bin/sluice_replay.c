/* sluice_replay.c - `sluice replay TRACE --config FILE [--compare FILE]
 * [--policy kueue|fcfs] [--html FILE]`: load, run, print. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sluice_replay.h"
#include "conf.h"
#include "replay.h"
#include "replay_load.h"

void sl_cmd_replay_usage(FILE *f)
{
	fprintf(f, "Usage: sluice replay TRACE --config FILE [--compare FILE] [--policy kueue|fcfs]\n"
		   "                    [--html FILE]\n"
		   "  Replay a trace (sacct -a -P -o JobID,User,Account,Partition,QOS,Submit,Start,\n"
		   "  End,Timelimit,ReqTRES,State, or SWF) on simulated time through the engine;\n"
		   "  print wait times, utilisation, preemptions and makespan beside the trace's\n"
		   "  own history. --policy fcfs adds plain first-come-first-served.\n");
}

static void progress(size_t done, size_t total, void *arg)
{
	const char *label = arg;
	int w = 40, fill = total ? (int)((double)done / (double)total * w) : w;
	fprintf(stderr, "\rreplay %-12.12s [%.*s%*s] %3d%%", label, fill,
		"########################################", w - fill, "",
		total ? (int)(100.0 * (double)done / (double)total) : 100);
	if (done == total)
		fputc('\n', stderr);
}

static int load_conf(const char *path, struct sl_conf **c)
{
	struct sl_err err = SL_ERR_INIT;
	if (sl_conf_load(path, c, &err) != 0) {
		fprintf(stderr, "sluice: error: %s\n", err.msg);
		return -1;
	}
	return 0;
}

static const char *base(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

int sl_cmd_replay(int argc, char **argv)
{
	static const struct option lo[] = {
		{"config", required_argument, NULL, 'c'}, {"compare", required_argument, NULL, 'C'},
		{"policy", required_argument, NULL, 'p'}, {"html", required_argument, NULL, 'H'},
		{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0},
	};
	const char *conf = NULL, *compare = NULL, *html = NULL;
	int fcfs = 0, o, rc = 1;
	struct sl_conf *c[2] = {NULL, NULL};
	struct sl_replay *r[4] = {NULL};
	struct sl_replay_trace *t = NULL;
	struct sl_err err = SL_ERR_INIT;
	size_t n = 0;
	void (*prog)(size_t, size_t, void *) = isatty(STDERR_FILENO) ? progress : NULL;

	while ((o = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (o) {
		case 'c': conf = optarg; break;
		case 'C': compare = optarg; break;
		case 'H': html = optarg; break;
		case 'p':
			if (strcmp(optarg, "fcfs") == 0)
				fcfs = 1;
			else if (strcmp(optarg, "kueue") != 0) {
				fprintf(stderr, "sluice: error: --policy: \"%s\" is neither kueue nor fcfs\n", optarg);
				return 2;
			}
			break;
		case 'h': sl_cmd_replay_usage(stdout); return 0;
		default: sl_cmd_replay_usage(stderr); return 2;
		}
	}
	if (optind != argc - 1 || !conf) {
		sl_cmd_replay_usage(stderr);
		return 2;
	}
	if (load_conf(conf, &c[0]) || (compare && load_conf(compare, &c[1])))
		goto out;
	if (sl_replay_load(argv[optind], &t, &err) != 0) {
		fprintf(stderr, "sluice: error: %s\n", err.msg);
		goto out;
	}
	r[n++] = sl_replay_history(t, c[0], "history");
	for (int i = 0; i < 2 + fcfs; i++) {
		const struct sl_conf *cf = i == 2 ? c[0] : c[i];
		const char *label = i == 2 ? "fcfs" : i == 1 ? compare : conf;
		if (!cf)
			continue;
		if (sl_replay_run(t, cf, i == 2 ? SL_REPLAY_FCFS : SL_REPLAY_KUEUE, base(label),
				  prog, (void *)base(label), &r[n], &err) != 0) {
			fprintf(stderr, "sluice: error: %s: %s\n", label, err.msg);
			goto out;
		}
		n++;
	}
	char *text = sl_replay_report_text(t, r, n);
	fputs(text, stdout);
	free(text);
	if (html) {
		char *page = sl_replay_report_html(t, r, n);
		FILE *f = fopen(html, "w");
		int bad = !f || fputs(page, f) < 0;
		bad |= f && fclose(f) != 0;
		free(page);
		if (bad) {
			fprintf(stderr, "sluice: error: %s: cannot write\n", html);
			goto out;
		}
	}
	rc = 0;
out:
	for (size_t i = 0; i < n; i++)
		sl_replay_free(r[i]);
	sl_replay_trace_free(t);
	sl_conf_free(c[0]);
	sl_conf_free(c[1]);
	return rc;
}
