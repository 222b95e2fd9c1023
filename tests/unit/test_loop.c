/* test_loop.c - event loop: fd readiness, timer order, signals, hook. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <signal.h>
#include <unistd.h>

#include "loop.h"

static int order[8], norder, hooks, got_sig;

static void on_timer(struct sl_loop *l, uint64_t id, void *arg)
{
	order[norder++] = (int)(intptr_t)arg;
	if ((intptr_t)arg == 3)
		sl_loop_stop(l);
}

static void on_read(struct sl_loop *l, int fd, int ev, void *arg)
{
	char c;
	assert_true(ev & SL_EV_READ);
	assert_int_equal(read(fd, &c, 1), 1);
	order[norder++] = c;
	sl_loop_del_fd(l, fd);
}

static void on_hook(struct sl_loop *l, void *arg)
{
	hooks++;
}

static void on_sig(struct sl_loop *l, int signo, void *arg)
{
	got_sig = signo;
}

static void test_loop(void **state)
{
	struct sl_loop *l = sl_loop_new();
	int p[2];
	uint64_t dead;

	assert_int_equal(pipe(p), 0);
	assert_int_equal(write(p[1], "x", 1), 1);
	sl_loop_add_fd(l, p[0], SL_EV_READ, on_read, NULL);
	sl_loop_add_timer(l, 60, on_timer, (void *)(intptr_t)3);
	sl_loop_add_timer(l, 20, on_timer, (void *)(intptr_t)2);
	dead = sl_loop_add_timer(l, 10, on_timer, (void *)(intptr_t)9);
	sl_loop_del_timer(l, dead);
	sl_loop_set_before_sleep(l, on_hook, NULL);
	sl_loop_add_signal(l, SIGUSR1, on_sig, NULL);
	raise(SIGUSR1);
	assert_int_equal(sl_loop_run(l), 0);
	assert_int_equal(norder, 3);
	assert_int_equal(order[0], 'x');
	assert_int_equal(order[1], 2);
	assert_int_equal(order[2], 3);
	assert_int_equal(got_sig, SIGUSR1);
	assert_true(hooks >= 2);
	assert_true(sl_loop_now_ms(l) > 0);
	close(p[0]);
	close(p[1]);
	sl_loop_free(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_loop)};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
