/* test_authz.c - who may do what. Every request code the dispatcher serves,
 * found by trying all 65536 codes (so a new request cannot be left out),
 * and every operation of authz.c (all of enum sl_op), each tried as the
 * job's owner, another user, an operator and root. The handlers are
 * stand-ins that record that they ran: a denied request must not reach one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "authz.h"
#include "diag.h"
#include "buf.h"
#include "conf.h"
#include "conf_testlib.h"
#include "dispatch.h"
#include "handlers.h"
#include "nodeadmin.h"
#include "partadmin.h"
#include "proto.h"
#include "xalloc.h"

enum who { OWNER, OTHER, OPERATOR, ROOT, NWHO };
static const char *const who_name[NWHO] = {"the owner", "another user", "an operator", "root"};
/* As conn.c fills them in; the owner of every job below is alice. */
static const struct sl_peer peers[NWHO] = {
	[OWNER] = {.uid = 1001, .gid = 100, .user = "alice"},
	[OTHER] = {.uid = 1002, .gid = 100, .user = "bob"},
	[OPERATOR] = {.uid = 1003, .gid = 100, .user = "opal", .operator = 1},
	[ROOT] = {.uid = 0, .gid = 0, .user = "root", .operator = 1},
};
#define JOB_ID 42

/* ---- the stand-in handlers ---- */

static unsigned ran; /* the type whose handler ran, 0 for none */

int sl_h_submit(struct sluiced *d, const struct sl_peer *p, const char *body, size_t len,
		struct sl_buf *rep, struct sl_err *err)
{
	ran = SL_MSG_SUBMIT;
	return sl_buf_addstr(rep, "{}");
}

int sl_h_jobs(struct sluiced *d, const struct sl_peer *p, json_object *req,
	      struct sl_buf *rep, struct sl_err *err)
{
	ran = SL_MSG_JOBS;
	return sl_buf_addstr(rep, "{}");
}

int sl_h_cancel(struct sluiced *d, const struct sl_peer *p, json_object *req,
		json_object *rep, struct sl_err *err)
{
	ran = SL_MSG_CANCEL;
	return 0;
}

int sl_h_control(struct sluiced *d, const struct sl_peer *p, json_object *req,
		 json_object *rep, struct sl_err *err)
{
	ran = SL_MSG_CONTROL;
	return 0;
}

int sl_h_partitions(struct sluiced *d, const struct sl_peer *p, json_object *req,
		    json_object *rep, struct sl_err *err)
{
	ran = SL_MSG_PARTITIONS;
	return 0;
}

int sl_h_update(struct sluiced *d, const struct sl_peer *p, json_object *req,
		json_object *rep, struct sl_err *err)
{
	ran = SL_MSG_UPDATE;
	return 0;
}

int sl_h_ping(struct sluiced *d, const struct sl_peer *p, json_object *req,
	      json_object *rep, struct sl_err *err)
{
	ran = SL_MSG_PING;
	return 0;
}

int sl_h_reconfigure(struct sluiced *d, const struct sl_peer *p, json_object *req,
		     json_object *rep, struct sl_err *err)
{
	ran = SL_MSG_RECONFIGURE;
	return 0;
}

int sl_h_config(struct sluiced *d, const struct sl_peer *p, json_object *req,
		json_object *rep, struct sl_err *err)
{
	ran = SL_MSG_CONFIG;
	return 0;
}

int sl_h_hold(struct sluiced *d, const struct sl_peer *p, json_object *req,
	      json_object *rep, struct sl_err *err)
{
	ran = SL_MSG_HOLD;
	return 0;
}

int sl_h_stat(struct sluiced *d, const struct sl_peer *p, json_object *req,
	      json_object *rep, struct sl_err *err)
{
	ran = SL_MSG_STAT;
	return 0;
}

int sl_h_shares(struct sluiced *d, const struct sl_peer *p, json_object *req,
		json_object *rep, struct sl_err *err)
{
	ran = SL_MSG_SHARES;
	return 0;
}

/* The handlers' stand-ins: this test is of the dispatch table's privilege
 * rows, so a handler only records that the request reached it. */
#define HANDLER_RAN(fn, type) \
	int fn(struct sluiced *d, const struct sl_peer *p, json_object *req, json_object *rep, \
	       struct sl_err *err) { ran = type; return 0; }
HANDLER_RAN(sl_h_step_create, SL_MSG_STEP_CREATE)
HANDLER_RAN(sl_h_step_end, SL_MSG_STEP_END)
HANDLER_RAN(sl_h_steps, SL_MSG_STEPS)
HANDLER_RAN(sl_h_step_signal, SL_MSG_STEP_SIGNAL)
HANDLER_RAN(sl_h_node_update, SL_MSG_NODE_UPDATE)
HANDLER_RAN(sl_h_part_update, SL_MSG_PART_UPDATE)
HANDLER_RAN(sl_h_diag, SL_MSG_DIAG)

/* The statistics' count of served requests, not under test here. */
void sl_diag_rpc(struct sl_diag *g, uint16_t type, const char *name, uint32_t uid, int64_t us)
{
	(void)g, (void)type, (void)name, (void)uid, (void)us;
}

/* ---- requests ---- */

#define ALL {1, 1, 1, 1}
#define RETIRED {-1, -1, -1, -1}
/* 1 allowed to reach the handler, 0 denied, -1 not served at all. */
static const struct {
	unsigned type;
	int as_root[NWHO];  /* sluiced runs as root */
	int as_alice[NWHO]; /* sluiced runs as alice, the owner */
} requests[] = {
	{1, RETIRED, RETIRED}, /* ping */
	{SL_MSG_SUBMIT, ALL, {1, 0, 0, 0}},
	{SL_MSG_JOBS, ALL, ALL},
	{SL_MSG_CANCEL, ALL, ALL},  /* per job: see ops[] */
	{SL_MSG_CONTROL, ALL, ALL}, /* per job: see ops[] */
	{6, RETIRED, RETIRED}, /* info */
	{SL_MSG_PARTITIONS, ALL, ALL}, /* sinfo */
	{SL_MSG_UPDATE, ALL, ALL}, /* per job and field: see ops[] */
	{SL_MSG_PING, ALL, ALL},
	{SL_MSG_RECONFIGURE, {0, 0, 1, 1}, {0, 0, 1, 1}}, /* operators only */
	{SL_MSG_CONFIG, ALL, ALL},
	{SL_MSG_NODE_UPDATE, {0, 0, 1, 1}, {0, 0, 1, 1}}, /* operators only */
	{SL_MSG_PART_UPDATE, {0, 0, 1, 1}, {0, 0, 1, 1}}, /* operators only */
	{SL_MSG_DIAG, ALL, ALL}, /* sdiag; its reset is checked in the handler */
	{SL_MSG_HOLD, ALL, ALL}, /* qhold/qrls; per job: see ops[] */
	{SL_MSG_SHARES, ALL, ALL}, /* sshare */
	{SL_MSG_STAT, ALL, ALL}, /* sstat; per job: SEE_PRIVATE */
	/* steps: the job's user or an operator, checked per job in h_step.c */
	{SL_MSG_STEP_CREATE, ALL, ALL},
	{SL_MSG_STEP_END, ALL, ALL},
	{SL_MSG_STEPS, ALL, ALL},
	{SL_MSG_STEP_SIGNAL, ALL, ALL},
};

static int find_request(unsigned type)
{
	for (size_t i = 0; i < sizeof(requests) / sizeof(requests[0]); i++)
		if (requests[i].type == type)
			return (int)i;
	return -1;
}

#define DENIED "{\"code\":\"EPERM\",\"error\":\"Access\\/permission denied" /* json-c's */

/* One request as p; returns what happened (1, 0, -1) and checks the reply. */
static int try_request(struct sluiced *d, const struct sl_peer *p, unsigned type)
{
	char *reply = NULL;
	int r;

	ran = 0;
	r = sl_dispatch(d, p, (uint16_t)type, "{}", 2, &reply);
	if (r == -SL_EPROTO) {
		assert_null(reply);
		assert_int_equal(ran, 0);
		return -1;
	}
	assert_int_equal(r, 0);
	assert_non_null(reply);
	if (ran != 0) {
		assert_int_equal(ran, type);
		assert_string_equal(reply, "{}");
	} else if (type == SL_MSG_SUBMIT) {
		assert_string_equal(reply, DENIED ": sluiced runs as alice and accepts only "
				    "alice's jobs\"}");
	} else {
		assert_string_equal(reply, DENIED "\"}");
	}
	free(reply);
	return ran != 0;
}

static void test_requests(void **state)
{
	struct sluiced as_root = {.self_uid = 0, .self_user = "root"};
	struct sluiced as_alice = {.self_uid = 1001, .self_user = "alice"};
	size_t served = 0, live = 0;

	for (unsigned type = 0; type <= 0xffff; type++) {
		int i = find_request(type);
		for (int w = 0; w < NWHO; w++) {
			int got = try_request(&as_root, &peers[w], type);
			int got2 = try_request(&as_alice, &peers[w], type);
			if (got == -1 && got2 == -1 && i < 0)
				continue;
			if (i < 0)
				fail_msg("request type %u (%s) is served but has no row here", type,
					 sl_proto_type_name((uint16_t)type));
			if (got != requests[i].as_root[w] || got2 != requests[i].as_alice[w])
				fail_msg("type %u as %s: got %d/%d, want %d/%d", type,
					 who_name[w], got, got2, requests[i].as_root[w],
					 requests[i].as_alice[w]);
			served += got >= 0 && w == 0;
		}
	}
	for (size_t i = 0; i < sizeof(requests) / sizeof(requests[0]); i++)
		live += requests[i].as_root[0] >= 0;
	assert_int_equal(served, live);
	assert_int_equal(live, 19);
}

/* The request-level rules, including the one no request uses yet. */
static void test_request_rules(void **state)
{
	struct sluiced d = {.self_uid = 0, .self_user = "root"};
	struct sl_err err = SL_ERR_INIT;

	for (int w = 0; w < NWHO; w++) {
		assert_int_equal(sl_authz_request(d.self_uid, d.self_user, &peers[w], SL_PRIV_ANY, NULL), 0);
		assert_int_equal(sl_authz_request(d.self_uid, d.self_user, &peers[w], SL_PRIV_OWNER, NULL), 0);
		assert_int_equal(sl_authz_request(d.self_uid, d.self_user, &peers[w], SL_PRIV_OPERATOR, NULL),
				 peers[w].operator ? 0 : -SL_EPERM);
	}
	assert_int_equal(sl_authz_request(d.self_uid, d.self_user, &peers[OTHER], SL_PRIV_OPERATOR, &err), -SL_EPERM);
	assert_string_equal(err.msg, "Access/permission denied");
}

/* ---- operations on jobs and fields ---- */

static struct sl_conf *conf;
static struct sl_job *job;      /* alice's, pending */
static struct sl_job *admin_job; /* alice's, held by an operator */

static struct sl_job *mkjob(uid_t uid, int hold, const char *reason)
{
	struct sl_job *j = sl_job_new();
	j->id = JOB_ID;
	j->uid = uid;
	j->state = SL_JOB_PENDING;
	j->spec.hold = hold;
	j->reason = sl_xstrdup(reason);
	return j;
}

static int on_job(const struct sl_peer *p, enum sl_op op, struct sl_err *err)
{
	return sl_authz_job(p, job, op, err);
}

/* The handler asks for a release; for whoever may release at all, an admin
 * hold makes that a release of an admin hold. */
static int release_admin_held(const struct sl_peer *p, enum sl_op op, struct sl_err *err)
{
	struct sl_err e2 = SL_ERR_INIT;
	int r = sl_authz_job(p, admin_job, SL_OP_RELEASE_ADMIN, err);

	if (sl_authz_job(p, job, SL_OP_RELEASE, NULL) == 0) {
		assert_int_equal(sl_authz_job(p, admin_job, SL_OP_RELEASE, &e2), r);
		assert_string_equal(e2.msg, err->msg);
	}
	return r;
}

static int in_spec(const struct sl_peer *p, enum sl_op op, struct sl_err *err)
{
	struct sl_jobspec s;
	int r;

	sl_jobspec_init(&s);
	assert_int_equal(sl_authz_spec(p, &s, NULL), 0); /* nothing asked */
	s.nice = 100;
	assert_int_equal(sl_authz_spec(p, &s, NULL), 0); /* lowering oneself is free */
	if (op == SL_OP_PRIORITY)
		s.priority = 10;
	else
		s.nice = -1;
	r = sl_authz_spec(p, &s, err);
	sl_jobspec_clear(&s);
	return r;
}

static int account(const struct sl_peer *p, enum sl_op op, struct sl_err *err)
{
	assert_int_equal(sl_authz_account(conf, p, "general", NULL), 0);
	return sl_authz_account(conf, p, "physics", err);
}

static const struct {
	enum sl_op op;
	int (*run)(const struct sl_peer *p, enum sl_op op, struct sl_err *err);
	int allow[NWHO];
	int code;
	const char *deny;
} ops[] = {
	{SL_OP_CANCEL, on_job, {1, 0, 1, 1}, SL_EPERM, "Access/permission denied"},
	{SL_OP_SIGNAL, on_job, {1, 0, 1, 1}, SL_EPERM, "Access/permission denied"},
	{SL_OP_HOLD, on_job, {1, 0, 1, 1}, SL_EPERM, "Invalid user id for job 42"},
	{SL_OP_RELEASE, on_job, {1, 0, 1, 1}, SL_EPERM, "Invalid user id for job 42"},
	{SL_OP_REQUEUE, on_job, {1, 0, 1, 1}, SL_EPERM, "Access/permission denied for job 42"},
	{SL_OP_RELEASE_ADMIN, release_admin_held, {0, 0, 1, 1}, SL_EPERM,
	 "Access/permission denied for job 42"},
	{SL_OP_PRIORITY, in_spec, {0, 0, 1, 1}, SL_EPERM,
	 "Access/permission denied: only operators may set --priority"},
	{SL_OP_NICE_NEGATIVE, in_spec, {0, 0, 1, 1}, SL_EINVAL, "Invalid --nice value"},
	{SL_OP_ACCOUNT, account, {0, 0, 1, 1}, SL_EACCOUNT,
	 "Invalid account or account/partition combination specified"},
	{SL_OP_TOP, on_job, {0, 0, 1, 1}, SL_EPERM, "Access/permission denied for job 42"},
	{SL_OP_SUSPEND, on_job, {0, 0, 1, 1}, SL_EPERM, "Access/permission denied for job 42"},
	{SL_OP_UPDATE, on_job, {1, 0, 1, 1}, SL_EPERM, "Invalid user id for job 42"},
	{SL_OP_UPDATE_PRIORITY, on_job, {0, 0, 1, 1}, SL_EPERM,
	 "Changes to job priority are not persistent, change nice instead for job 42"},
	{SL_OP_UPDATE_NICE, on_job, {0, 0, 1, 1}, SL_EPERM, "Access/permission denied for job 42"},
	{SL_OP_UPDATE_LIMIT, on_job, {0, 0, 1, 1}, SL_EPERM, "Access/permission denied for job 42"},
	{SL_OP_HOLD_OPERATOR, on_job, {0, 0, 1, 1}, SL_EPERM, "Unauthorized Request for job 42"},
	/* a job's environment, script and --export values (issue 11, hole 8) */
	{SL_OP_SEE_PRIVATE, on_job, {1, 0, 1, 1}, SL_EPERM, "Access/permission denied"},
};

static void test_ops(void **state)
{
	for (int op = 0; op < SL_OP_COUNT; op++) {
		size_t i;
		for (i = 0; i < sizeof(ops) / sizeof(ops[0]) && ops[i].op != (enum sl_op)op; i++)
			;
		if (i == sizeof(ops) / sizeof(ops[0]))
			fail_msg("operation %d has no row here", op);
		for (int w = 0; w < NWHO; w++) {
			struct sl_err err = SL_ERR_INIT;
			int r = ops[i].run(&peers[w], (enum sl_op)op, &err);
			if (ops[i].allow[w]) {
				if (r != 0)
					fail_msg("op %d as %s: denied (%s)", op, who_name[w],
						 err.msg);
				continue;
			}
			if (r != -ops[i].code)
				fail_msg("op %d as %s: got %d, want %d", op, who_name[w], r,
					 -ops[i].code);
			assert_string_equal(err.msg, ops[i].deny);
		}
	}
}

/* Which hold a `scontrol hold` sets. */
static void test_hold_kind(void **state)
{
	struct sl_job *user_held = mkjob(1001, 1, "JobHeldUser");
	struct sl_job *opals = mkjob(1003, 0, "None");
	static const struct {
		struct sl_job **j;
		int admin[NWHO];
	} rows[] = {
		{&job, {0, 0, 1, 1}},       /* an operator on someone else's job: admin */
		{&admin_job, {1, 1, 1, 1}}, /* the owner cannot turn it into a user hold */
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		for (int w = 0; w < NWHO; w++)
			if (w != OTHER) /* denied before (test_ops) */
				assert_int_equal(sl_authz_hold_admin(&peers[w], *rows[i].j),
						 rows[i].admin[w]);
	assert_int_equal(sl_authz_hold_admin(&peers[OWNER], user_held), 0);
	assert_int_equal(sl_authz_hold_admin(&peers[OPERATOR], user_held), 1);
	assert_int_equal(sl_authz_hold_admin(&peers[OPERATOR], opals), 0); /* own job */
	/* Held by an operator, then running (requeued, say): no longer a hold. */
	admin_job->state = SL_JOB_RUNNING;
	assert_int_equal(sl_authz_hold_admin(&peers[OWNER], admin_job), 0);
	assert_int_equal(sl_authz_job(&peers[OWNER], admin_job, SL_OP_RELEASE, NULL), 0);
	admin_job->state = SL_JOB_PENDING;
	sl_job_free(user_held);
	sl_job_free(opals);
}

static int setup(void **state)
{
	conf = tl_conf("apiVersion: sluice.io/v1alpha1\nkind: SluiceConfiguration\n"
		       "accounts:\n  \"*\": [general]\n");
	if (conf == NULL)
		return -1;
	job = mkjob(1001, 0, "None");
	admin_job = mkjob(1001, 1, "JobHeldAdmin");
	return 0;
}

static int teardown(void **state)
{
	sl_conf_free(conf);
	sl_job_free(job);
	sl_job_free(admin_job);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_requests),
		cmocka_unit_test(test_request_rules),
		cmocka_unit_test(test_ops),
		cmocka_unit_test(test_hold_kind),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
