/* loop.c - the daemon's single event loop over poll(2). Small on purpose
 * (cf. Redis ae.c): fds, one-shot timers, signals through a self-pipe, and a
 * before-sleep hook. Timer and fd counts are small (the per-job work lives in
 * stepd), so linear scans beat a heap in clarity at no real cost. */
#include "loop.h"
#include "clock.h"
#include "err.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct fdwatch {
	int fd, events;
	sl_fd_cb cb;
	void *arg;
};

struct timer {
	uint64_t id;
	int64_t due_ms;
	sl_timer_cb cb;
	void *arg;
};

struct sigwatch {
	int signo;
	sl_signal_cb cb;
	void *arg;
};

struct sl_loop {
	struct fdwatch *fds;
	size_t nfds, capfds;
	struct timer *timers;
	size_t ntimers, captimers;
	uint64_t next_timer_id;
	struct sigwatch sigs[16];
	size_t nsigs;
	sl_hook_cb before_sleep;
	void *before_sleep_arg;
	int64_t now_ms, wall;
	int stop;
	struct pollfd *pfds;
	size_t cappfds;
};

static int sigpipe_fds[2] = {-1, -1};

static void on_signal(int signo)
{
	unsigned char b = (unsigned char)signo;
	int saved = errno;
	if (write(sigpipe_fds[1], &b, 1) < 0) {
		/* pipe full: signals of that kind are already pending */
	}
	errno = saved;
}

static void update_clock(struct sl_loop *l)
{
	l->now_ms = sl_mono_ms();
	l->wall = (int64_t)time(NULL);
}

static void drain_signals(struct sl_loop *l, int fd, int events, void *arg)
{
	unsigned char buf[64];
	ssize_t n;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		for (ssize_t i = 0; i < n; i++)
			for (size_t k = 0; k < l->nsigs; k++)
				if (l->sigs[k].signo == buf[i])
					l->sigs[k].cb(l, buf[i], l->sigs[k].arg);
}

struct sl_loop *sl_loop_new(void)
{
	struct sl_loop *l = sl_xcalloc(1, sizeof(*l));
	if (sigpipe_fds[0] < 0) {
		if (pipe2(sigpipe_fds, O_CLOEXEC | O_NONBLOCK) != 0) {
			free(l);
			return NULL;
		}
	}
	l->next_timer_id = 1;
	update_clock(l);
	sl_loop_add_fd(l, sigpipe_fds[0], SL_EV_READ, drain_signals, NULL);
	return l;
}

void sl_loop_free(struct sl_loop *l)
{
	if (l == NULL)
		return;
	free(l->fds);
	free(l->timers);
	free(l->pfds);
	free(l);
}

static struct fdwatch *find_fd(struct sl_loop *l, int fd)
{
	for (size_t i = 0; i < l->nfds; i++)
		if (l->fds[i].fd == fd)
			return &l->fds[i];
	return NULL;
}

int sl_loop_add_fd(struct sl_loop *l, int fd, int events, sl_fd_cb cb, void *arg)
{
	struct fdwatch *w = find_fd(l, fd);
	if (w == NULL) {
		l->fds = sl_xgrow(l->fds, &l->capfds, l->nfds + 1, sizeof(*l->fds));
		w = &l->fds[l->nfds++];
	}
	w->fd = fd;
	w->events = events;
	w->cb = cb;
	w->arg = arg;
	return 0;
}

int sl_loop_mod_fd(struct sl_loop *l, int fd, int events)
{
	struct fdwatch *w = find_fd(l, fd);
	if (w == NULL)
		return -SL_ENOENT;
	w->events = events;
	return 0;
}

void sl_loop_del_fd(struct sl_loop *l, int fd)
{
	struct fdwatch *w = find_fd(l, fd);
	if (w != NULL) {
		/* Mark dead instead of moving: the dispatch pass may be iterating. */
		w->fd = -1;
		w->cb = NULL;
	}
}

uint64_t sl_loop_add_timer(struct sl_loop *l, int64_t ms, sl_timer_cb cb, void *arg)
{
	struct timer *t;
	l->timers = sl_xgrow(l->timers, &l->captimers, l->ntimers + 1, sizeof(*l->timers));
	t = &l->timers[l->ntimers++];
	t->id = l->next_timer_id++;
	t->due_ms = sl_mono_ms() + (ms < 0 ? 0 : ms);
	t->cb = cb;
	t->arg = arg;
	return t->id;
}

void sl_loop_del_timer(struct sl_loop *l, uint64_t id)
{
	for (size_t i = 0; i < l->ntimers; i++)
		if (l->timers[i].id == id) {
			l->timers[i] = l->timers[--l->ntimers];
			return;
		}
}

int sl_loop_add_signal(struct sl_loop *l, int signo, sl_signal_cb cb, void *arg)
{
	struct sigaction sa;
	if (l->nsigs >= sizeof(l->sigs) / sizeof(l->sigs[0]))
		return -SL_EINTERNAL;
	l->sigs[l->nsigs++] = (struct sigwatch){signo, cb, arg};
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	return sigaction(signo, &sa, NULL) == 0 ? 0 : -SL_EINTERNAL;
}

void sl_loop_set_before_sleep(struct sl_loop *l, sl_hook_cb cb, void *arg)
{
	l->before_sleep = cb;
	l->before_sleep_arg = arg;
}

int64_t sl_loop_now_ms(struct sl_loop *l)
{
	return l->now_ms;
}

int64_t sl_loop_wall(struct sl_loop *l)
{
	return l->wall;
}

void sl_loop_stop(struct sl_loop *l)
{
	l->stop = 1;
}

static int next_timeout(struct sl_loop *l)
{
	int64_t best = -1;
	for (size_t i = 0; i < l->ntimers; i++) {
		int64_t d = l->timers[i].due_ms - l->now_ms;
		if (d < 0)
			d = 0;
		if (best < 0 || d < best)
			best = d;
	}
	return best > 60000 || best < 0 ? 60000 : (int)best;
}

static void run_timers(struct sl_loop *l)
{
	/* A callback may add or delete timers: restart the scan after each. */
	for (;;) {
		size_t i;
		for (i = 0; i < l->ntimers; i++)
			if (l->timers[i].due_ms <= l->now_ms)
				break;
		if (i == l->ntimers)
			return;
		struct timer t = l->timers[i];
		l->timers[i] = l->timers[--l->ntimers];
		t.cb(l, t.id, t.arg);
	}
}

static void compact_fds(struct sl_loop *l)
{
	size_t k = 0;
	for (size_t i = 0; i < l->nfds; i++)
		if (l->fds[i].fd >= 0)
			l->fds[k++] = l->fds[i];
	l->nfds = k;
}

int sl_loop_run(struct sl_loop *l)
{
	l->stop = 0; /* a stopped loop may be run again */
	while (!l->stop) {
		size_t n;
		int rc;

		if (l->before_sleep != NULL)
			l->before_sleep(l, l->before_sleep_arg);
		if (l->stop)
			break;
		compact_fds(l);
		n = l->nfds;
		l->pfds = sl_xgrow(l->pfds, &l->cappfds, n + 1, sizeof(*l->pfds));
		for (size_t i = 0; i < n; i++) {
			l->pfds[i].fd = l->fds[i].fd;
			l->pfds[i].events = (short)(((l->fds[i].events & SL_EV_READ) ? POLLIN : 0) |
						    ((l->fds[i].events & SL_EV_WRITE) ? POLLOUT : 0));
			l->pfds[i].revents = 0;
		}
		rc = poll(l->pfds, n, next_timeout(l));
		update_clock(l);
		if (rc < 0 && errno != EINTR)
			return -SL_EIO;
		for (size_t i = 0; rc > 0 && i < n; i++) {
			short re = l->pfds[i].revents;
			int ev = 0;
			if (re == 0)
				continue;
			if (re & (POLLIN | POLLHUP | POLLERR | POLLNVAL))
				ev |= SL_EV_READ;
			if (re & POLLOUT)
				ev |= SL_EV_WRITE;
			/* Look up again: an earlier callback may have removed it. */
			struct fdwatch *w = find_fd(l, l->pfds[i].fd);
			if (w != NULL && w->cb != NULL)
				w->cb(l, w->fd, ev, w->arg);
		}
		run_timers(l);
	}
	return 0;
}
