/* pam.c - sluiced's PAM: the account stack of each submission (pam.h).
 *
 * The check runs in the handler, on the event loop, so every other client
 * waits while the account stack works. Measured with tests/bench/submit.sh
 * (2 vCPUs, Debian 12, sluiced as root, Debian's stacks: pam_unix on local
 * files): one sbatch call goes from 0.85 to 1.5 ms (median), 1000 in a row
 * from 0.88 to 1.5-1.6 s. Nearly all of it is pam_start() reading the
 * service's files and dlopen()ing every module of every one of its stacks,
 * and pam_end() unloading them. That is accepted: a refusal must be decided
 * at each submission (pam_time windows, an expired account, a nologin file
 * count from the next one on, so nothing is cached), and it is still four
 * times Slurm's sbatch here (6.3 s for 1000). It stops being acceptable
 * with a stack that asks the network (pam_sss, pam_ldap, pam_krb5): its
 * server's timeout would stall every client. What would make it not block:
 * run the check in a helper process, as sshd runs PAM in a child, fed user
 * names over a socket the loop watches, the submission's reply waiting for
 * its answer as it already waits for the commit. What would make it cheap:
 * one idle handle kept open pins the modules, and pam_start() then costs a
 * tenth (430 -> 43 us measured), at the price of a restart to load upgraded
 * modules. */
#include "pam.h"

#include <security/pam_appl.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "log.h"
#include "pamconv.h"

/* What the modules said to the user, newline-separated, capped. */
struct said {
	char text[SL_ERR_MSG_MAX / 2];
	size_t len;
};

/* Keep what modules tell the user (pam_nologin's file, pam_time's refusal):
 * it is the reason sbatch prints; sl_pamconv fails a stack that asks a
 * question, as nobody is there to answer. Each message trimmed of trailing
 * white space; control characters but
 * newlines become spaces, so that a module's words cannot drive the user's
 * terminal. */
static void said_add(void *arg, const char *m)
{
	struct said *s = arg;
	size_t n = m != NULL ? strlen(m) : 0;
	while (n > 0 && strchr(" \t\r\n", m[n - 1]) != NULL)
		n--;
	if (n == 0)
		return;
	if (s->len > 0 && s->len < sizeof(s->text) - 1)
		s->text[s->len++] = '\n';
	for (size_t i = 0; i < n && s->len < sizeof(s->text) - 1; i++) {
		unsigned char c = (unsigned char)m[i];
		s->text[s->len++] = (char)(c == '\n' || (c >= ' ' && c != 0x7f) ? c : ' ');
	}
	s->text[s->len] = '\0';
}

int sl_pam_account(const struct sl_conf *conf, const char *user, const char *rhost,
		   struct sl_err *err)
{
	const char *service = sl_conf_pam_service(conf);
	struct said said = {{0}, 0};
	struct sl_pamconv conv = {said_add, &said};
	struct pam_conv pc = {sl_pamconv, &conv};
	pam_handle_t *h = NULL;
	int r = -SL_EINTERNAL, pr;

	if (service == NULL)
		return 0;
	if ((pr = pam_start(service, user, &pc, &h)) != PAM_SUCCESS) {
		r = sl_err_set(err, SL_EINTERNAL, "PAM service %s: pam_start: %s", service,
			       pam_strerror(h, pr));
		goto out;
	}
	if ((pr = pam_set_item(h, PAM_RUSER, user)) != PAM_SUCCESS ||
	    (rhost != NULL && (pr = pam_set_item(h, PAM_RHOST, rhost)) != PAM_SUCCESS)) {
		r = sl_err_set(err, SL_EINTERNAL, "PAM service %s: pam_set_item: %s", service,
			       pam_strerror(h, pr));
		goto out;
	}
	if ((pr = pam_acct_mgmt(h, 0)) != PAM_SUCCESS) {
		sl_info("submission by %s refused by PAM service %s: %s", user, service,
			pam_strerror(h, pr));
		r = sl_err_set(err, SL_EPERM, "%s", said.len > 0 ? said.text : pam_strerror(h, pr));
		goto out;
	}
	r = 0;
out:
	if (h != NULL)
		pam_end(h, pr);
	return r;
}
