/* fuzz_kubeconfig.c - a kubeconfig file (k8s/kubeconfig.c) as sluiced's
 * kubernetes executor loads it, the ExecCredential a plugin prints, and
 * base64 data fields. Files it names are read (capped) like the real ones. */
#include "fuzz.h"

#include "k8s/kubeconfig.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const versions[] = {"client.authentication.k8s.io/v1",
					       "client.authentication.k8s.io/v1beta1"};
	struct sl_kubeconfig_opts o = {.path = NULL};
	struct sl_kubeconfig *kc = NULL;
	struct sl_err err = SL_ERR_INIT;
	char *s, *dec = NULL;
	size_t len;

	if (size > FZ_MAX_INPUT)
		return 0;
	o.path = fz_file(data, size);
	o.sa_dir = "/nonexistent";
	if (sl_kubeconfig_load(&o, &kc, &err) == 0)
		sl_kubeconfig_free(kc);
	s = fz_str(data, size);
	for (size_t i = 0; i < 2; i++) {
		struct sl_k8s_exec_cred *c = NULL;
		struct sl_err e2 = SL_ERR_INIT;
		if (sl_k8s_exec_parse(s, versions[i], &c, &e2) == 0)
			sl_k8s_exec_cred_free(c);
	}
	if (sl_base64_decode(s, &dec, &len) == 0)
		free(dec);
	free(s);
	return 0;
}
