/* srun_pty.c - srun --pty (srun_pty.h). */
#include "srun_pty.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

_Static_assert(sizeof(struct termios) <= sizeof(((struct srun_pty *)0)->saved),
	       "room for a struct termios");

int srun_pty_open(struct srun_pty *p)
{
	const char *name;
	p->master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	p->slave = -1;
	if (p->master < 0 || grantpt(p->master) != 0 || unlockpt(p->master) != 0 ||
	    (name = ptsname(p->master)) == NULL ||
	    (p->slave = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC)) < 0) {
		srun_pty_close(p);
		return -1;
	}
	srun_pty_winch(p);
	return 0;
}

void srun_pty_child(int slave)
{
	(void)setsid();
	(void)ioctl(slave, TIOCSCTTY, 0);
}

void srun_pty_raw(struct srun_pty *p)
{
	struct termios t;
	if (!isatty(0) || tcgetattr(0, &t) != 0)
		return;
	memcpy(p->saved, &t, sizeof(t));
	cfmakeraw(&t);
	if (tcsetattr(0, TCSADRAIN, &t) == 0)
		p->raw = 1;
}

void srun_pty_restore(struct srun_pty *p)
{
	struct termios t;
	if (!p->raw)
		return;
	memcpy(&t, p->saved, sizeof(t));
	(void)tcsetattr(0, TCSADRAIN, &t);
	p->raw = 0;
}

void srun_pty_winch(const struct srun_pty *p)
{
	struct winsize ws;
	if (p->master >= 0 && (ioctl(0, TIOCGWINSZ, &ws) == 0 || ioctl(1, TIOCGWINSZ, &ws) == 0))
		(void)ioctl(p->master, TIOCSWINSZ, &ws);
}

void srun_pty_close(struct srun_pty *p)
{
	if (p->master >= 0)
		close(p->master);
	if (p->slave >= 0)
		close(p->slave);
	p->master = p->slave = -1;
}
