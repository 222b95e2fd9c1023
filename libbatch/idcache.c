/* idcache.c - a small direct-mapped cache of user and group names. A site
 * has few active submitters at a time, so one slot per (id mod N) with
 * replacement on collision is enough; a miss only costs the lookup. */
#include "idcache.h"

#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

#define IDCACHE_SLOTS 256
#define IDCACHE_NAME 64 /* struct sl_peer's user[] is 64 too */

struct slot {
	int used;
	uint32_t id;
	int64_t expires;
	char name[IDCACHE_NAME];
};

struct sl_idcache {
	struct sl_idcache_ops ops;
	int64_t ttl;
	struct slot users[IDCACHE_SLOTS], groups[IDCACHE_SLOTS];
	char numeric[16];
};

static int sys_user(uid_t uid, char *buf, size_t n)
{
	struct passwd pw, *res = NULL;
	char tmp[4096];
	if (getpwuid_r(uid, &pw, tmp, sizeof(tmp), &res) != 0 || res == NULL)
		return -1;
	snprintf(buf, n, "%s", pw.pw_name);
	return 0;
}

static int sys_group(gid_t gid, char *buf, size_t n)
{
	struct group gr, *res = NULL;
	char tmp[16384]; /* a group's member list can be long */
	if (getgrgid_r(gid, &gr, tmp, sizeof(tmp), &res) != 0 || res == NULL)
		return -1;
	snprintf(buf, n, "%s", gr.gr_name);
	return 0;
}

struct sl_idcache *sl_idcache_new(const struct sl_idcache_ops *ops, int64_t ttl)
{
	struct sl_idcache *c = sl_xcalloc(1, sizeof(*c));
	c->ops.user = ops && ops->user ? ops->user : sys_user;
	c->ops.group = ops && ops->group ? ops->group : sys_group;
	c->ttl = ttl < 0 ? 0 : ttl;
	return c;
}

void sl_idcache_free(struct sl_idcache *c)
{
	free(c);
}

void sl_idcache_clear(struct sl_idcache *c)
{
	memset(c->users, 0, sizeof(c->users));
	memset(c->groups, 0, sizeof(c->groups));
}

/* An id without a name is cached as its number, so an unknown uid does not
 * cost a lookup per request either. */
static const char *lookup(struct sl_idcache *c, int group, uint32_t id, int64_t now)
{
	struct slot *s = &(group ? c->groups : c->users)[id % IDCACHE_SLOTS];
	if (s->used && s->id == id && now < s->expires)
		return s->name;
	int r = group ? c->ops.group((gid_t)id, s->name, sizeof(s->name))
		      : c->ops.user((uid_t)id, s->name, sizeof(s->name));
	if (r != 0)
		snprintf(s->name, sizeof(s->name), "%u", (unsigned)id);
	s->used = 1;
	s->id = id;
	s->expires = now + c->ttl;
	return s->name;
}

const char *sl_idcache_user(struct sl_idcache *c, uid_t uid, int64_t now)
{
	return lookup(c, 0, uid, now);
}

const char *sl_idcache_group(struct sl_idcache *c, gid_t gid, int64_t now)
{
	return lookup(c, 1, gid, now);
}
