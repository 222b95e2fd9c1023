/* sacctmgr_cmd.c - the read-only sacctmgr's words (sacctmgr_show.h): the
 * command keyword, the entity, and the entity's conditions, by the tables
 * of Slurm 22.05's src/sacctmgr (sacctmgr.c's _process_command and
 * _show_it, each *_functions.c's _set_cond) and its rules: a keyword is
 * any prefix of it at least `min` long, in any case; a word without '='
 * is a name (an association id for `list assoc`); lists are comma lists,
 * lowercased, a repeated name moved to the end. */
#include "sacctmgr_show_int.h"

#include <ctype.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "xalloc.h"

struct word {
	const char *name;
	int min;
	int what;
};

/* Slurm's xstrncasecmp(s, name, MAX(len, min)) over the key part of s. */
static int is(const char *s, size_t len, const char *name, int min)
{
	return strncasecmp(s, name, len > (size_t)min ? len : (size_t)min) == 0;
}

static const struct word *lookup(const struct word *t, size_t n, const char *s, size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (is(s, len, t[i].name, t[i].min))
			return &t[i];
	return NULL;
}
#define T(a) a, sizeof(a) / sizeof(a[0])
#define LOOKUP(t, s, len) lookup(T(t), s, len)

/* Append name to the NULL-terminated *v; one it holds moves to the end. */
static void list_put(char ***v, const char *name)
{
	size_t n = 0, k;

	for (; *v && (*v)[n]; n++)
		;
	for (k = 0; k < n && strcasecmp((*v)[k], name) != 0; k++)
		;
	if (k < n) {
		char *keep = (*v)[k];
		memmove(&(*v)[k], &(*v)[k + 1], (n - k - 1) * sizeof(char *));
		(*v)[n - 1] = keep;
		return;
	}
	*v = sl_xrealloc(*v, (n + 2) * sizeof(char *));
	(*v)[n] = sl_xstrdup(name);
	(*v)[n + 1] = NULL;
}

/* slurm_addto_char_list(): "a,b,,c," -> a b c; a leading quote runs to
 * its match; a name given twice keeps its last place; no name at all is
 * "" (`user=` matches nobody). Lowercased, as sacctmgr's lists are. */
static void list_add(char ***v, const char *value)
{
	char *copy = sl_xstrdup(value), *s = copy, *save = NULL;
	size_t added = 0;

	if (*s == '"' || *s == '\'') {
		char *end = strchr(s + 1, *s);
		if (end)
			*end = '\0';
		s++;
	}
	for (char *c = s; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	for (char *t = strtok_r(s, ",", &save); t; t = strtok_r(NULL, ",", &save), added++)
		list_put(v, t);
	if (added == 0)
		list_put(v, "");
	free(copy);
}

/* ---- the conditions --------------------------------------------------- */

enum kw { KW_SKIP, KW_ASSOC, KW_COORDS, KW_ONLYDEFS, KW_SUB, KW_WOPINFO, KW_WOPLIMITS,
	  KW_UNSUPP };

#define L(f) (int)offsetof(struct sl_sacctmgr_cmd, f)
#define C_FORMAT (-1)
#define C_ADMIN (-2)
#define C_UNSUPP (-3)

/* Keywords without '=', then conditions with one; what: a list's offset
 * in the command, or C_*. */
static const struct word user_kw[] = {
	{"WithAssoc", 5, KW_ASSOC}, {"WithCoordinators", 5, KW_COORDS},
	{"WithDeleted", 5, KW_SKIP}, {"WithRawQOSLevel", 5, KW_SKIP},
	{"WOPLimits", 4, KW_WOPLIMITS}, {"where", 5, KW_SKIP},
};
static const struct word assoc_kw[] = {
	{"OnlyDefaults", 2, KW_ONLYDEFS}, {"Tree", 4, KW_UNSUPP}, {"WithDeleted", 5, KW_SKIP},
	{"WithRawQOSLevel", 5, KW_SKIP}, {"WithSubAccounts", 5, KW_SUB}, {"WOPInfo", 4, KW_WOPINFO},
	{"WOPLimits", 4, KW_WOPLIMITS}, {"WOLimits", 3, KW_WOPLIMITS}, {"where", 5, KW_SKIP},
};
static const struct word qos_kw[] = {{"WithDeleted", 5, KW_SKIP}, {"where", 5, KW_SKIP}};
static const struct word cluster_kw[] = {
	{"where", 5, KW_SKIP}, {"WithDeleted", 5, KW_SKIP}, {"WithFed", 5, KW_UNSUPP},
	{"WOLimits", 3, KW_WOPLIMITS},
};

/* sacctmgr_set_assoc_cond(), which each entity's own rows fall back to */
#define ASSOC_CONDS                                                                           \
	{"Accounts", 2, L(accounts)}, {"Acct", 4, L(accounts)}, {"Ids", 1, C_UNSUPP},          \
		{"Associations", 2, C_UNSUPP}, {"Clusters", 1, L(clusters)},                   \
		{"DefaultQOS", 8, L(def_qos)}, {"Partitions", 3, L(parts)},                    \
		{"Parents", 4, L(parents)}, {"QosLevel", 1, L(qos)}, {"Users", 1, L(users)}
static const struct word user_cond[] = {
	{"Names", 1, L(names)}, {"Users", 1, L(names)}, {"AdminLevel", 2, C_ADMIN},
	{"Clusters", 1, L(clusters)}, {"DefaultAccount", 8, L(def_acct)},
	{"DefaultWCKey", 8, C_UNSUPP}, {"Format", 1, C_FORMAT}, {"WCKeys", 1, C_UNSUPP}, ASSOC_CONDS,
};
static const struct word acct_cond[] = {
	{"Names", 1, L(names)}, {"Accounts", 1, L(names)}, {"Acct", 4, L(names)},
	{"Descriptions", 1, L(desc)}, {"Format", 1, C_FORMAT}, {"Organizations", 1, L(org)},
	ASSOC_CONDS,
};
static const struct word assoc_cond[] = {
	{"Ids", 1, C_UNSUPP}, {"Associations", 2, C_UNSUPP}, {"Format", 1, C_FORMAT}, ASSOC_CONDS,
};
/* list qos reads Clusters= into the descriptions (qos_functions.c) */
static const struct word qos_cond[] = {
	{"Names", 1, L(names)}, {"QOSLevel", 1, L(names)}, {"Clusters", 1, L(desc)},
	{"Descriptions", 1, L(desc)}, {"Format", 1, C_FORMAT}, {"Ids", 1, C_UNSUPP},
	{"PreemptMode", 8, C_UNSUPP},
};
static const struct word cluster_cond[] = {
	{"Names", 1, L(names)}, {"Clusters", 3, L(names)}, {"Federations", 3, C_UNSUPP},
	{"Classification", 3, C_UNSUPP}, {"flags", 2, C_UNSUPP}, {"Format", 2, C_FORMAT},
	{"PluginIDSelect", 1, C_UNSUPP}, {"RPCVersions", 1, C_UNSUPP},
};

struct entity {
	const struct word *kw;
	size_t nkw;
	const struct word *cond;
	size_t ncond;
	const char *unknown; /* what follows " Unknown condition: X\n" */
	const char *def, *def_assoc, *def_limits; /* default columns; with -s; unless WOPLimits */
};
#define SET_VALUE " Use keyword 'set' to modify value"
static const struct entity entities[] = {
	[SM_USER] = {T(user_kw), T(user_cond), SET_VALUE, "U,DefaultA,Ad",
		     "Cl,Acc,Part,Share,Priority,MaxJ,MaxN,MaxCPUs,MaxS,MaxW,MaxCPUMins,QOS,"
		     "DefaultQOS", NULL},
	[SM_ACCOUNT] = {T(user_kw), T(acct_cond), SET_VALUE, "Acc,Des,O",
			"Cl,ParentN,U,Share,Priority,GrpJ,GrpN,GrpCPUs,GrpMEM,GrpS,GrpWall,"
			"GrpCPUMins,MaxJ,MaxN,MaxCPUs,MaxS,MaxW,MaxCPUMins,QOS,DefaultQOS", NULL},
	[SM_ASSOC] = {T(assoc_kw), T(assoc_cond), NULL, "Cluster,Account,User,Part",
		      NULL, "Share,Priority,GrpJ,GrpTRES,GrpS,GrpWall,GrpTRESMins,MaxJ,MaxTRES,"
			    "MaxTRESPerN,MaxS,MaxW,MaxTRESMins,QOS,DefaultQOS,GrpTRESRunMins"},
	[SM_QOS] = {T(qos_kw), T(qos_cond), " Use keyword 'set' to modify SLURM_PRINT_VALUE",
		    "Name,Prio,GraceT,Preempt,PreemptE,PreemptM,Flags%40,UsageThres,UsageFactor,"
		    "GrpTRES,GrpTRESMins,GrpTRESRunMins,GrpJ,GrpS,GrpW,MaxTRES,MaxTRESPerN,"
		    "MaxTRESMins,MaxW,MaxTRESPerUser,MaxJobsPerUser,MaxSubmitJobsPerUser,"
		    "MaxTRESPerAcct,MaxJobsPerAcct,MaxSubmitJobsPerAcct,MinTRES", NULL, NULL},
	[SM_CLUSTER] = {T(cluster_kw), T(cluster_cond), SET_VALUE,
			"Cl,Controlh,Controlp,RPC", NULL,
			"Fa,GrpJ,GrpTRES,GrpS,MaxJ,MaxTRES,MaxS,MaxW,QOS,DefaultQOS"},
};

static int keyword(struct sl_sacctmgr_cmd *c, const struct word *k, int *coords, struct sl_err *err)
{
	switch (k->what) {
	case KW_ASSOC: c->with_assoc = 1; return 0;
	case KW_COORDS: *coords = 1; return 0;
	case KW_ONLYDEFS: c->only_defs = 1; return 0;
	case KW_SUB: c->with_sub = 1; return 0;
	case KW_WOPINFO: c->wop_info = 1; return 0;
	case KW_WOPLIMITS: c->wop_limits = 1; return 0;
	case KW_UNSUPP: return sl_err_set(err, SL_EUNSUPP, "%s is not supported by Sluice", k->name);
	default: return 0;
	}
}

/* str_2_slurmdb_admin_level(), by the first letter: None, Operator,
 * SuperUser or Admin; anything else is no condition. */
static int admin_level(const char *v)
{
	int c = tolower((unsigned char)*v);
	return c == 'n' ? 0 : c == 'o' ? 1 : c == 's' || c == 'a' ? 2 : -1;
}

/* One word of the specs. */
static int spec(struct sl_sacctmgr_cmd *c, const struct entity *e, const char *w, char ***format,
		int *coords, struct sl_err *err)
{
	size_t key = strcspn(w, "=");
	const char *val = w[key] ? w + key + 1 : NULL;
	const struct word *k;

	/* "x+=" and "x-=" (for modify) read as "x=" */
	if (val && key > 0 && (w[key - 1] == '+' || w[key - 1] == '-'))
		key--;
	if (is(w, key, "Set", 3)) /* modify's "set": a listing passes over it, as Slurm's loop does */
		return 0;
	if (!val) {
		if ((k = lookup(e->kw, e->nkw, w, key)) != NULL)
			return keyword(c, k, coords, err);
		if (c->ent == SM_ASSOC)
			return sl_err_set(err, SL_EUNSUPP, "association ids are not supported by Sluice");
		list_add(&c->names, w);
		return 0;
	}
	if ((k = lookup(e->cond, e->ncond, w, key)) == NULL)
		return sl_err_set(err, SL_EINVAL, " Unknown condition: %s%s%s", w,
				  e->unknown ? "\n" : "", e->unknown ? e->unknown : "");
	switch (k->what) {
	case C_FORMAT: list_add(format, val); return 0;
	case C_UNSUPP: return sl_err_set(err, SL_EUNSUPP, "%s= is not supported by Sluice", k->name);
	case C_ADMIN: c->admin = admin_level(val); return 0;
	default: list_add((char ***)((char *)c + k->what), val); return 0;
	}
}

/* The columns: format= as given, else the entity's defaults. */
static int columns(struct sl_sacctmgr_cmd *c, const struct entity *e, char **format, int coords,
		   struct sl_err *err)
{
	size_t n = 0;
	int r;

	if (format == NULL) {
		list_add(&format, e->def);
		if (coords && c->ent == SM_USER)
			list_add(&format, "Coord");
		if (c->with_assoc && e->def_assoc)
			list_add(&format, e->def_assoc);
		if (coords && c->ent == SM_ACCOUNT)
			list_add(&format, "Coord");
		if (!c->wop_limits && e->def_limits)
			list_add(&format, e->def_limits);
	}
	for (; format[n]; n++)
		;
	r = sm_columns(format, n, &c->cols, &c->ncols, err);
	sl_strv_free(format);
	return r;
}

/* ---- the command ------------------------------------------------------ */

/* V_MODE, V_MODE2: a mode of the interactive prompt, nothing to do for
 * one command (Slurm refuses words after it, in two wordings); V_ASSOCS
 * likewise, words or not. */
enum verb { V_LIST, V_HELP, V_VERSION, V_MODE, V_MODE2, V_ASSOCS, V_UNSUPP };

static const struct word verbs[] = {
	{"associations", 3, V_ASSOCS}, {"dump", 3, V_UNSUPP}, {"help", 2, V_HELP},
	{"load", 2, V_UNSUPP}, {"oneliner", 1, V_MODE}, {"quiet", 4, V_MODE},
	{"exit", 4, V_MODE}, {"\\q", 2, V_MODE}, {"quit", 4, V_MODE},
	{"add", 3, V_UNSUPP}, {"create", 3, V_UNSUPP}, {"archive", 3, V_UNSUPP},
	{"clear", 3, V_UNSUPP}, {"show", 3, V_LIST}, {"list", 3, V_LIST},
	{"modify", 1, V_UNSUPP}, {"update", 1, V_UNSUPP}, {"delete", 3, V_UNSUPP},
	{"remove", 3, V_UNSUPP}, {"verbose", 4, V_MODE2}, {"readonly", 4, V_MODE2},
	{"reconfigure", 4, V_UNSUPP}, {"rollup", 2, V_UNSUPP}, {"shutdown", 4, V_UNSUPP},
	{"version", 4, V_VERSION},
};

#define E_UNSUPP (-1)
static const struct word ents[] = {
	{"Accounts", 2, SM_ACCOUNT}, {"Acct", 4, SM_ACCOUNT}, {"Associations", 2, SM_ASSOC},
	{"Clusters", 2, SM_CLUSTER}, {"Configuration", 2, E_UNSUPP}, {"Events", 1, E_UNSUPP},
	{"Federation", 1, E_UNSUPP}, {"Problems", 1, E_UNSUPP}, {"RunawayJobs", 2, E_UNSUPP},
	{"OrphanJobs", 1, E_UNSUPP}, {"LostJobs", 1, E_UNSUPP}, {"QOS", 1, SM_QOS},
	{"Resource", 4, E_UNSUPP}, {"Reservations", 4, E_UNSUPP}, {"Resv", 4, E_UNSUPP},
	{"Stats", 1, E_UNSUPP}, {"Transactions", 1, E_UNSUPP}, {"Txn", 1, E_UNSUPP},
	{"Users", 1, SM_USER}, {"WCKeys", 1, E_UNSUPP}, {"tres", 2, E_UNSUPP},
};

static const char no_entity[] =
	"No valid entity in list command\n"
	"Input line must include \"Account\", \"Association\", \"Cluster\", \"Configuration\",\n"
	"\"Event\", \"Federation\", \"Problem\", \"QOS\", \"Resource\", \"Reservation\",\n"
	"\"RunAwayJobs\", \"Stats\", \"Transaction\", \"TRES\", \"User\", or \"WCKey\"";

/* "list ENTITY SPECS...": the entity, its specs, its columns. */
static int parse_list(struct sl_sacctmgr_cmd *c, char *const *w, size_t n,
		      const struct sl_sacctmgr_opts *o, struct sl_err *err)
{
	const struct word *v = n ? LOOKUP(ents, w[0], strlen(w[0])) : NULL;
	const struct entity *e;
	char **format = NULL;
	int coords = 0, r = 0;

	if (v == NULL)
		return sl_err_set(err, SL_EINVAL, "%s", no_entity);
	if (v->what == E_UNSUPP) {
		char lname[32];
		size_t i;
		for (i = 0; v->name[i] && i + 1 < sizeof(lname); i++)
			lname[i] = (char)tolower((unsigned char)v->name[i]);
		lname[i] = '\0';
		return sl_err_set(err, SL_EUNSUPP, "list %s is not supported by Sluice", lname);
	}
	c->ent = (enum sm_entity)v->what;
	c->with_assoc = o->with_assoc;
	e = &entities[c->ent];
	for (size_t i = 1; i < n && r == 0; i++)
		r = spec(c, e, w[i], &format, &coords, err);
	if (r != 0) {
		sl_strv_free(format);
		return r;
	}
	return columns(c, e, format, coords, err);
}

int sl_sacctmgr_parse(char *const *words, size_t n, const struct sl_sacctmgr_opts *o,
		      struct sl_sacctmgr_cmd **out, struct sl_err *err)
{
	struct sl_sacctmgr_cmd *c = sl_xcalloc(1, sizeof(*c));
	const struct word *v;
	int r = -SL_EINTERNAL;

	c->admin = -1;
	*out = NULL;
	if (n == 0) {
		r = sl_err_set(err, SL_EUNSUPP, "interactive mode is not supported by Sluice");
		goto out;
	}
	if ((v = LOOKUP(verbs, words[0], strlen(words[0]))) == NULL) {
		r = sl_err_set(err, SL_EINVAL, "invalid keyword: %s", words[0]);
		goto out;
	}
	switch (v->what) {
	case V_UNSUPP:
		r = sl_err_set(err, SL_EUNSUPP, "%s is not supported by Sluice", v->name);
		goto out;
	case V_LIST:
		if ((r = parse_list(c, words + 1, n - 1, o, err)) != 0)
			goto out;
		c->act = SL_SM_LIST;
		break;
	default:
		if (n > 1 && v->what != V_ASSOCS) {
			r = sl_err_set(err, SL_EINVAL, v->what == V_MODE2 || v->what == V_VERSION
						       ? "too many arguments for %s keyword"
						       : "too many arguments for keyword:%s",
				       words[0]);
			goto out;
		}
		c->act = v->what == V_HELP ? SL_SM_HELP : v->what == V_VERSION ? SL_SM_VERSION
									: SL_SM_NOTHING;
	}
	*out = c;
	c = NULL;
	r = 0;
out:
	sl_sacctmgr_cmd_free(c);
	return r;
}

enum sl_sacctmgr_act sl_sacctmgr_cmd_act(const struct sl_sacctmgr_cmd *c)
{
	return c->act;
}

void sl_sacctmgr_cmd_free(struct sl_sacctmgr_cmd *c)
{
	if (c == NULL)
		return;
	free(c->cols);
	sl_strv_free(c->names), sl_strv_free(c->users), sl_strv_free(c->accounts);
	sl_strv_free(c->clusters), sl_strv_free(c->parts), sl_strv_free(c->parents);
	sl_strv_free(c->qos), sl_strv_free(c->def_qos), sl_strv_free(c->def_acct);
	sl_strv_free(c->desc), sl_strv_free(c->org);
	free(c);
}

int sl_sacctmgr_print(const struct sl_sacctmgr_cmd *c, const struct sl_sacctmgr_opts *o,
		      const struct sl_assoc_info *ai, struct sl_buf *b, struct sl_err *err)
{
	if (!o->noheader)
		sm_print_header(b, c->cols, c->ncols, o->parsable);
	return sm_list(c, o, ai, b, err);
}
