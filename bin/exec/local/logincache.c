/* logincache.c - direct-mapped like idcache: few users launch at a time, so
 * one slot per (uid mod N), replaced on collision. */
#include "logincache.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

#define LOGIN_SLOTS 64

struct slot {
	int used, want_groups;
	uid_t uid;
	gid_t gid;
	int64_t expires;
	struct sl_login login;
};

struct sl_logincache {
	sl_login_lookup_fn lookup;
	int64_t ttl;
	struct slot slots[LOGIN_SLOTS];
};

static int groups_of(const char *user, gid_t gid, struct sl_login *out)
{
	int n = 32;
	for (int tries = 0; tries < 4; tries++) {
		int want = n;
		gid_t *g = sl_xcalloc((size_t)n, sizeof(gid_t));
		if (getgrouplist(user, gid, g, &want) >= 0) {
			out->groups = g;
			out->ngroups = (size_t)want;
			return 0;
		}
		free(g);
		n = want > n ? want : n * 2;
	}
	return E2BIG;
}

static int sys_lookup(uid_t uid, gid_t gid, int want_groups, struct sl_login *out)
{
	struct passwd pw, *res = NULL;
	char buf[16384];
	int e = getpwuid_r(uid, &pw, buf, sizeof(buf), &res);

	if (res == NULL)
		return e ? e : ENOENT;
	out->user = sl_xstrdup(pw.pw_name);
	out->home = sl_xstrdup(pw.pw_dir);
	out->shell = sl_xstrdup(pw.pw_shell);
	if (want_groups && (e = groups_of(pw.pw_name, gid, out)) != 0) {
		sl_login_clear(out);
		return e;
	}
	return 0;
}

void sl_login_clear(struct sl_login *l)
{
	free(l->user);
	free(l->home);
	free(l->shell);
	free(l->groups);
	memset(l, 0, sizeof(*l));
}

struct sl_logincache *sl_logincache_new(sl_login_lookup_fn lookup, int64_t ttl)
{
	struct sl_logincache *c = sl_xcalloc(1, sizeof(*c));
	c->lookup = lookup ? lookup : sys_lookup;
	c->ttl = ttl < 0 ? 0 : ttl;
	return c;
}

void sl_logincache_clear(struct sl_logincache *c)
{
	for (size_t i = 0; i < LOGIN_SLOTS; i++) {
		sl_login_clear(&c->slots[i].login);
		c->slots[i].used = 0;
	}
}

void sl_logincache_free(struct sl_logincache *c)
{
	if (c == NULL)
		return;
	sl_logincache_clear(c);
	free(c);
}

const struct sl_login *sl_logincache_get(struct sl_logincache *c, uid_t uid, gid_t gid,
					 int want_groups, int64_t now, int *e)
{
	struct slot *s = &c->slots[uid % LOGIN_SLOTS];
	struct sl_login fresh = {0};
	int r;

	if (s->used && s->uid == uid && s->gid == gid && s->want_groups == want_groups &&
	    now < s->expires)
		return &s->login;
	if ((r = c->lookup(uid, gid, want_groups, &fresh)) != 0) {
		*e = r;
		return NULL;
	}
	sl_login_clear(&s->login);
	s->login = fresh;
	s->used = 1;
	s->uid = uid;
	s->gid = gid;
	s->want_groups = want_groups;
	s->expires = now + c->ttl;
	return &s->login;
}
