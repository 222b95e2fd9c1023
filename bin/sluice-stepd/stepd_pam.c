/* stepd_pam.c - the job's PAM session, as slurmstepd opens one with UsePAM:
 * every PAM call of sluice-stepd is in this file.
 *
 * The session is opened in the supervisor, after its groups are the user's
 * and before the script is forked, because what the modules do to the
 * calling process is what the job must get: pam_limits' setrlimit() and
 * nice value and pam_group's groups are inherited through the fork;
 * pam_env's variables (pam_getenvlist) go into the job's environment,
 * under the spec's own (stepd_launch.c). Once the job is forked the
 * supervisor takes its own limits back: it must outlive anything the job
 * is held to (a CPU time limit would end it before a long job; a file size
 * limit would kill it with SIGXFSZ as it appends Slurm's CANCELLED line to
 * a large output file, which is why it also ignores SIGXFSZ: stepd.c).
 *
 * The session is closed once, by stepd.c, after the script and whatever it
 * left in its process group are gone, whatever ended it (exit, scancel,
 * time limit, preemption) and before the result is written: the daemon
 * sees the job end only with its session closed. A supervisor killed with
 * SIGKILL closes nothing, as slurmstepd. */
#include "stepd.h"

#include <errno.h>
#include <security/pam_appl.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "log.h"
#include "pamconv.h"
#include "xalloc.h"

/* What modules say goes to the log (sl_pamconv: a stack that asks a
 * question fails). */
static void say(void *arg, const char *msg)
{
	const struct stepd *s = arg;
	sl_info("job %llu: PAM: %s", (unsigned long long)s->l.job_id, msg ? msg : "");
}

static void save_limits(struct stepd_pam *p)
{
	for (int i = 0; i < RLIM_NLIMITS; i++)
		if (getrlimit(i, &p->rl[i]) != 0)
			p->rl[i].rlim_cur = p->rl[i].rlim_max = RLIM_INFINITY;
	errno = 0;
	p->prio = getpriority(PRIO_PROCESS, 0);
	if (errno != 0)
		p->prio = 0;
	p->saved = 1;
}

void stepd_pam_restore(struct stepd *s)
{
	struct stepd_pam *p = &s->pam;
	struct rlimit now;
	if (!p->saved)
		return;
	/* Raising a hard limit back takes CAP_SYS_RESOURCE, which root may
	 * lack (a container): then each soft limit goes back as far as the
	 * session's hard one allows. */
	for (int i = 0; i < RLIM_NLIMITS; i++)
		if (setrlimit(i, &p->rl[i]) != 0 && getrlimit(i, &now) == 0) {
			if (p->rl[i].rlim_cur < now.rlim_max)
				now.rlim_cur = p->rl[i].rlim_cur;
			else
				now.rlim_cur = now.rlim_max;
			(void)setrlimit(i, &now);
		}
	(void)setpriority(PRIO_PROCESS, 0, p->prio);
	p->saved = 0;
}

static void pam_failed(const struct stepd *s, pam_handle_t *h, const char *what, int pr)
{
	sl_err_log("job %llu: PAM service %s, user %s: %s: %s", (unsigned long long)s->l.job_id,
		   s->l.pam_service, s->l.user, what, pam_strerror(h, pr));
}

int stepd_pam_open(struct stepd *s)
{
	const struct sl_launch *l = &s->l;
	struct sl_pamconv said = {say, s};
	struct pam_conv pc = {sl_pamconv, &said};
	pam_handle_t *h = NULL;
	const char *what = "pam_start";
	int pr, cred = 0, r = -1;

	if (l->pam_service == NULL)
		return 0;
	save_limits(&s->pam);
	if ((pr = pam_start(l->pam_service, l->user, &pc, &h)) != PAM_SUCCESS)
		goto out;
	/* As slurmstepd: the user asks from this node (pam_access). */
	what = "pam_set_item";
	if ((pr = pam_set_item(h, PAM_RUSER, l->user)) != PAM_SUCCESS ||
	    (pr = pam_set_item(h, PAM_RHOST, l->host)) != PAM_SUCCESS)
		goto out;
	what = "pam_setcred";
	if ((pr = pam_setcred(h, PAM_ESTABLISH_CRED)) != PAM_SUCCESS)
		goto out;
	cred = 1;
	what = "pam_open_session";
	if ((pr = pam_open_session(h, 0)) != PAM_SUCCESS)
		goto out;
	s->pam.env = pam_getenvlist(h);
	s->pam.h = h;
	h = NULL;
	sl_info("job %llu: PAM session opened (service %s)", (unsigned long long)l->job_id,
		l->pam_service);
	r = 0;
out:
	if (r != 0) {
		pam_failed(s, h, what, pr);
		if (cred)
			(void)pam_setcred(h, PAM_DELETE_CRED);
		if (h != NULL)
			pam_end(h, pr);
		stepd_pam_restore(s); /* what a half-opened session set goes too */
	}
	return r;
}

void stepd_pam_close(struct stepd *s)
{
	struct stepd_pam *p = &s->pam;
	int pr;
	stepd_pam_restore(s); /* the launch failed before the fork */
	if (p->h == NULL)
		return;
	if ((pr = pam_close_session(p->h, 0)) != PAM_SUCCESS)
		pam_failed(s, p->h, "pam_close_session", pr);
	if ((pr = pam_setcred(p->h, PAM_DELETE_CRED)) != PAM_SUCCESS)
		pam_failed(s, p->h, "pam_setcred(PAM_DELETE_CRED)", pr);
	pam_end(p->h, pr);
	p->h = NULL;
	sl_strv_free(p->env);
	p->env = NULL;
	sl_info("job %llu: PAM session closed", (unsigned long long)s->l.job_id);
}
