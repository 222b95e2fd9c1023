#!/bin/sh
# exec-plugin.sh - a test exec credential plugin: prints an ExecCredential
# whose token records what it was given (args, env, KUBERNETES_EXEC_INFO).
case "$KUBERNETES_EXEC_INFO" in
*'"interactive":false'*'"server":"https://127.0.0.1:6443"'*) info=info-ok ;;
*) info=info-bad ;;
esac
case "$1" in
fail) echo "boom: no credentials" >&2; exit 3 ;;
garbage) echo "not json"; exit 0 ;;
hang) sleep 30 ;;
esac
printf '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential",'
printf '"status":{"token":"%s-%s-%s","expirationTimestamp":"2099-01-02T03:04:05Z"}}\n' \
	"$1" "$PLUGIN_VAR" "$info"
