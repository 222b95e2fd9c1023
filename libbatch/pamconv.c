/* pamconv.c - the PAM conversation shared by sluiced (account checks)
 * and sluice-stepd (the job's session); see pamconv.h. */
#include "pamconv.h"

#include "xalloc.h"

int sl_pamconv(int n, const struct pam_message **msg, struct pam_response **resp,
	       void *appdata)
{
	const struct sl_pamconv *c = appdata;

	if (n <= 0 || n > PAM_MAX_NUM_MSG)
		return PAM_CONV_ERR;
	for (int i = 0; i < n; i++)
		if (msg[i]->msg_style != PAM_ERROR_MSG && msg[i]->msg_style != PAM_TEXT_INFO)
			return PAM_CONV_ERR;
	for (int i = 0; i < n; i++)
		c->say(c->arg, msg[i]->msg);
	*resp = sl_xcalloc((size_t)n, sizeof(**resp)); /* PAM frees it */
	return PAM_SUCCESS;
}
