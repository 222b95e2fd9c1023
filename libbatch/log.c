/* log.c - levels plus a simple rate limit: a client hammering the socket with
 * bad frames must not fill the disk through our log. */
#include "log.h"

#include <stdarg.h>
#include <stdio.h>
#include <syslog.h>
#include <time.h>

static const char *log_ident = "sluice";
static int log_stderr = 1;
static enum sl_loglevel log_max = SL_LOG_INFO;
static time_t window;
static unsigned in_window, dropped;

#define LOG_BURST 200 /* lines per second before dropping */

void sl_log_open(const char *ident, int to_stderr, enum sl_loglevel max)
{
	log_ident = ident;
	log_stderr = to_stderr;
	log_max = max;
	if (!to_stderr)
		openlog(ident, LOG_PID, LOG_DAEMON);
}

static int rate_ok(time_t now)
{
	if (now != window) {
		if (dropped > 0 && log_stderr)
			fprintf(stderr, "%s: (%u log lines dropped)\n", log_ident, dropped);
		window = now;
		in_window = 0;
		dropped = 0;
	}
	if (++in_window > LOG_BURST) {
		dropped++;
		return 0;
	}
	return 1;
}

void sl_log(enum sl_loglevel lvl, const char *fmt, ...)
{
	static const int prio[] = {LOG_ERR, LOG_WARNING, LOG_INFO, LOG_DEBUG};
	static const char *name[] = {"error", "warning", "info", "debug"};
	va_list ap;
	time_t now;

	if (lvl > log_max)
		return;
	now = time(NULL);
	if (!rate_ok(now))
		return;
	va_start(ap, fmt);
	if (log_stderr) {
		struct tm tm;
		char ts[32];
		localtime_r(&now, &tm);
		strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%S", &tm);
		fprintf(stderr, "[%s] %s: %s: ", ts, log_ident, name[lvl]);
		vfprintf(stderr, fmt, ap);
		fputc('\n', stderr);
	} else {
		vsyslog(prio[lvl], fmt, ap);
	}
	va_end(ap);
}
