/* pam.h - the PAM account check at submit (`pam: {service: NAME}`), as
 * Slurm's UsePAM. Every PAM call of sluiced is in pam.c, as OpenSSH keeps
 * PAM behind auth-pam.c; the job's session is sluice-stepd's (stepd_pam.c). */
#ifndef SL_SLUICED_PAM_H
#define SL_SLUICED_PAM_H

#include "err.h"

struct sl_conf;

/* May `user` submit now? pam_start(the config's service, user) +
 * pam_acct_mgmt + pam_end; 0 at once when the config has no `pam:`. rhost
 * is this host's name (PAM_RHOST, which pam_access matches). 0, or
 * -SL_EPERM with PAM's own words in err (what its modules said, else
 * pam_strerror), or -SL_EINTERNAL when PAM could not start. Blocks the
 * caller as long as the account stack takes: pam.c says why that is
 * accepted. */
int sl_pam_account(const struct sl_conf *conf, const char *user, const char *rhost,
		   struct sl_err *err);

#endif
