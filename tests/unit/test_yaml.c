/* test_yaml.c - the YAML tree: shapes, lines, documents, anchors, aliases and
 * merge keys, refusals, caps. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "err.h"
#include "xalloc.h"
#include "yaml.h"

static struct sl_ydocs *load_ok(const char *text)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_ydocs *d = NULL;
	int r = sl_yaml_load_buf("t.yaml", text, strlen(text), &d, &err);

	if (r != 0)
		fprintf(stderr, "unexpected error: %s\n", err.msg);
	assert_int_equal(r, 0);
	assert_non_null(d);
	return d;
}

static void load_fails(const char *text, int code, const char *msg)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_ydocs *d = (void *)1;
	int r = sl_yaml_load_buf("t.yaml", text, strlen(text), &d, &err);

	assert_int_equal(r, -code);
	assert_null(d);
	assert_string_equal(err.msg, msg);
}

static void test_tree_and_lines(void **state)
{
	struct sl_ydocs *d = load_ok("# comment\n"
				     "kind: ClusterQueue\n"
				     "metadata:\n"
				     "  name: \"gpu\"\n"
				     "spec:\n"
				     "  list:\n"
				     "  - a\n"
				     "  - 'b'\n"
				     "  - {x: 1}\n");
	struct sl_ynode *root, *meta, *name, *list;

	assert_string_equal(d->file, "t.yaml");
	assert_int_equal(d->n, 1);
	root = d->docs[0];
	assert_int_equal(root->type, SL_Y_MAP);
	assert_int_equal(root->line, 2);
	assert_int_equal(root->n, 3);
	assert_string_equal(root->keys[0], "kind");
	assert_int_equal(root->key_lines[2], 5);
	meta = sl_ymap_get(root, "metadata");
	assert_non_null(meta);
	name = sl_ymap_get(meta, "name");
	assert_int_equal(name->type, SL_Y_SCALAR);
	assert_string_equal(name->scalar, "gpu");
	assert_int_equal(name->quoted, 1);
	assert_int_equal(name->line, 4);
	assert_int_equal(sl_ymap_get(root, "kind")->quoted, 0);
	list = sl_ymap_get(sl_ymap_get(root, "spec"), "list");
	assert_int_equal(list->type, SL_Y_SEQ);
	assert_int_equal(list->n, 3);
	assert_string_equal(list->vals[1]->scalar, "b");
	assert_int_equal(list->vals[1]->line, 8);
	assert_int_equal(list->vals[2]->type, SL_Y_MAP);
	assert_int_equal(list->vals[2]->line, 9);
	assert_null(sl_ymap_get(root, "nope"));
	assert_null(sl_ymap_get(list, "x"));
	assert_null(sl_ymap_get(NULL, "x"));
	assert_int_equal(sl_ymap_key_line(root, "spec"), 5);
	assert_int_equal(sl_ymap_key_line(meta, "absent"), 4);
	sl_ydocs_free(d);
}

static void test_multi_document(void **state)
{
	struct sl_ydocs *d = load_ok("---\na: 1\n---\n---\n# only a comment\n---\n"
				     "b: 2\n...\n---\n~\n");

	assert_int_equal(d->n, 2);
	assert_string_equal(d->docs[0]->keys[0], "a");
	assert_string_equal(d->docs[1]->keys[0], "b");
	assert_int_equal(d->docs[1]->line, 7);
	sl_ydocs_free(d);

	d = load_ok("");
	assert_int_equal(d->n, 0);
	sl_ydocs_free(d);
	d = load_ok("# nothing\n");
	assert_int_equal(d->n, 0);
	sl_ydocs_free(d);
	d = load_ok("just a scalar\n");
	assert_int_equal(d->n, 1);
	assert_int_equal(d->docs[0]->type, SL_Y_SCALAR);
	sl_ydocs_free(d);
}

static void test_refusals(void **state)
{
	load_fails("a:\n  - 1\nb: *x\n", SL_EINVAL,
		   "t.yaml:3: YAML alias *x: no anchor &x before it in this document");
	load_fails("&k a: 1\n", SL_EINVAL,
		   "t.yaml:1: YAML anchors on mapping keys are not supported");
	load_fails("a: &k b\n*k : 1\n", SL_EINVAL,
		   "t.yaml:2: YAML aliases on mapping keys are not supported");
	load_fails("a: 1\nb: 2\na: 3\n", SL_EINVAL,
		   "t.yaml:3: duplicate key \"a\" (first on line 1)");
	load_fails("? [a, b]\n: 1\n", SL_EINVAL, "t.yaml:1: mapping keys must be scalars");
	load_fails("a: 1\n b: 2\n", SL_EINVAL,
		   "t.yaml:2: mapping values are not allowed in this context");
	load_fails("a: [1, 2\n", SL_EINVAL,
		   "t.yaml:2: did not find expected ',' or ']' "
		   "(while parsing a flow sequence)");
	load_fails("---\nok: 1\n---\nx: \"unterminated\n", SL_EINVAL,
		   "t.yaml:5: found unexpected end of stream "
		   "(while scanning a quoted scalar)");
}

/* Scalars, mappings and sequences through aliases: plain copies, with the
 * lines where they were written, and anchors redefined as YAML allows. */
static void test_aliases(void **state)
{
	struct sl_ydocs *d = load_ok("base: &b\n"
				     "  cpu: 4\n"
				     "  list: [x, &y 'y']\n"
				     "one: *b\n"
				     "two: *y\n"
				     "three: &b 7\n"
				     "four: *b\n");
	struct sl_ynode *root = d->docs[0], *one, *two, *four;

	assert_int_equal(root->n, 5);
	one = sl_ymap_get(root, "one");
	assert_int_equal(one->type, SL_Y_MAP);
	assert_ptr_not_equal(one, sl_ymap_get(root, "base")); /* a copy, not shared */
	assert_string_equal(sl_ymap_get(one, "cpu")->scalar, "4");
	assert_int_equal(sl_ymap_get(one, "cpu")->line, 2);
	assert_int_equal(sl_ymap_key_line(one, "list"), 3);
	assert_int_equal(sl_ymap_get(one, "list")->n, 2);
	two = sl_ymap_get(root, "two");
	assert_string_equal(two->scalar, "y");
	assert_true(two->quoted);
	four = sl_ymap_get(root, "four");
	assert_string_equal(four->scalar, "7"); /* the latest &b */
	sl_ydocs_free(d);

	/* Anchors are a document's own. */
	load_fails("a: &x 1\n---\nb: *x\n", SL_EINVAL,
		   "t.yaml:3: YAML alias *x: no anchor &x before it in this document");
	load_fails("a: &x [1, *x]\n", SL_EINVAL,
		   "t.yaml:1: YAML alias *x is inside the node &x names (a recursive alias)");
}

/* `<<`: the mapping's own keys win wherever written; of a list, the first
 * mapping that has a key gives it; a quoted '<<' is an ordinary key. */
static void test_merge_keys(void **state)
{
	struct sl_ydocs *d = load_ok("defaults: &d {cpu: 1, memory: 2Gi, gpu: 0}\n"
				     "more: &m {gpu: 8, nic: 1}\n"
				     "a:\n"
				     "  cpu: 4\n"
				     "  <<: *d\n"
				     "b:\n"
				     "  <<: [*m, *d]\n"
				     "  memory: 1Gi\n"
				     "c: {'<<': 1}\n"
				     "d:\n"
				     "  <<: {inline: yes}\n"
				     "  nested: {<<: *m, nic: 2}\n");
	struct sl_ynode *root = d->docs[0], *a, *b, *c, *dd, *nested;

	a = sl_ymap_get(root, "a");
	assert_int_equal(a->n, 3);
	assert_string_equal(sl_ymap_get(a, "cpu")->scalar, "4");
	assert_string_equal(sl_ymap_get(a, "memory")->scalar, "2Gi");
	assert_string_equal(sl_ymap_get(a, "gpu")->scalar, "0");
	assert_int_equal(sl_ymap_key_line(a, "gpu"), 1);
	b = sl_ymap_get(root, "b");
	assert_int_equal(b->n, 4);
	assert_string_equal(sl_ymap_get(b, "gpu")->scalar, "8");
	assert_string_equal(sl_ymap_get(b, "nic")->scalar, "1");
	assert_string_equal(sl_ymap_get(b, "cpu")->scalar, "1");
	assert_string_equal(sl_ymap_get(b, "memory")->scalar, "1Gi");
	c = sl_ymap_get(root, "c");
	assert_string_equal(c->keys[0], "<<");
	dd = sl_ymap_get(root, "d");
	assert_int_equal(dd->n, 2);
	assert_string_equal(sl_ymap_get(dd, "inline")->scalar, "yes");
	nested = sl_ymap_get(dd, "nested");
	assert_int_equal(nested->n, 2); /* its own merge only, not d's */
	assert_string_equal(sl_ymap_get(nested, "nic")->scalar, "2");
	assert_string_equal(sl_ymap_get(nested, "gpu")->scalar, "8");
	assert_null(sl_ymap_get(nested, "inline"));
	sl_ydocs_free(d);

	/* An anchor on a merge key's value names that mapping, merged or not. */
	d = load_ok("e:\n  <<: &mm {p: 1, q: [x]}\n  p: 2\nf: *mm\n");
	assert_string_equal(sl_ymap_get(sl_ymap_get(d->docs[0], "e"), "p")->scalar, "2");
	assert_string_equal(sl_ymap_get(sl_ymap_get(d->docs[0], "f"), "p")->scalar, "1");
	assert_int_equal(sl_ymap_get(sl_ymap_get(d->docs[0], "e"), "q")->n, 1);
	sl_ydocs_free(d);

	load_fails("s: &s 1\nm:\n  <<: *s\n", SL_EINVAL,
		   "t.yaml:1: the merge key << takes a mapping or a list of mappings");
	load_fails("m:\n  <<: [{a: 1}, 2]\n", SL_EINVAL,
		   "t.yaml:2: the merge key << takes a mapping or a list of mappings");
	load_fails("m: {a: 1, <<: {b: 2}, a: 3}\n", SL_EINVAL,
		   "t.yaml:1: duplicate key \"a\" (first on line 1)");
}

/* Billion laughs: each level doubles (or multiplies by ten) the tree; the
 * copies' size is capped long before memory or time is. */
static void test_alias_bomb(void **state)
{
	char buf[4096];
	size_t o = 0;

	o += (size_t)snprintf(buf + o, sizeof(buf) - o, "a0: &a0 [lol, lol, lol, lol, lol, lol]\n");
	for (int i = 1; i <= 12; i++)
		o += (size_t)snprintf(buf + o, sizeof(buf) - o,
				      "a%d: &a%d [*a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, "
				      "*a%d, *a%d]\n", i, i, i - 1, i - 1, i - 1, i - 1, i - 1,
				      i - 1, i - 1, i - 1, i - 1, i - 1);
	load_fails(buf, SL_ETOOBIG,
		   "t.yaml:7: YAML alias *a5: aliases expand the input past 64 MiB "
		   "(an alias bomb?)");
	/* Merges count too. */
	o = (size_t)snprintf(buf, sizeof(buf), "m0: &m0 {k: [lol, lol, lol, lol]}\n");
	for (int i = 1; i <= 12; i++)
		o += (size_t)snprintf(buf + o, sizeof(buf) - o,
				      "m%d: &m%d {<<: *m%d, a: *m%d, b: *m%d, c: *m%d, d: *m%d, "
				      "e: *m%d, f: *m%d, g: *m%d, h: *m%d, i: *m%d}\n", i, i, i - 1,
				      i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1);
	{
		struct sl_err err = SL_ERR_INIT;
		struct sl_ydocs *d = NULL;
		assert_int_equal(sl_yaml_load_buf("t.yaml", buf, o, &d, &err), -SL_ETOOBIG);
		assert_null(d);
		assert_non_null(strstr(err.msg, "(an alias bomb?)"));
	}
	/* Nesting through aliases of aliases is capped like written nesting. */
	o = (size_t)snprintf(buf, sizeof(buf), "l0: &l0 x\n");
	for (int i = 1; i <= 64; i++)
		o += (size_t)snprintf(buf + o, sizeof(buf) - o, "l%d: &l%d [*l%d]\n", i, i, i - 1);
	load_fails(buf, SL_ETOOBIG, "t.yaml:64: YAML alias *l62: nested deeper than 64 levels");
}

static void test_depth_cap(void **state)
{
	char buf[512];
	size_t i;

	for (i = 0; i < 64; i++)
		buf[i] = '[';
	for (i = 64; i < 128; i++)
		buf[i] = ']';
	buf[128] = '\0';
	sl_ydocs_free(load_ok(buf));
	for (i = 0; i < 65; i++)
		buf[i] = '[';
	for (i = 65; i < 130; i++)
		buf[i] = ']';
	buf[130] = '\0';
	load_fails(buf, SL_ETOOBIG, "t.yaml:1: nested deeper than 64 levels");
}

static void test_size_cap(void **state)
{
	size_t len = (16u << 20) + 1;
	char *big = sl_xmalloc(len);
	struct sl_err err = SL_ERR_INIT;
	struct sl_ydocs *d = NULL;

	memset(big, '#', len);
	assert_int_equal(sl_yaml_load_buf("big.yaml", big, len, &d, &err), -SL_ETOOBIG);
	assert_null(d);
	assert_string_equal(err.msg, "big.yaml: larger than 16 MiB");
	free(big);
}

static void test_file(void **state)
{
	char path[] = "/tmp/test_yaml_XXXXXX";
	const char *text = "x: 1\n---\ny: 2\n";
	struct sl_err err = SL_ERR_INIT;
	struct sl_ydocs *d = NULL;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	assert_int_equal(sl_yaml_load_file(path, &d, &err), 0);
	assert_string_equal(d->file, strrchr(path, '/') + 1);
	assert_int_equal(d->n, 2);
	assert_int_equal(d->docs[1]->line, 3);
	sl_ydocs_free(d);
	unlink(path);

	assert_int_equal(sl_yaml_load_file("/nonexistent/x.yaml", &d, &err), -SL_ENOENT);
	assert_null(d);
	assert_string_equal(err.msg, "/nonexistent/x.yaml: No such file or directory");
}

static struct sl_ynode scalar(const char *s, int quoted)
{
	struct sl_ynode n;

	memset(&n, 0, sizeof(n));
	n.type = SL_Y_SCALAR;
	n.scalar = (char *)s;
	n.quoted = quoted;
	return n;
}

static void test_scalars(void **state)
{
	static const struct { const char *s; int quoted, r, v; } bools[] = {
		{"true", 0, 0, 1}, {"True", 0, 0, 1}, {"TRUE", 0, 0, 1},
		{"false", 0, 0, 0}, {"False", 0, 0, 0}, {"FALSE", 0, 0, 0},
		{"yes", 0, -SL_EINVAL, 0}, {"1", 0, -SL_EINVAL, 0},
		{"true", 1, -SL_EINVAL, 0}, {"", 0, -SL_EINVAL, 0},
	};
	static const struct { const char *s; int quoted, r; int64_t v; } ints[] = {
		{"0", 0, 0, 0}, {"42", 0, 0, 42}, {"-7", 0, 0, -7}, {"+8", 0, 0, 8},
		{"9223372036854775807", 0, 0, INT64_MAX},
		{"9223372036854775808", 0, -SL_EINVAL, 0},
		{"1.5", 0, -SL_EINVAL, 0}, {"12a", 0, -SL_EINVAL, 0},
		{" 1", 0, -SL_EINVAL, 0}, {"", 0, -SL_EINVAL, 0},
		{"5", 1, -SL_EINVAL, 0}, {"-", 0, -SL_EINVAL, 0},
	};
	struct sl_ynode n;
	int64_t i64;
	size_t i;
	int b;

	for (i = 0; i < sizeof(bools) / sizeof(bools[0]); i++) {
		n = scalar(bools[i].s, bools[i].quoted);
		b = -1;
		assert_int_equal(sl_yscalar_bool(&n, &b), bools[i].r);
		if (bools[i].r == 0)
			assert_int_equal(b, bools[i].v);
	}
	for (i = 0; i < sizeof(ints) / sizeof(ints[0]); i++) {
		n = scalar(ints[i].s, ints[i].quoted);
		i64 = -99;
		assert_int_equal(sl_yscalar_int64(&n, &i64), ints[i].r);
		if (ints[i].r == 0)
			assert_true(i64 == ints[i].v);
	}
	n = scalar("", 0);
	assert_true(sl_yscalar_is_null(&n));
	n = scalar("~", 0);
	assert_true(sl_yscalar_is_null(&n));
	n = scalar("null", 0);
	assert_true(sl_yscalar_is_null(&n));
	n = scalar("null", 1);
	assert_false(sl_yscalar_is_null(&n));
	n = scalar("nil", 0);
	assert_false(sl_yscalar_is_null(&n));
	n.type = SL_Y_MAP;
	assert_int_equal(sl_yscalar_int64(&n, &i64), -SL_EINVAL);
	assert_false(sl_yscalar_is_null(NULL));
}

static void test_yerr(void **state)
{
	struct sl_err err = SL_ERR_INIT;

	assert_int_equal(sl_yerr(&err, SL_ECONFIG, "sluice.yaml", 42, "ClusterQueue",
				 "gpu", "spec.cohort", "\"%s\" is bad", "x"),
			 -SL_ECONFIG);
	assert_int_equal(err.code, SL_ECONFIG);
	assert_string_equal(err.msg,
			    "sluice.yaml:42: ClusterQueue \"gpu\": spec.cohort: \"x\" is bad");
	/* first error wins */
	sl_yerr(&err, SL_EINVAL, "other.yaml", 1, NULL, NULL, NULL, "later");
	assert_int_equal(err.code, SL_ECONFIG);
	sl_err_clear(&err);
	sl_yerr(&err, SL_ECONFIG, "sluice.yaml", 3, "SluiceConfiguration", NULL,
		"executor", "bad");
	assert_string_equal(err.msg, "sluice.yaml:3: SluiceConfiguration: executor: bad");
	sl_err_clear(&err);
	sl_yerr(&err, SL_ECONFIG, "a.yaml", 0, NULL, NULL, NULL, "no line");
	assert_string_equal(err.msg, "a.yaml: no line");
	sl_err_clear(&err);
	sl_yerr(&err, SL_ECONFIG, NULL, 5, NULL, NULL, "", "bare");
	assert_string_equal(err.msg, "bare");
	assert_int_equal(sl_yerr(NULL, SL_EINVAL, NULL, 0, NULL, NULL, NULL, "x"),
			 -SL_EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tree_and_lines),
		cmocka_unit_test(test_multi_document),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_aliases),
		cmocka_unit_test(test_merge_keys),
		cmocka_unit_test(test_alias_bomb),
		cmocka_unit_test(test_depth_cap),
		cmocka_unit_test(test_size_cap),
		cmocka_unit_test(test_file),
		cmocka_unit_test(test_scalars),
		cmocka_unit_test(test_yerr),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
