/* h_admin.c - the daemon itself: PING (scontrol ping), RECONFIGURE
 * (scontrol reconfigure, operators: what SIGHUP does) and CONFIG (scontrol
 * show config: the settings, as conf.c's key table shows them, and the
 * daemon's own facts that Slurm's keys report). */
#include "conf.h"
#include "exec.h"
#include "handlers.h"
#include "log.h"

#include <signal.h>
#include <stdio.h>
#include <sys/sysinfo.h>
#include <time.h>
#include <unistd.h>

static void add_str(json_object *o, const char *key, const char *v)
{
	json_object_object_add(o, key, json_object_new_string(v ? v : ""));
}

int sl_h_ping(struct sluiced *d, const struct sl_peer *p, json_object *req, json_object *rep,
	      struct sl_err *err)
{
	add_str(rep, "host", d->hostname);
	json_object_object_add(rep, "now", json_object_new_int64((int64_t)time(NULL)));
	return 0;
}

/* What SIGHUP does (main.c), now: a file refused is the caller's error,
 * with its reason, and the old configuration stays. */
int sl_h_reconfigure(struct sluiced *d, const struct sl_peer *p, json_object *req,
		     json_object *rep, struct sl_err *err)
{
	int r;
	(void)p, (void)req, (void)rep;
	if ((r = sl_daemon_reload(d, err)) != 0)
		sl_err_log("reconfigure: new configuration refused, the old one stays: %s", err->msg);
	return r;
}

static int show_cb(const char *key, const char *value, const char *help, void *arg)
{
	json_object *row = json_object_new_array();
	json_object_array_add(row, json_object_new_string(key));
	json_object_array_add(row, json_object_new_string(value));
	json_object_array_add(arg, row);
	return 0;
}

int sl_h_config(struct sluiced *d, const struct sl_peer *p, json_object *req, json_object *rep,
		struct sl_err *err)
{
	json_object *settings = json_object_new_array();
	int r = sl_conf_show(d->conf, show_cb, settings);
	struct sysinfo si;

	if (r != 0) {
		json_object_put(settings);
		return sl_err_set(err, SL_EINTERNAL, "config: the settings could not be listed");
	}
	json_object_object_add(rep, "now", json_object_new_int64((int64_t)time(NULL)));
	if (sysinfo(&si) == 0)
		json_object_object_add(rep, "start_time", json_object_new_int64(
			sl_daemon_start_time((int64_t)time(NULL) - (int64_t)si.uptime)));
	add_str(rep, "host", d->hostname);
	add_str(rep, "user", d->self_user);
	json_object_object_add(rep, "uid", json_object_new_int64((int64_t)d->self_uid));
	add_str(rep, "conf_path", sl_conf_path(d->conf));
	add_str(rep, "executor", d->executor->name);
	json_object_object_add(rep, "settings", settings);
	return 0;
}
