/* test_watch.c - watch line parsing, and the list -> watch -> resume ->
 * 410 relist cycle against a scripted responder. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "loop.h"
#include "k8s/http.h"
#include "k8s/watch.h"
#include "k8s_responder.h"

static void test_parse_line(void **state)
{
	enum sl_k8s_watch_type t;
	json_object *obj;
	int code;
	struct sl_err err = SL_ERR_INIT;
	const char *l1 = "{\"type\":\"MODIFIED\",\"object\":{\"metadata\":{\"resourceVersion\":\"5\"}}}";
	const char *l2 = "{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"code\":410,"
			 "\"reason\":\"Expired\",\"message\":\"too old resource version: 1 (9)\"}}";

	assert_int_equal(sl_k8s_watch_parse_line(l1, strlen(l1), &t, &obj, &code, &err), 0);
	assert_int_equal(t, SL_KW_MODIFIED);
	assert_int_equal(code, 0);
	assert_string_equal(json_object_to_json_string_ext(obj, JSON_C_TO_STRING_PLAIN),
			    "{\"metadata\":{\"resourceVersion\":\"5\"}}");
	json_object_put(obj);
	assert_int_equal(sl_k8s_watch_parse_line(l2, strlen(l2), &t, &obj, &code, &err), 0);
	assert_int_equal(t, SL_KW_ERROR);
	assert_int_equal(code, 410);
	json_object_put(obj);

	assert_int_equal(sl_k8s_watch_parse_line("{\"type\":\"BOGUS\",\"object\":{}}", 29, &t, &obj,
					      &code, &err), -SL_EPROTO);
	assert_string_equal(err.msg, "watch: unknown event type \"BOGUS\"");
	assert_null(obj);
	sl_err_clear(&err);
	assert_int_equal(sl_k8s_watch_parse_line("{\"type\":\"ADDED\"}", 16, &t, &obj, &code, &err),
			 -SL_EPROTO);
	assert_string_equal(err.msg, "watch: ADDED event without an object");
	sl_err_clear(&err);
	/* A line is one object: trailing garbage is refused. */
	assert_int_equal(sl_k8s_watch_parse_line("{\"type\":\"ADDED\",\"object\":{}} x", 30, &t, &obj,
					      &code, &err), -SL_EPROTO);
	sl_err_clear(&err);
	assert_int_equal(sl_k8s_watch_parse_line("{\"type\":", 8, &t, &obj, &code, &err), -SL_EPROTO);
	assert_string_equal(err.msg, "watch: undecodable event: {\"type\":");
}

static struct sl_loop *loop;
static char trace[2048];
static int relists;

static const char *name_of(json_object *o)
{
	json_object *m, *n;

	if (json_object_object_get_ex(o, "metadata", &m) && json_object_object_get_ex(m, "name", &n))
		return json_object_get_string(n);
	return "?";
}

static void on_relisted(json_object *items, const char *rv, void *arg)
{
	size_t o = strlen(trace);

	o += (size_t)snprintf(trace + o, sizeof(trace) - o, "LIST@%s[", rv);
	for (size_t i = 0; i < json_object_array_length(items); i++)
		o += (size_t)snprintf(trace + o, sizeof(trace) - o, "%s%s", i ? "," : "",
				      name_of(json_object_array_get_idx(items, i)));
	snprintf(trace + o, sizeof(trace) - o, "] ");
	relists++;
}

static void on_event(enum sl_k8s_watch_type t, json_object *obj, void *arg)
{
	static const char *names[] = {"ADDED", "MODIFIED", "DELETED", "BOOKMARK", "ERROR"};
	size_t o = strlen(trace);

	snprintf(trace + o, sizeof(trace) - o, "%s:%s ", names[t], name_of(obj));
	/* Stop at the first event after the third LIST, not at the LIST: the
	 * watch resumes from it in the same loop pass (the kick and curl timers
	 * still run after sl_loop_stop()), so watch@30 was always sent, and
	 * whether the responder had logged it before the log was read was a
	 * race (6 requests, or 7 under ASan). Its event proves it was logged. */
	if (relists == 3)
		sl_loop_stop(loop);
}

static void on_guard(struct sl_loop *l, uint64_t id, void *arg)
{
	snprintf(trace + strlen(trace), sizeof(trace) - strlen(trace), "TIMEOUT");
	sl_loop_stop(l);
}

#define OBJ(n, rv) "{\"metadata\":{\"name\":\"" n "\",\"resourceVersion\":\"" rv "\"}}"
#define EV(t, n, rv) "{\"type\":\"" t "\",\"object\":" OBJ(n, rv) "}"

static const char script[] =
	"[{\"match\":\"watch=1&resourceVersion=10&\",\"responses\":[{\"lines\":["
	EV("ADDED", "b", "11") ","
	"{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"Pod\",\"metadata\":{\"resourceVersion\":\"12\"}}},"
	"{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"code\":410,\"reason\":\"Expired\"}},"
	EV("ADDED", "never", "13") "]}]},"
	"{\"match\":\"watch=1&resourceVersion=20&\",\"responses\":[{\"lines\":["
	EV("MODIFIED", "c", "21") "," EV("DELETED", "a", "22") "]}]},"
	"{\"match\":\"watch=1&resourceVersion=22&\",\"responses\":[{\"status\":410,"
	"\"json\":{\"kind\":\"Status\",\"code\":410}}]},"
	"{\"match\":\"watch=1&resourceVersion=30&\",\"responses\":[{\"lines\":["
	EV("ADDED", "d", "31") "],\"hold\":30}]},"
	"{\"match\":\"limit=500\",\"responses\":["
	"{\"json\":{\"metadata\":{\"resourceVersion\":\"10\"},\"items\":[" OBJ("a", "9") "]}},"
	"{\"json\":{\"metadata\":{\"resourceVersion\":\"20\"},\"items\":[" OBJ("a", "9") ","
	OBJ("b", "11") "," OBJ("c", "19") "]}},"
	"{\"json\":{\"metadata\":{\"resourceVersion\":\"30\"},\"items\":[" OBJ("b", "11") ","
	OBJ("c", "21") "]}}]}]";

/* Start the responder on script and a watch through the client, run the
 * loop until a callback stops it (15 s at most). */
static struct sl_k8s_watch *run_watch(struct responder *r, const char *text, char *server,
				      const struct sl_kubeconfig *kc,
				      const struct sl_k8s_http_opts *ho,
				      const struct sl_k8s_watch_opts *wo,
				      const struct sl_k8s_watch_ops *ops, struct sl_k8s_http **h)
{
	struct sl_err err = SL_ERR_INIT;
	struct sl_k8s_watch *w;

	assert_int_equal(responder_start(r, text, 0, 0), 0);
	snprintf(server, 64, "http://127.0.0.1:%d", r->port);
	loop = sl_loop_new();
	assert_int_equal(sl_k8s_http_new(loop, kc, ho, h, &err), 0);
	w = sl_k8s_watch_new(*h, wo, ops, NULL);
	sl_loop_add_timer(loop, 15000, on_guard, NULL);
	sl_loop_run(loop);
	return w;
}

static void test_list_watch_gone(void **state)
{
	struct responder r;
	char server[64];
	struct sl_kubeconfig kc = {.origin = "t", .server = server, .ns = "default"};
	struct sl_k8s_http_opts ho = {.qps = -1, .backoff_base_ms = 20, .backoff_cap_ms = 100};
	struct sl_k8s_watch_opts wo = {.path = "/apis/jobset.x-k8s.io/v1alpha2/jobsets",
				    .label_selector = "sluice.dev/job-id", .timeout_s = 30,
				    .backoff_base_ms = 20, .backoff_cap_ms = 100};
	struct sl_k8s_watch_ops ops = {.relisted = on_relisted, .event = on_event};
	struct sl_k8s_http *h = NULL;
	struct sl_k8s_watch *w;
	struct sl_k8s_watch_stats st;
	json_object *log, *q;

	w = run_watch(&r, script, server, &kc, &ho, &wo, &ops, &h);
	assert_string_equal(trace, "LIST@10[a] ADDED:b LIST@20[a,b,c] MODIFIED:c DELETED:a "
				   "LIST@30[b,c] ADDED:d ");
	assert_string_equal(sl_k8s_watch_rv(w), "31");
	sl_k8s_watch_stats(w, &st);
	assert_int_equal(st.lists, 3);
	assert_int_equal(st.gone, 2);
	assert_int_equal(st.events, 4);
	assert_int_equal(st.bookmarks, 1);

	/* The exact requests: list, watch@10, list, watch@20, watch@22 (resume
	 * after a clean end), list, watch@30 (still open). */
	log = responder_log(&r);
	assert_int_equal(json_object_array_length(log), 7);
	json_object_object_get_ex(json_object_array_get_idx(log, 0), "query", &q);
	assert_string_equal(json_object_get_string(q), "labelSelector=sluice.dev%2Fjob-id&limit=500");
	json_object_object_get_ex(json_object_array_get_idx(log, 1), "query", &q);
	assert_string_equal(json_object_get_string(q),
			    "watch=1&resourceVersion=10&allowWatchBookmarks=true&timeoutSeconds=30"
			    "&labelSelector=sluice.dev%2Fjob-id");
	json_object_object_get_ex(json_object_array_get_idx(log, 4), "query", &q);
	assert_non_null(strstr(json_object_get_string(q), "resourceVersion=22&"));
	json_object_object_get_ex(json_object_array_get_idx(log, 6), "query", &q);
	assert_non_null(strstr(json_object_get_string(q), "resourceVersion=30&"));
	json_object_put(log);

	/* Freed while its last stream is open: no callback afterwards. */
	sl_k8s_watch_free(w);
	sl_k8s_http_free(h);
	sl_loop_free(loop);
	responder_stop(&r);
}

/* A server that ends every watch on an ERROR event (not 410) or answers
 * 429 with Retry-After: the watch backs off instead of asking again at
 * once, waits at least what Retry-After says, and then goes on. */
static const char err_script[] =
	"[{\"match\":\"watch=1&resourceVersion=10&\",\"responses\":["
	"{\"lines\":[{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"code\":500,"
	"\"message\":\"internal error\"}}]},"
	"{\"lines\":[{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"code\":500,"
	"\"message\":\"internal error\"}}]},"
	"{\"status\":429,\"headers\":{\"Retry-After\":\"1\"},\"json\":{\"kind\":\"Status\","
	"\"code\":429,\"message\":\"too many requests\"}},"
	"{\"lines\":[" EV("ADDED", "x", "11") "],\"hold\":30}]},"
	"{\"match\":\"limit=500\",\"responses\":["
	"{\"json\":{\"metadata\":{\"resourceVersion\":\"10\"},\"items\":[]}}]}]";

static int problems;

static void on_problem(const struct sl_err *err, void *arg)
{
	problems++;
}

static void on_event_stop(enum sl_k8s_watch_type t, json_object *obj, void *arg)
{
	on_event(t, obj, arg);
	sl_loop_stop(loop);
}

static double req_time(json_object *log, size_t i)
{
	json_object *t;
	json_object_object_get_ex(json_object_array_get_idx(log, i), "t", &t);
	return json_object_get_double(t);
}

static void test_watch_errors_back_off(void **state)
{
	struct responder r;
	char server[64];
	struct sl_kubeconfig kc = {.origin = "t", .server = server, .ns = "default"};
	struct sl_k8s_http_opts ho = {.qps = -1};
	struct sl_k8s_watch_opts wo = {.path = "/api/v1/nodes", .timeout_s = 30,
				    .backoff_base_ms = 200, .backoff_cap_ms = 400};
	struct sl_k8s_watch_ops ops = {.relisted = on_relisted, .event = on_event_stop,
				       .problem = on_problem};
	struct sl_k8s_http *h = NULL;
	struct sl_k8s_watch *w;
	json_object *log;

	trace[0] = '\0';
	relists = problems = 0;
	w = run_watch(&r, err_script, server, &kc, &ho, &wo, &ops, &h);
	assert_string_equal(trace, "LIST@10[] ADDED:x ");
	assert_int_equal(problems, 3);
	log = responder_log(&r);
	/* list, watch (ERROR), watch (ERROR), watch (429), watch */
	assert_int_equal(json_object_array_length(log), 5);
	assert_true(req_time(log, 2) - req_time(log, 1) >= 0.1);  /* backoff >= base / 2 */
	assert_true(req_time(log, 3) - req_time(log, 2) >= 0.1);
	assert_true(req_time(log, 4) - req_time(log, 3) >= 0.95); /* Retry-After: 1 */
	json_object_put(log);
	sl_k8s_watch_free(w);
	sl_k8s_http_free(h);
	sl_loop_free(loop);
	responder_stop(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_line),
		cmocka_unit_test(test_list_watch_gone),
		cmocka_unit_test(test_watch_errors_back_off),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
