/* logincache.h - what a job needs of its user's account: name, home, shell
 * and supplementary groups, cached per (uid, gid) for a while.
 *
 * sluiced resolves these for every launch (sluice-stepd has no NSS). On a
 * login node getgrouplist() walks every group source, systemd's userdb
 * included: about 0.1 ms for an ordinary user, on the daemon's only thread.
 * Slurm caches groups the same way (GroupUpdateTime). Entries live as long
 * as idcache's, and SIGHUP clears them. */
#ifndef SL_LOGINCACHE_H
#define SL_LOGINCACHE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct sl_login {
	char *user, *home, *shell;
	gid_t *groups; /* NULL when not wanted (sluiced not root) */
	size_t ngroups;
};

/* Fills out (all strings allocated) and returns 0, or returns an errno
 * value (ENOENT: no such user). Replaceable for tests. */
typedef int (*sl_login_lookup_fn)(uid_t uid, gid_t gid, int want_groups,
				  struct sl_login *out);

/* lookup NULL: getpwuid_r and getgrouplist. ttl: seconds (>= 0). */
struct sl_logincache *sl_logincache_new(sl_login_lookup_fn lookup, int64_t ttl);
void sl_logincache_free(struct sl_logincache *c);
void sl_logincache_clear(struct sl_logincache *c);

/* The account of uid with primary group gid at time `now` (seconds), with
 * its groups when want_groups. Borrowed: valid until the next call on c.
 * NULL when the lookup failed, with the errno value in *e; failures are not
 * cached. */
const struct sl_login *sl_logincache_get(struct sl_logincache *c, uid_t uid, gid_t gid,
					 int want_groups, int64_t now, int *e);

void sl_login_clear(struct sl_login *l);

#endif
