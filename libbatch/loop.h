/* loop.h - sluiced's one event loop: fds, timers, signals (as flags turned
 * into callbacks), and a before-sleep hook where the scheduling cycle runs.
 * Single-threaded; no callback may block. */
#ifndef SL_LOOP_H
#define SL_LOOP_H

#include <stdint.h>

struct sl_loop;

#define SL_EV_READ 1
#define SL_EV_WRITE 2

typedef void (*sl_fd_cb)(struct sl_loop *l, int fd, int events, void *arg);
typedef void (*sl_timer_cb)(struct sl_loop *l, uint64_t id, void *arg);
typedef void (*sl_signal_cb)(struct sl_loop *l, int signo, void *arg);
typedef void (*sl_hook_cb)(struct sl_loop *l, void *arg);

struct sl_loop *sl_loop_new(void);
void sl_loop_free(struct sl_loop *l);

/* Watch fd for events (SL_EV_*); replaces an existing watch on fd.
 * Returns 0 or -SL_E*. */
int sl_loop_add_fd(struct sl_loop *l, int fd, int events, sl_fd_cb cb, void *arg);
int sl_loop_mod_fd(struct sl_loop *l, int fd, int events);
void sl_loop_del_fd(struct sl_loop *l, int fd);

/* One-shot timer after `ms` milliseconds; returns a nonzero id. */
uint64_t sl_loop_add_timer(struct sl_loop *l, int64_t ms, sl_timer_cb cb, void *arg);
void sl_loop_del_timer(struct sl_loop *l, uint64_t id);

/* Deliver signo through the loop (self-pipe): cb runs in loop context. */
int sl_loop_add_signal(struct sl_loop *l, int signo, sl_signal_cb cb, void *arg);

/* Called once per turn, after all ready events, before sleeping. */
void sl_loop_set_before_sleep(struct sl_loop *l, sl_hook_cb cb, void *arg);

/* Monotonic milliseconds, and wall-clock seconds (cached per turn). */
int64_t sl_loop_now_ms(struct sl_loop *l);
int64_t sl_loop_wall(struct sl_loop *l);

/* Run until sl_loop_stop(). */
int sl_loop_run(struct sl_loop *l);
void sl_loop_stop(struct sl_loop *l);

#endif
