/* test_k8s_http.c - the REST transport and typed verbs against a scripted
 * local responder (tests/data/k8s/responder.py): auth headers, retries and
 * their limits for POST, Retry-After, rate limiting, outage survival, caps,
 * 401 refresh, TLS (CA file/data, client cert, insecure, tls-server-name),
 * and Status -> sl_err mapping. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loop.h"
#include "k8s/http.h"
#include "k8s/kclient.h"
#include "k8s_responder.h"

struct result {
	int done, rc, status, attempts, maybe_sent;
	int64_t retry_after;
	char body[4096], hdr[128], msg[SL_ERR_MSG_MAX];
};

static struct sl_loop *loop;
static int timed_out;

static void on_resp(const struct sl_k8s_resp *r, void *arg)
{
	struct result *res = arg;
	const char *h = sl_k8s_resp_header(r, "X-Test");

	res->done++;
	res->rc = r->rc;
	res->status = r->status;
	res->attempts = r->attempts;
	res->maybe_sent = r->maybe_sent;
	res->retry_after = r->retry_after;
	snprintf(res->body, sizeof(res->body), "%s", r->body);
	snprintf(res->hdr, sizeof(res->hdr), "%s", h ? h : "");
	snprintf(res->msg, sizeof(res->msg), "%s", r->err.msg);
}

static int pending, stop_after;

static void on_resp_count(const struct sl_k8s_resp *r, void *arg)
{
	on_resp(r, arg);
	if (++pending == stop_after)
		sl_loop_stop(loop);
}

static void on_guard(struct sl_loop *l, uint64_t id, void *arg)
{
	timed_out = 1;
	sl_loop_stop(l);
}

/* Run the loop until `n` on_resp_count callbacks or ms passed. */
static void run_until(int n, int64_t ms)
{
	uint64_t g = sl_loop_add_timer(loop, ms, on_guard, NULL);

	pending = 0;
	stop_after = n;
	timed_out = 0;
	sl_loop_run(loop);
	sl_loop_del_timer(loop, g);
	assert_int_equal(timed_out, 0);
}

static struct sl_kubeconfig plain_kc(struct responder *r, char *server, size_t n)
{
	struct sl_kubeconfig kc = {0};

	snprintf(server, n, "http://127.0.0.1:%d", r->port);
	kc.origin = "test";
	kc.server = server;
	kc.ns = "team-a";
	kc.token = "tok";
	return kc;
}

static struct sl_k8s_http *client(const struct sl_kubeconfig *kc, const struct sl_k8s_http_opts *o)
{
	struct sl_k8s_http *h = NULL;
	struct sl_err err = SL_ERR_INIT;

	if (sl_k8s_http_new(loop, kc, o, &h, &err) != 0)
		fail_msg("sl_k8s_http_new: %s", err.msg);
	return h;
}

static json_object *req_log(struct responder *r, size_t i, const char *key)
{
	json_object *log = responder_log(r), *v = NULL, *keep;

	if (i < json_object_array_length(log))
		json_object_object_get_ex(json_object_array_get_idx(log, i), key, &v);
	keep = v ? json_object_get(v) : NULL;
	json_object_put(log);
	return keep;
}

static size_t log_len(struct responder *r)
{
	json_object *log = responder_log(r);
	size_t n = json_object_array_length(log);

	json_object_put(log);
	return n;
}

static int log_str_eq(struct responder *r, size_t i, const char *key, const char *want)
{
	json_object *v = req_log(r, i, key);
	int eq = v != NULL && strcmp(json_object_get_string(v), want) == 0;

	if (!eq)
		print_error("log[%zu].%s = %s, want %s\n", i, key, v ? json_object_get_string(v) : "null", want);
	json_object_put(v);
	return eq;
}

static double log_t(struct responder *r, size_t i)
{
	json_object *v = req_log(r, i, "t");
	double t = v ? json_object_get_double(v) : -1;

	json_object_put(v);
	return t;
}

static const struct sl_k8s_http_opts fast = {.backoff_base_ms = 20, .backoff_cap_ms = 100, .qps = -1};

static void test_get_and_headers(void **state)
{
	struct responder r;
	char server[64];
	struct result res = {0};
	struct sl_k8s_req_spec s = {.method = "GET", .path = "/api/v1/pods", .query = "limit=1"};

	assert_int_equal(responder_start(&r, "[{\"path\":\"/api/v1/pods\",\"responses\":[{\"status\":200,"
					     "\"headers\":{\"X-Test\":\"yes\"},\"json\":{\"kind\":\"PodList\"}}]}]",
					 0, 0), 0);
	struct sl_kubeconfig kc = plain_kc(&r, server, sizeof(server));
	struct sl_k8s_http *h = client(&kc, &fast);
	sl_k8s_http_send(h, &s, on_resp_count, &res);
	run_until(1, 10000);
	assert_int_equal(res.rc, 0);
	assert_int_equal(res.status, 200);
	assert_string_equal(res.body, "{\"kind\": \"PodList\"}");
	assert_string_equal(res.hdr, "yes");
	assert_int_equal(res.retry_after, -1);
	assert_true(log_str_eq(&r, 0, "auth", "Bearer tok"));
	assert_true(log_str_eq(&r, 0, "query", "limit=1"));
	sl_k8s_http_free(h);
	responder_stop(&r);
}

static void test_retry_5xx_and_429(void **state)
{
	struct responder r;
	char server[64];
	struct result res = {0};
	struct sl_k8s_req_spec s = {.method = "GET", .path = "/x"};

	assert_int_equal(responder_start(&r, "[{\"path\":\"/x\",\"responses\":["
					     "{\"status\":503,\"body\":\"\"},{\"status\":500,\"body\":\"\"},"
					     "{\"status\":429,\"headers\":{\"Retry-After\":\"1\"},\"body\":\"\"},"
					     "{\"status\":200,\"body\":\"ok\"}]}]", 0, 0), 0);
	struct sl_kubeconfig kc = plain_kc(&r, server, sizeof(server));
	struct sl_k8s_http *h = client(&kc, &fast);
	struct sl_k8s_http_stats st;
	sl_k8s_http_send(h, &s, on_resp_count, &res);
	run_until(1, 10000);
	assert_int_equal(res.status, 200);
	assert_string_equal(res.body, "ok");
	assert_int_equal(res.attempts, 4);
	assert_int_equal(log_len(&r), 4);
	/* Retry-After: 1 is honoured (plus at most 10 % jitter). */
	assert_true(log_t(&r, 3) - log_t(&r, 2) >= 0.99);
	assert_true(log_t(&r, 3) - log_t(&r, 2) < 1.6);
	sl_k8s_http_stats(h, &st);
	assert_int_equal(st.retries, 3);
	assert_int_equal(st.requests, 1);
	sl_k8s_http_free(h);
	responder_stop(&r);
}

static void test_post_retry_rules(void **state)
{
	struct responder r;
	char server[64];
	struct result a = {0}, b = {0}, c = {0};
	struct sl_k8s_req_spec safe = {.method = "POST", .path = "/safe", .body = "{}", .body_len = 2};
	struct sl_k8s_req_spec create = {.method = "POST", .path = "/create", .body = "{}",
				      .body_len = 2, .retry = SL_KRETRY_CREATE};
	struct sl_k8s_req_spec limited = {.method = "GET", .path = "/down", .retry_deadline_ms = 1500};

	assert_int_equal(responder_start(&r, "[{\"path\":\"/safe\",\"responses\":[{\"drop\":true},"
					     "{\"status\":201,\"body\":\"{}\"}]},"
					     "{\"path\":\"/create\",\"responses\":[{\"drop\":true},"
					     "{\"status\":409,\"json\":{\"kind\":\"Status\",\"code\":409,"
					     "\"message\":\"jobsets \\\"sl-1\\\" already exists\"}}]},"
					     "{\"path\":\"/down\",\"repeat\":true,\"responses\":[{\"status\":503,\"body\":\"\"}]}]",
					 0, 0), 0);
	struct sl_kubeconfig kc = plain_kc(&r, server, sizeof(server));
	struct sl_k8s_http *h = client(&kc, &fast);
	sl_k8s_http_send(h, &safe, on_resp_count, &a);
	sl_k8s_http_send(h, &create, on_resp_count, &b);
	sl_k8s_http_send(h, &limited, on_resp_count, &c);
	run_until(3, 10000);
	/* A POST that may have reached the server is not blindly repeated... */
	assert_int_equal(a.rc, -SL_EIO);
	assert_int_equal(a.attempts, 1);
	assert_int_equal(a.maybe_sent, 1);
	assert_non_null(strstr(a.msg, "POST http://127.0.0.1:"));
	/* ...unless its name is deterministic: then a duplicate is a 409. */
	assert_int_equal(b.rc, 0);
	assert_int_equal(b.status, 409);
	assert_int_equal(b.attempts, 2);
	assert_int_equal(b.maybe_sent, 1);
	/* Past the retry deadline the last 503 is delivered (after one try or
	 * more: a loaded host may spend the whole window on the first). */
	assert_int_equal(c.rc, 0);
	assert_int_equal(c.status, 503);
	assert_true(c.attempts >= 1);
	sl_k8s_http_free(h);
	responder_stop(&r);
}

/* The API server is down when the request is made; it comes up later. */
static struct responder late;
static int late_port;

static void start_late(struct sl_loop *l, uint64_t id, void *arg)
{
	assert_int_equal(responder_start(&late, "[{\"path\":\"/apis/x\",\"responses\":"
					      "[{\"status\":201,\"body\":\"created\"}]}]", 0, late_port), 0);
}

static void test_outage_nothing_lost(void **state)
{
	char server[64];
	struct result res = {0};
	struct sl_k8s_req_spec s = {.method = "POST", .path = "/apis/x", .body = "{}", .body_len = 2,
				 .retry = SL_KRETRY_CREATE};
	struct sl_kubeconfig kc = {.origin = "test", .server = server, .ns = "default"};
	struct sl_k8s_http_opts o = fast;

	late_port = responder_free_port();
	snprintf(server, sizeof(server), "http://127.0.0.1:%d", late_port);
	o.retry_deadline_ms = 0; /* forever */
	struct sl_k8s_http *h = client(&kc, &o);
	sl_k8s_http_send(h, &s, on_resp_count, &res);
	sl_loop_add_timer(loop, 700, start_late, NULL);
	run_until(1, 15000);
	assert_int_equal(res.rc, 0);
	assert_int_equal(res.status, 201);
	assert_string_equal(res.body, "created");
	assert_true(res.attempts >= 3);
	assert_int_equal(res.maybe_sent, 0);
	assert_int_equal(log_len(&late), 1);
	sl_k8s_http_free(h);
	responder_stop(&late);
}

static void test_rate_limit(void **state)
{
	struct responder r;
	char server[64];
	struct result res[6];
	struct sl_k8s_req_spec s = {.method = "GET", .path = "/r"};
	struct sl_k8s_http_opts o = fast;
	struct sl_k8s_http_stats st;

	memset(res, 0, sizeof(res));
	assert_int_equal(responder_start(&r, "[{\"path\":\"/r\",\"repeat\":true,\"responses\":"
					     "[{\"status\":200,\"body\":\"\"}]}]", 0, 0), 0);
	struct sl_kubeconfig kc = plain_kc(&r, server, sizeof(server));
	o.qps = 10;
	o.burst = 2;
	struct sl_k8s_http *h = client(&kc, &o);
	for (int i = 0; i < 6; i++)
		sl_k8s_http_send(h, &s, on_resp_count, &res[i]);
	run_until(6, 10000);
	/* Burst 2 at once, then one per 100 ms: the 6th is sent >= 400 ms after
	 * the 1st. The responder logs arrivals, and on a loaded host the first
	 * may arrive late while the last does not: a looser bound, which six
	 * requests sent unthrottled (a few ms) still cannot meet. */
	assert_int_equal(log_len(&r), 6);
	assert_true(log_t(&r, 5) - log_t(&r, 0) >= 0.25);
	sl_k8s_http_stats(h, &st);
	assert_true(st.throttled >= 4);
	sl_k8s_http_free(h);
	responder_stop(&r);
}

static int lines_seen;
static char line_buf[2][256];

static int on_line(const char *line, size_t len, void *arg)
{
	if (lines_seen < 2)
		snprintf(line_buf[lines_seen], sizeof(line_buf[0]), "%s", line);
	assert_int_equal(strlen(line), len);
	lines_seen++;
	return 0;
}

static void test_stream_and_cap(void **state)
{
	struct responder r;
	char server[64];
	struct result a = {0}, b = {0};
	struct sl_k8s_req_spec s = {.method = "GET", .path = "/w", .on_line = on_line};
	struct sl_k8s_req_spec big = {.method = "GET", .path = "/big"};
	struct sl_k8s_http_opts o = fast;
	char script[2048];

	snprintf(script, sizeof(script), "[{\"path\":\"/w\",\"responses\":[{\"lines\":"
		 "[{\"type\":\"ADDED\",\"n\":1},\"\",{\"type\":\"DELETED\",\"n\":2}]}]},"
		 "{\"path\":\"/big\",\"responses\":[{\"body\":\"%0300d\"}]}]", 0);
	assert_int_equal(responder_start(&r, script, 0, 0), 0);
	struct sl_kubeconfig kc = plain_kc(&r, server, sizeof(server));
	o.max_body = 200;
	struct sl_k8s_http *h = client(&kc, &o);
	lines_seen = 0;
	sl_k8s_http_send(h, &s, on_resp_count, &a);
	sl_k8s_http_send(h, &big, on_resp_count, &b);
	run_until(2, 10000);
	assert_int_equal(a.rc, 0);
	assert_int_equal(a.status, 200);
	assert_int_equal(lines_seen, 2); /* the empty line is skipped */
	assert_string_equal(line_buf[0], "{\"type\": \"ADDED\", \"n\": 1}");
	assert_string_equal(line_buf[1], "{\"type\": \"DELETED\", \"n\": 2}");
	assert_int_equal(b.rc, -SL_ETOOBIG);
	assert_string_equal(b.msg, "GET /big: response larger than 200 bytes");
	sl_k8s_http_free(h);
	responder_stop(&r);
}

static void test_401_rereads_token_file(void **state)
{
	struct responder r;
	char server[64], tf[128];
	struct result res = {0};
	struct sl_k8s_req_spec s = {.method = "GET", .path = "/a"};
	FILE *f;

	assert_int_equal(responder_start(&r, "[{\"path\":\"/a\",\"responses\":[{\"status\":401,"
					     "\"json\":{\"kind\":\"Status\",\"code\":401,\"message\":\"Unauthorized\"}},"
					     "{\"status\":200,\"body\":\"in\"}]}]", 0, 0), 0);
	snprintf(tf, sizeof(tf), "%s/token", r.dir);
	f = fopen(tf, "w");
	fputs("t1\n", f);
	fclose(f);
	struct sl_kubeconfig kc = plain_kc(&r, server, sizeof(server));
	kc.token = NULL;
	kc.token_file = tf;
	struct sl_k8s_http *h = client(&kc, &fast);
	f = fopen(tf, "w"); /* rotated after startup, before the 60 s reload */
	fputs("t2", f);
	fclose(f);
	sl_k8s_http_send(h, &s, on_resp_count, &res);
	run_until(1, 10000);
	assert_int_equal(res.status, 200);
	assert_true(log_str_eq(&r, 0, "auth", "Bearer t1"));
	assert_true(log_str_eq(&r, 1, "auth", "Bearer t2"));
	sl_k8s_http_free(h);
	responder_stop(&r);
}

static void test_exec_credential_header(void **state)
{
	struct responder r;
	char server[64], cmd[1200];
	struct result res = {0};
	struct sl_k8s_req_spec s = {.method = "GET", .path = "/e"};
	char *args[] = {"fromexec", NULL}, *env[] = {"PLUGIN_VAR=pv", NULL};
	struct sl_k8s_exec ex = {.api_version = "client.authentication.k8s.io/v1", .command = cmd,
			      .args = args, .env = env, .interactive_mode = "Never"};

	assert_int_equal(responder_start(&r, "[{\"path\":\"/e\",\"responses\":[{\"body\":\"\"}]}]", 0, 0), 0);
	snprintf(cmd, sizeof(cmd), "%s", test_data("kubeconfig/exec-plugin.sh"));
	struct sl_kubeconfig kc = plain_kc(&r, server, sizeof(server));
	kc.token = NULL;
	kc.exec = &ex;
	struct sl_k8s_http *h = client(&kc, &fast);
	sl_k8s_http_send(h, &s, on_resp_count, &res);
	run_until(1, 10000);
	assert_true(log_str_eq(&r, 0, "auth", "Bearer fromexec-pv-info-bad"));
	sl_k8s_http_free(h);
	responder_stop(&r);
}

/* A throwaway plugin script: sleeps `secs`, then prints a token. */
static void slow_plugin(char *path, size_t n, const char *secs)
{
	int fd;
	FILE *f;

	snprintf(path, n, "/tmp/sl-slow-plugin-XXXXXX");
	assert_true((fd = mkstemp(path)) >= 0);
	assert_non_null(f = fdopen(fd, "w"));
	fprintf(f, "#!/bin/sh\nexec 2>/dev/null\nsleep %s\nprintf '%s'\n", secs,
		"{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\","
		"\"status\":{\"token\":\"slow\"}}");
	fclose(f);
	assert_int_equal(chmod(path, 0700), 0);
}

static int ticks;

static void on_tick(struct sl_loop *l, uint64_t id, void *arg)
{
	ticks++;
	sl_loop_add_timer(l, 50, on_tick, arg);
}

/* The plugin runs beside the loop: timers keep firing while it sleeps, and
 * the request waiting for the credential goes out with it. */
static void test_exec_slow_plugin_does_not_block(void **state)
{
	struct responder r;
	char server[64], cmd[64];
	struct result res = {0};
	struct sl_k8s_req_spec s = {.method = "GET", .path = "/e"};
	struct sl_k8s_exec ex = {.api_version = "client.authentication.k8s.io/v1", .command = cmd,
			      .interactive_mode = "Never"};
	int64_t t0;
	uint64_t tick;

	assert_int_equal(responder_start(&r, "[{\"path\":\"/e\",\"responses\":[{\"body\":\"\"}]}]", 0, 0), 0);
	slow_plugin(cmd, sizeof(cmd), "1");
	struct sl_kubeconfig kc = plain_kc(&r, server, sizeof(server));
	kc.token = NULL;
	kc.exec = &ex;
	t0 = sl_loop_now_ms(loop);
	struct sl_k8s_http *h = client(&kc, &fast);
	ticks = 0;
	tick = sl_loop_add_timer(loop, 50, on_tick, NULL);
	sl_k8s_http_send(h, &s, on_resp_count, &res);
	run_until(1, 10000);
	assert_int_equal(res.rc, 0);
	assert_int_equal(res.status, 200);
	assert_true(log_str_eq(&r, 0, "auth", "Bearer slow"));
	assert_true(sl_loop_now_ms(loop) - t0 >= 900);
	assert_true(ticks >= 10); /* ~20 in the second the plugin slept */
	sl_loop_del_timer(loop, tick);
	sl_k8s_http_free(h);
	unlink(cmd);
	responder_stop(&r);
}

/* A plugin past its timeout is killed; what waited fails with the reason. */
static void test_exec_plugin_timeout_fails_waiting(void **state)
{
	struct responder r;
	char server[64], cmd[64], want[160];
	struct result res[2] = {{0}};
	struct sl_k8s_req_spec s = {.method = "GET", .path = "/e"};
	struct sl_k8s_exec ex = {.api_version = "client.authentication.k8s.io/v1", .command = cmd,
			      .interactive_mode = "Never"};
	struct sl_k8s_http_opts o = fast;

	assert_int_equal(responder_start(&r, "[{\"path\":\"/e\",\"responses\":[{\"body\":\"\"}]}]", 0, 0), 0);
	slow_plugin(cmd, sizeof(cmd), "30");
	struct sl_kubeconfig kc = plain_kc(&r, server, sizeof(server));
	kc.token = NULL;
	kc.exec = &ex;
	o.exec_timeout_ms = 300;
	struct sl_k8s_http *h = client(&kc, &o);
	sl_k8s_http_send(h, &s, on_resp_count, &res[0]);
	sl_k8s_http_send(h, &s, on_resp_count, &res[1]);
	run_until(2, 5000);
	snprintf(want, sizeof(want), "exec plugin \"%s\": no answer within 300 ms", cmd);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(res[i].rc, -SL_ECONFIG);
		assert_string_equal(res[i].msg, want);
	}
	assert_int_equal(log_len(&r), 0);
	sl_k8s_http_free(h);
	unlink(cmd);
	responder_stop(&r);
}

static char *slurp(const char *rel, size_t *len)
{
	char *p = NULL;
	struct sl_err err = SL_ERR_INIT;

	assert_int_equal(sl_k8s_read_file(test_data(rel), 1 << 20, &p, len, &err), 0);
	return p;
}

static int count_cn(struct responder *r, const char *cn)
{
	json_object *log = responder_log(r), *v;
	int n = 0;

	for (size_t i = 0; i < json_object_array_length(log); i++) {
		json_object_object_get_ex(json_object_array_get_idx(log, i), "cn", &v);
		if (cn == NULL ? v == NULL : (v != NULL && strcmp(json_object_get_string(v), cn) == 0))
			n++;
	}
	json_object_put(log);
	return n;
}

static void test_tls(void **state)
{
	struct responder r;
	char server[64], ca[1100], cert[1100], key[1100];
	struct result a = {0}, b = {0}, c = {0}, d = {0}, e = {0};
	struct sl_k8s_req_spec s = {.method = "GET", .path = "/t", .retry = SL_KRETRY_NONE};
	size_t calen, certlen, keylen;

	assert_int_equal(responder_start(&r, "[{\"path\":\"/t\",\"repeat\":true,\"responses\":"
					     "[{\"body\":\"tls\"}]}]", RESP_TLS | RESP_CLIENT_CA, 0), 0);
	snprintf(server, sizeof(server), "https://127.0.0.1:%d", r.port);
	snprintf(ca, sizeof(ca), "%s", test_data("k8s/ca.crt"));
	snprintf(cert, sizeof(cert), "%s", test_data("k8s/client.crt"));
	snprintf(key, sizeof(key), "%s", test_data("k8s/client.key"));
	/* All five clients at once (one loop run): order-free assertions. */
	/* 1: CA file + client cert files. */
	struct sl_kubeconfig k1 = {.origin = "t", .server = server, .ca_file = ca,
				   .cert_file = cert, .key_file = key};
	/* 2: everything as data (CURLOPT_*_BLOB), plus tls-server-name. */
	struct sl_kubeconfig k2 = {.origin = "t", .server = server,
				   .tls_server_name = "kubernetes.internal"};
	k2.ca_data = slurp("k8s/ca.crt", &calen);
	k2.ca_len = calen;
	k2.cert_data = slurp("k8s/client.crt", &certlen);
	k2.cert_len = certlen;
	k2.key_data = slurp("k8s/client.key", &keylen);
	k2.key_len = keylen;
	/* 3: a name the certificate does not carry fails verification, at once. */
	struct sl_kubeconfig k3 = k2;
	k3.tls_server_name = "wrong.example";
	/* 4: no CA: the system store does not know the test CA. */
	struct sl_kubeconfig k4 = {.origin = "t", .server = server};
	/* 5: insecure-skip-tls-verify, no client cert. */
	struct sl_kubeconfig k5 = {.origin = "t", .server = server, .insecure = 1};
	struct sl_k8s_http *h1 = client(&k1, &fast), *h2 = client(&k2, &fast);
	struct sl_k8s_http *h3 = client(&k3, &fast), *h4 = client(&k4, &fast);
	struct sl_k8s_http *h5 = client(&k5, &fast);
	sl_k8s_http_send(h1, &s, on_resp_count, &a);
	sl_k8s_http_send(h2, &s, on_resp_count, &b);
	sl_k8s_http_send(h3, &s, on_resp_count, &c);
	s.retry = SL_KRETRY_IDEMPOTENT; /* fatal TLS errors are not retried anyway */
	sl_k8s_http_send(h4, &s, on_resp_count, &d);
	sl_k8s_http_send(h5, &s, on_resp_count, &e);
	run_until(5, 15000);
	assert_int_equal(a.status, 200);
	assert_int_equal(b.status, 200);
	assert_int_equal(c.rc, -SL_EIO);
	assert_int_equal(c.attempts, 1);
	assert_int_equal(d.rc, -SL_EIO);
	assert_int_equal(d.attempts, 1);
	assert_int_equal(e.status, 200);
	assert_int_equal(log_len(&r), 3);
	assert_int_equal(count_cn(&r, "sluice-test"), 2);
	assert_int_equal(count_cn(&r, NULL), 1);
	sl_k8s_http_free(h1);
	sl_k8s_http_free(h2);
	sl_k8s_http_free(h3);
	sl_k8s_http_free(h4);
	sl_k8s_http_free(h5);
	free(k2.ca_data);
	free(k2.cert_data);
	free(k2.key_data);
	responder_stop(&r);
}

/* ---- typed verbs ------------------------------------------------------ */

struct objres {
	int rc;
	char msg[SL_ERR_MSG_MAX];
	char name[64];
	int nitems;
};

static void next_verb(void);

static void on_obj(int rc, json_object *obj, const struct sl_err *err, void *arg)
{
	struct objres *o = arg;
	json_object *v;

	o->rc = rc;
	snprintf(o->msg, sizeof(o->msg), "%s", rc ? err->msg : "");
	if (obj != NULL && json_object_object_get_ex(obj, "metadata", &v) &&
	    json_object_object_get_ex(v, "name", &v))
		snprintf(o->name, sizeof(o->name), "%s", json_object_get_string(v));
	if (obj != NULL && json_object_object_get_ex(obj, "items", &v))
		o->nitems = (int)json_object_array_length(v);
	if (++pending == stop_after)
		sl_loop_stop(loop);
}

/* The verbs run one after another, each started from the previous one's
 * callback, so the responder sees them in a fixed order. */
static struct sl_k8s_http *verb_h;
static const char *verb_body;
static struct objres *verb_res[6];
static int verb_step;
static const char *const coll = "/apis/jobset.x-k8s.io/v1alpha2/namespaces/team-a/jobsets";

static void on_verb(int rc, json_object *obj, const struct sl_err *err, void *arg)
{
	on_obj(rc, obj, err, arg);
	next_verb();
}

static void next_verb(void)
{
	static const struct sl_k8s_delete_opts dopt = {.propagation = "Foreground", .grace_seconds = 30};
	static const struct sl_k8s_list_opts lopt = {.label_selector = "sluice.dev/job-id", .limit = 2,
						  .all_pages = 1};
	int i = verb_step++;

	if (i < 3)
		sl_k8s_create(verb_h, coll, verb_body, strlen(verb_body), on_verb, verb_res[i]);
	else if (i == 3)
		sl_k8s_get(verb_h, "/apis/jobset.x-k8s.io/v1alpha2/namespaces/team-a/jobsets/sl-9",
			   on_verb, verb_res[i]);
	else if (i == 4)
		sl_k8s_delete(verb_h, "/apis/jobset.x-k8s.io/v1alpha2/namespaces/team-a/jobsets/sl-1",
			      &dopt, on_verb, verb_res[i]);
	else if (i == 5)
		sl_k8s_list(verb_h, coll, &lopt, on_verb, verb_res[i]);
}

static void test_verbs(void **state)
{
	struct responder r;
	char server[64];
	struct objres cr = {0}, dup = {0}, inv = {0}, gone = {0}, del = {0}, list = {0};
	const char *body = "{\"apiVersion\":\"jobset.x-k8s.io/v1alpha2\","
			   "\"kind\":\"JobSet\",\"metadata\":{\"name\":\"sl-1\"}}";

	assert_int_equal(responder_start(&r,
		"[{\"method\":\"POST\",\"responses\":["
		"{\"status\":201,\"json\":{\"metadata\":{\"name\":\"sl-1\",\"uid\":\"u1\"}}},"
		"{\"status\":409,\"json\":{\"kind\":\"Status\",\"reason\":\"AlreadyExists\",\"code\":409,"
		"\"message\":\"jobsets.jobset.x-k8s.io \\\"sl-1\\\" already exists\"}},"
		"{\"status\":422,\"json\":{\"kind\":\"Status\",\"code\":422,\"reason\":\"Invalid\","
		"\"message\":\"JobSet.jobset.x-k8s.io \\\"sl-1\\\" is invalid: spec.x: Invalid value: 1\","
		"\"details\":{\"causes\":[{\"field\":\"spec.x\",\"message\":\"Invalid value: 1\"},"
		"{\"field\":\"spec.y\",\"message\":\"Required value\"}]}}}]},"
		"{\"method\":\"GET\",\"match\":\"continue=tok\",\"responses\":[{\"json\":{\"kind\":\"JobSetList\","
		"\"metadata\":{\"resourceVersion\":\"7\"},\"items\":[{\"metadata\":{\"name\":\"c\"}}]}}]},"
		"{\"method\":\"GET\",\"match\":\"labelSelector\",\"responses\":[{\"json\":{\"kind\":\"JobSetList\","
		"\"metadata\":{\"resourceVersion\":\"7\",\"continue\":\"tok\"},"
		"\"items\":[{\"metadata\":{\"name\":\"a\"}},{\"metadata\":{\"name\":\"b\"}}]}}]},"
		"{\"method\":\"GET\",\"responses\":[{\"status\":404,\"json\":{\"kind\":\"Status\",\"code\":404,"
		"\"message\":\"jobsets.jobset.x-k8s.io \\\"sl-9\\\" not found\"}}]},"
		"{\"method\":\"DELETE\",\"responses\":[{\"status\":200,\"json\":{\"metadata\":{\"name\":\"sl-1\"}}}]}]",
		0, 0), 0);
	struct sl_kubeconfig kc = plain_kc(&r, server, sizeof(server));
	struct sl_k8s_http *h = client(&kc, &fast);
	verb_h = h;
	verb_body = body;
	verb_res[0] = &cr;
	verb_res[1] = &dup;
	verb_res[2] = &inv;
	verb_res[3] = &gone;
	verb_res[4] = &del;
	verb_res[5] = &list;
	verb_step = 0;
	next_verb();
	run_until(6, 15000);

	assert_int_equal(cr.rc, 0);
	assert_string_equal(cr.name, "sl-1");
	assert_true(log_str_eq(&r, 0, "query", "fieldManager=sluice"));
	assert_true(log_str_eq(&r, 0, "ctype", "application/json"));
	assert_true(log_str_eq(&r, 0, "body", "{\"apiVersion\":\"jobset.x-k8s.io/v1alpha2\","
					      "\"kind\":\"JobSet\",\"metadata\":{\"name\":\"sl-1\"}}"));
	assert_int_equal(dup.rc, -SL_EEXIST);
	assert_string_equal(dup.msg, "jobsets.jobset.x-k8s.io \"sl-1\" already exists");
	assert_int_equal(inv.rc, -SL_EINVAL);
	assert_string_equal(inv.msg, "JobSet.jobset.x-k8s.io \"sl-1\" is invalid: spec.x: Invalid "
				     "value: 1; spec.y: Required value");
	assert_int_equal(gone.rc, -SL_ENOENT);
	assert_string_equal(gone.msg, "jobsets.jobset.x-k8s.io \"sl-9\" not found");
	assert_int_equal(del.rc, 0);
	assert_true(log_str_eq(&r, 4, "method", "DELETE"));
	assert_true(log_str_eq(&r, 4, "body", "{\"kind\":\"DeleteOptions\",\"apiVersion\":\"v1\","
					      "\"propagationPolicy\":\"Foreground\",\"gracePeriodSeconds\":30}"));
	assert_int_equal(list.rc, 0);
	assert_int_equal(list.nitems, 3);
	assert_true(log_str_eq(&r, 5, "query", "labelSelector=sluice.dev%2Fjob-id&limit=2"));
	assert_true(log_str_eq(&r, 6, "query", "labelSelector=sluice.dev%2Fjob-id&limit=2&continue=tok"));
	sl_k8s_http_free(h);
	responder_stop(&r);
}

static void test_status_mapping(void **state)
{
	struct sl_err err = SL_ERR_INIT;

	assert_int_equal(sl_k8s_status_error(201, "", 0, "POST", "/p", &err), 0);
	assert_int_equal(sl_k8s_status_error(503, "upstream down", 13, "POST", "/p", &err), -SL_EBUSY);
	assert_string_equal(err.msg, "POST /p: HTTP 503: upstream down");
	sl_err_clear(&err);
	assert_int_equal(sl_k8s_status_error(403, "{\"kind\":\"Status\",\"message\":\"forbidden: "
					      "exceeded quota\"}", 55, "POST", "/p", &err), -SL_EPERM);
	assert_string_equal(err.msg, "forbidden: exceeded quota");
	sl_err_clear(&err);
	assert_int_equal(sl_k8s_status_error(410, NULL, 0, "GET", "/w", &err), -SL_ESTATE);
	assert_string_equal(err.msg, "GET /w: HTTP 410");
	sl_err_clear(&err);
	assert_int_equal(sl_k8s_status_error(415, NULL, 0, "PATCH", "/w", &err), -SL_EINTERNAL);
	{
		char *e = sl_k8s_escape("a=b,c/d e!");
		assert_string_equal(e, "a%3Db%2Cc%2Fd%20e%21");
		free(e);
	}
}

/* sl_loop_stop() is final for a loop, so every test gets a fresh one and
 * runs it once. */
static int setup(void **state)
{
	loop = sl_loop_new();
	return loop == NULL;
}

static int teardown(void **state)
{
	sl_loop_free(loop);
	loop = NULL;
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_get_and_headers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_retry_5xx_and_429, setup, teardown),
		cmocka_unit_test_setup_teardown(test_post_retry_rules, setup, teardown),
		cmocka_unit_test_setup_teardown(test_outage_nothing_lost, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rate_limit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stream_and_cap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_401_rereads_token_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_exec_credential_header, setup, teardown),
		cmocka_unit_test_setup_teardown(test_exec_slow_plugin_does_not_block, setup, teardown),
		cmocka_unit_test_setup_teardown(test_exec_plugin_timeout_fails_waiting, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tls, setup, teardown),
		cmocka_unit_test_setup_teardown(test_verbs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_status_mapping, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
