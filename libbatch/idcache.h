/* idcache.h - uid -> user name and gid -> group name, cached for a while.
 *
 * Every connection needs its peer's user name and every submission its
 * group name. Without a cache each is a read and parse of /etc/passwd or
 * /etc/group (or an NSS round trip to LDAP) on the daemon's only thread,
 * about a tenth of a submission's cost. Entries expire like nscd's (the
 * positive TTL is short, so a renamed user is seen within a minute), and
 * SIGHUP clears them. */
#ifndef SL_IDCACHE_H
#define SL_IDCACHE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* nscd keeps positive passwd entries 600 s; a minute is kinder to renames. */
#define SL_IDCACHE_TTL 60

struct sl_idcache;

/* Lookup functions, replaceable for tests: fill buf with the name and
 * return 0, or return -1 when the id has no entry. */
struct sl_idcache_ops {
	int (*user)(uid_t uid, char *buf, size_t n);
	int (*group)(gid_t gid, char *buf, size_t n);
};

/* ops NULL: getpwuid_r/getgrgid_r. ttl: seconds an entry lives (>= 0). */
struct sl_idcache *sl_idcache_new(const struct sl_idcache_ops *ops, int64_t ttl);
void sl_idcache_free(struct sl_idcache *c);
void sl_idcache_clear(struct sl_idcache *c);

/* The name for an id at time `now` (seconds), or the id in decimal when it
 * has none. Borrowed: valid until the next call on c. */
const char *sl_idcache_user(struct sl_idcache *c, uid_t uid, int64_t now);
const char *sl_idcache_group(struct sl_idcache *c, gid_t gid, int64_t now);

#endif
