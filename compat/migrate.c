/* migrate.c - `sluice migrate`'s driver: resolves slurm.conf's nodes and
 * partitions, runs the mappers in the order the outputs need them
 * (settings, flavors, accounts, queues, QOS), and writes the report: every
 * input line with what became of it. */
#include "migrate_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "conf.h"
#include "xalloc.h"

static const char *const status_word[] = {"mapped", "approximated", "dropped"};

void mig_out(struct sl_buf *b, const char *fmt, ...)
{
	char small[512], *big = NULL;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(small)) {
		big = sl_xmalloc((size_t)n + 1);
		va_start(ap, fmt);
		vsnprintf(big, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	/* past MIG_OUT_MAX the output is cut; sl_migrate() checks and fails */
	(void)sl_buf_addstr(b, big ? big : small);
	free(big);
}

void mig_note(struct mig *m, enum mig_src src, size_t idx, enum mig_status st, const char *fmt, ...)
{
	struct mig_notes *n = src == MIG_CONF ? &m->conf_notes[idx] : &m->acct_notes[idx];
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!n->text)
		n->text = sl_buf_new(1 << 20);
	mig_out(n->text, "  %s: %s\n", status_word[st], msg);
}

char *mig_q(const char *s)
{
	struct sl_buf *b = sl_buf_new(strlen(s) * 4 + 3);
	(void)sl_buf_addc(b, '"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			(void)sl_buf_addc(b, '\\');
		if ((unsigned char)*s < 0x20)
			(void)sl_buf_addf(b, "\\x%02x", (unsigned char)*s);
		else
			(void)sl_buf_addc(b, *s);
	}
	(void)sl_buf_addc(b, '"');
	char *r = sl_buf_steal(b);
	sl_buf_free(b);
	return r;
}

const char *mig_global(const struct mig *m, const char *key)
{
	return sl_slurm_conf_get(m->c, key);
}

/* What a line counts as: dropped when nothing of it maps, approximated
 * when some part is approximated or dropped, else mapped. */
static enum mig_status worst(const struct mig_notes *n)
{
	const char *t = n->text ? sl_buf_str(n->text) : "";
	int mapped = strstr(t, "  mapped: ") != NULL, approx = strstr(t, "  approximated: ") != NULL;
	if (!mapped && !approx)
		return MIG_DROPPED;
	return approx || strstr(t, "  dropped: ") ? MIG_APPROX : MIG_MAPPED;
}

static char *report(struct mig *m)
{
	struct sl_buf *b = sl_buf_new(MIG_OUT_MAX);
	size_t count[3] = {0}, nl = sl_slurm_conf_nlines(m->c), na = m->db ? sl_acctdb_count(m->db) : 0;
	for (size_t i = 0; i < nl; i++)
		count[worst(&m->conf_notes[i])]++;
	for (size_t i = 0; i < na; i++)
		count[worst(&m->acct_notes[i])]++;
	mig_out(b, "# sluice migrate: %zu lines: %zu mapped, %zu approximated, %zu dropped\n",
		nl + na, count[0], count[1], count[2]);
	for (size_t i = 0; i < nl; i++) {
		const struct sl_sconf_line *l = sl_slurm_conf_line(m->c, i);
		mig_out(b, "%s:%d: %s\n", l->file, l->line, l->text);
		mig_out(b, "%s", m->conf_notes[i].text ? sl_buf_str(m->conf_notes[i].text)
						       : "  dropped: no Sluice equivalent\n");
	}
	for (size_t i = 0; i < na; i++) {
		const struct sl_acct_ent *e = sl_acctdb_get(m->db, i);
		mig_out(b, "%s:%d: %s\n", e->file, e->line, e->text);
		mig_out(b, "%s", m->acct_notes[i].text ? sl_buf_str(m->acct_notes[i].text)
						       : "  dropped: no Sluice equivalent\n");
	}
	char *t = sl_buf_steal(b);
	sl_buf_free(b);
	return t;
}

static void settings(struct mig *m)
{
	const char *st = mig_global(m, "SelectTypeParameters");
	const char *cn = mig_global(m, "ClusterName");
	/* CR_Core, CR_CPU, CR_Socket: Slurm does not count memory, nor will the queues */
	m->count_mem = st && strcasestr(st, "Memory") != NULL;
	if (!cn || sl_conf_k8s_name(cn, m->cluster) != 0)
		snprintf(m->cluster, sizeof(m->cluster), "slurm");
	mig_out(m->cfg, "# Written by `sluice migrate`; the report says what became of each line.\n"
			"apiVersion: sluice.io/v1alpha1\nkind: SluiceConfiguration\n");
}

static void free_mig(struct mig *m)
{
	size_t nl = sl_slurm_conf_nlines(m->c), na = m->db ? sl_acctdb_count(m->db) : 0;
	for (size_t i = 0; m->conf_notes && i < nl; i++)
		sl_buf_free(m->conf_notes[i].text);
	for (size_t i = 0; m->acct_notes && i < na; i++)
		sl_buf_free(m->acct_notes[i].text);
	free(m->conf_notes);
	free(m->acct_notes);
	for (size_t i = 0; i < m->nflavors; i++) {
		free(m->flavors[i].name);
		free(m->flavors[i].sig);
		free(m->flavors[i].gpu_type);
	}
	free(m->flavors);
	free(m->node_flavor);
	free(m->overlap);
	for (size_t i = 0; i < m->naccounts; i++) {
		free(m->accounts[i].name);
		free(m->accounts[i].parent);
	}
	free(m->accounts);
	for (size_t i = 0; i < m->nusers; i++) {
		free(m->users[i].name);
		sl_strv_free(m->users[i].accounts);
	}
	free(m->users);
	sl_buf_free(m->cfg);
	sl_buf_free(m->kueue);
	sl_buf_free(m->limits);
	sl_buf_free(m->parts);
	sl_slurm_nodes_free((struct sl_slurm_nodes *)m->nodes);
}

void sl_migrate_out_clear(struct sl_migrate_out *out)
{
	free(out->config);
	free(out->limits);
	free(out->partitions);
	free(out->report);
	memset(out, 0, sizeof(*out));
}

int sl_migrate(const struct sl_slurm_conf *c, const struct sl_acctdb *db,
	       struct sl_migrate_out *out, struct sl_err *err)
{
	struct mig m = {.c = c, .db = db};
	struct sl_slurm_nodes *nodes = NULL;
	int r;
	memset(out, 0, sizeof(*out));
	if ((r = sl_slurm_nodes_resolve(c, &nodes, err)) != 0)
		return r;
	m.nodes = nodes;
	m.conf_notes = sl_xcalloc(sl_slurm_conf_nlines(c) + 1, sizeof(*m.conf_notes));
	m.acct_notes = sl_xcalloc((db ? sl_acctdb_count(db) : 0) + 1, sizeof(*m.acct_notes));
	m.cfg = sl_buf_new(MIG_OUT_MAX);
	m.kueue = sl_buf_new(MIG_OUT_MAX);
	m.limits = sl_buf_new(MIG_OUT_MAX);
	m.parts = sl_buf_new(MIG_OUT_MAX);
	/* what the settings' notes depend on is worked out first */
	settings(&m);
	mig_flavors(&m);
	mig_accounts(&m);
	mig_keys(&m);
	mig_accounts_map(&m);
	mig_queues(&m);
	mig_qos(&m);
	if (sl_buf_len(m.cfg) + sl_buf_len(m.kueue) + 64 >= MIG_OUT_MAX ||
	    sl_buf_len(m.limits) + 64 >= MIG_OUT_MAX || sl_buf_len(m.parts) + 64 >= MIG_OUT_MAX) {
		r = sl_err_set(err, SL_ETOOBIG, "the config would pass %u bytes", MIG_OUT_MAX);
		goto out;
	}
	out->config = sl_xasprintf("%s%s", sl_buf_str(m.cfg), sl_buf_str(m.kueue));
	out->limits = sl_buf_len(m.limits) ? sl_buf_steal(m.limits) : NULL;
	out->partitions = sl_buf_len(m.parts) ? sl_buf_steal(m.parts) : NULL;
	out->report = report(&m);
	r = 0;
out:
	free_mig(&m);
	return r;
}
