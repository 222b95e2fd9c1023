/* squeue_proj.c - which record members squeue's format codes and sort
 * keys read (squeue_fmt.c's printers, squeue_sort.c's comparators), so
 * that it asks sluiced for those alone: a whole record is ~400 bytes, and
 * the default format prints a fifth of it.
 *
 * Numbers cost nothing at their default, and most are, so every listing
 * asks for all of them; the table names strings only. A code or key
 * missing from it makes the listing ask for whole records: a printer added
 * without its row is slow, never wrong. */
#include "squeue_proj.h"

#include <stdlib.h>
#include <string.h>

#include "slurm_fmt.h"
#include "squeue_fmt.h"

/* Read by everything around the printers: the filters squeue applies
 * itself (jobfilter.c: partition, account, name, qos, wckey, node), array
 * folding (squeue_array.c: name, partition, array, reason, array_tasks),
 * and the id, user and reason most formats print. */
static const char base[] = "spec.name spec.partition spec.account spec.qos spec.wckey "
			   "spec.array user reason nodelist array_tasks";

struct row {
	char code;
	const char *strings; /* beyond base */
};

/* Every % code of squeue_fmt.c's table. */
static const struct row codes[] = {
	{'a', ""}, {'A', ""}, {'b', "spec.gpu_type"}, {'B', ""}, {'c', ""}, {'C', ""},
	{'d', ""}, {'D', ""}, {'e', ""}, {'E', "dependency"}, {'f', "spec.features"},
	{'F', ""}, {'g', "group"}, {'G', ""}, {'h', ""}, {'H', ""}, {'i', ""}, {'I', ""},
	{'j', ""}, {'J', ""}, {'k', "spec.comment"}, {'K', ""}, {'l', ""}, {'L', ""},
	{'m', ""}, {'M', ""}, {'n', ""}, {'N', ""}, {'o', "spec.script_path spec.submit_dir"},
	{'O', ""}, {'p', ""}, {'P', ""}, {'q', ""}, {'Q', ""}, {'r', ""}, {'R', ""},
	{'S', ""}, {'t', ""}, {'T', ""}, {'u', ""}, {'U', ""}, {'v', ""}, {'V', ""},
	{'w', ""}, {'W', ""}, {'x', ""}, {'X', ""}, {'y', ""}, {'Y', ""}, {'z', ""},
	{'Z', "spec.work_dir"},
};

/* squeue_sort.c's keys that read a string outside base. */
static const struct row keys[] = {{'g', "group"}};

static const struct row *find(const struct row *t, size_t n, char c)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].code == c)
			return &t[i];
	return NULL;
}

/* Add a space-separated list of names: -1 when one is not a member. */
static int add_names(struct sl_jobproj *p, const char *list)
{
	char name[64];

	while (*list != '\0') {
		size_t k = strcspn(list, " ");
		if (k > 0) {
			if (k >= sizeof(name))
				return -1;
			memcpy(name, list, k);
			name[k] = '\0';
			if (sl_jobproj_add(p, name) != 0)
				return -1;
		}
		list += k + (list[k] == ' ');
	}
	return 0;
}

struct sl_jobproj *sl_squeue_proj(const char *fmt, const char *sort)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_jobproj *p = sl_jobproj_new();
	struct sl_fmt *f = NULL;
	const struct row *row;
	int ok = sl_fmt_parse_percent(fmt, &f, &err) == 0 && add_names(p, base) == 0;

	sl_jobproj_add_numbers(p);
	for (size_t i = 0; ok && i < sl_fmt_count(f); i++)
		ok = (row = find(codes, sizeof(codes) / sizeof(codes[0]),
				 sl_fmt_item(f, i)->code)) != NULL && add_names(p, row->strings) == 0;
	/* Sort keys: letters (the "cluster" key and signs read nothing). */
	for (const char *s = sort ? sort : SL_SQUEUE_SORT_DEFAULT; ok && *s != '\0'; s++)
		if ((row = find(keys, sizeof(keys) / sizeof(keys[0]), *s)) != NULL)
			ok = add_names(p, row->strings) == 0;
	sl_fmt_free(f);
	if (!ok) {
		sl_jobproj_free(p);
		return NULL;
	}
	return p;
}
