/* pamconv.h - the PAM conversation of Sluice's daemons, where nobody is
 * there to answer: what modules say is handed to the caller, and a stack
 * that asks a question fails. */
#ifndef SL_PAMCONV_H
#define SL_PAMCONV_H

#include <security/pam_appl.h>

/* The appdata_ptr of a struct pam_conv whose function is sl_pamconv. */
struct sl_pamconv {
	/* Called once per message, in order; msg may be NULL. */
	void (*say)(void *arg, const char *msg);
	void *arg;
};

/* A pam_conv function: PAM_CONV_ERR unless every message is
 * PAM_ERROR_MSG or PAM_TEXT_INFO; otherwise each goes to say() and the
 * empty responses are allocated (PAM frees them). appdata is a
 * struct sl_pamconv *, borrowed. */
int sl_pamconv(int n, const struct pam_message **msg, struct pam_response **resp,
	       void *appdata);

#endif
