/* k8s_responder.c - see k8s_responder.h. */
#include "k8s_responder.h"

#include <json-c/json.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

const char *test_data(const char *rel)
{
	static char buf[1024];
	const char *top = getenv("top_srcdir");

	snprintf(buf, sizeof(buf), "%s/tests/data/%s", top && *top ? top : ".", rel);
	return buf;
}

int responder_free_port(void)
{
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0), port = -1;

	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) == 0 &&
	    getsockname(fd, (struct sockaddr *)&a, &len) == 0)
		port = ntohs(a.sin_port);
	close(fd);
	return port;
}

int responder_start(struct responder *r, const char *script, int flags, int port)
{
	char spath[128], portarg[16], line[64];
	int out[2];
	FILE *f;
	ssize_t n;
	size_t got = 0;

	memset(r, 0, sizeof(*r));
	snprintf(r->dir, sizeof(r->dir), "/tmp/k8sresp.XXXXXX");
	if (mkdtemp(r->dir) == NULL)
		return -1;
	snprintf(spath, sizeof(spath), "%s/script.json", r->dir);
	snprintf(r->log, sizeof(r->log), "%s/log.jsonl", r->dir);
	snprintf(r->data, sizeof(r->data), "%s", test_data("k8s"));
	if ((f = fopen(spath, "w")) == NULL)
		return -1;
	fputs(script, f);
	fclose(f);
	fclose(fopen(r->log, "w"));
	snprintf(portarg, sizeof(portarg), "%d", port);
	if (pipe(out) != 0)
		return -1;
	r->pid = fork();
	if (r->pid == 0) {
		char prog[1100];
		snprintf(prog, sizeof(prog), "%s/responder.py", r->data);
		/* Die with the test even when a failed assertion skipped the stop. */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		dup2(out[1], 1);
		close(out[0]);
		execlp("python3", "python3", prog, spath, r->log, "--port", portarg,
		       (flags & RESP_TLS) ? "--tls" : "--plain", r->data,
		       (flags & RESP_CLIENT_CA) ? "--client-ca" : "--no-client-ca", (char *)NULL);
		_exit(127);
	}
	close(out[1]);
	while (got < sizeof(line) - 1 && (n = read(out[0], line + got, 1)) == 1 && line[got] != '\n')
		got++;
	line[got] = '\0';
	close(out[0]);
	if (sscanf(line, "PORT %d", &r->port) != 1) {
		responder_stop(r);
		return -1;
	}
	return 0;
}

void responder_stop(struct responder *r)
{
	char cmd[128];

	if (r->pid > 0) {
		kill(r->pid, SIGTERM);
		waitpid(r->pid, NULL, 0);
		r->pid = 0;
	}
	if (r->dir[0] != '\0') {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", r->dir);
		if (system(cmd) != 0) {
			/* leftover temp dir: harmless */
		}
		r->dir[0] = '\0';
	}
}

json_object *responder_log(const struct responder *r)
{
	json_object *arr = json_object_new_array();
	char *line = NULL;
	size_t cap = 0;
	FILE *f = fopen(r->log, "r");

	while (f != NULL && getline(&line, &cap, f) > 0) {
		json_object *o = json_tokener_parse(line);
		if (o != NULL)
			json_object_array_add(arr, o);
	}
	free(line);
	if (f != NULL)
		fclose(f);
	return arr;
}
