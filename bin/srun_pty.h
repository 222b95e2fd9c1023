/* srun_pty.h - srun --pty: task 0 on a pseudo-terminal, as over ssh. srun
 * puts its own terminal in raw mode (Ctrl-C and the rest reach the task's
 * terminal, whose line discipline signals the task), passes its window
 * size on (and again at each SIGWINCH), and puts its terminal back. */
#ifndef SRUN_PTY_H
#define SRUN_PTY_H

struct srun_pty {
	int master;               /* -1: none */
	int slave;                /* opened in srun, made the task's terminal */
	int raw;                  /* srun's terminal is in raw mode */
	char saved[128];          /* its struct termios, to put back */
};

/* A new pty with srun's window size: 0, or -1 with errno. */
int srun_pty_open(struct srun_pty *p);
/* In the task's child: its own session, the pty its controlling terminal. */
void srun_pty_child(int slave);
/* srun's terminal into raw mode (when stdin is one), and back. */
void srun_pty_raw(struct srun_pty *p);
void srun_pty_restore(struct srun_pty *p);
/* SIGWINCH: srun's window size to the pty. */
void srun_pty_winch(const struct srun_pty *p);
void srun_pty_close(struct srun_pty *p);

#endif
