#!/bin/sh
# kubeconfig.sh CERTDIR PORT OUTDIR TOKEN [NAMESPACE]
# Writes kubeconfig variants for the fake API server at https://127.0.0.1:PORT:
#   token.kubeconfig        user.token
#   tokenfile.kubeconfig    user.tokenFile (OUTDIR/token)
#   cert-files.kubeconfig   client-certificate / client-key (absolute paths)
#   cert-relative.kubeconfig  same, relative to OUTDIR (copies of the files)
#   cert-data.kubeconfig    *-data, base64 inline (CA too)
#   exec.kubeconfig         exec plugin OUTDIR/exec-plugin.sh (client.authentication.k8s.io/v1);
#                           each run appends a line to OUTDIR/exec-plugin.calls
#   insecure.kubeconfig     insecure-skip-tls-verify: true + token
#   badtoken.kubeconfig     a token the server rejects (401)
#   incluster/{token,ca.crt,namespace} and incluster.env (KUBERNETES_SERVICE_HOST/PORT)
# The server must accept TOKEN (fake_k8s.py --token TOKEN or --tokens FILE).
set -eu
certs=${1:?usage: kubeconfig.sh CERTDIR PORT OUTDIR TOKEN [NAMESPACE]}
port=${2:?port}
out=${3:?outdir}
token=${4:?token}
ns=${5:-default}
mkdir -p "$out/incluster"
certs=$(cd "$certs" && pwd)
out=$(cd "$out" && pwd)
server="https://127.0.0.1:$port"
b64() { base64 < "$1" | tr -d '\n'; }

# header USER: the common part; the caller appends the user's fields.
header() {
	cat <<YAML
apiVersion: v1
kind: Config
current-context: fake
preferences: {}
clusters:
- name: fake
  cluster:
    server: $server
$cluster
contexts:
- name: fake
  context:
    cluster: fake
    user: $1
    namespace: $ns
users:
- name: $1
  user:
YAML
}

cluster="    certificate-authority: $certs/ca.crt"
{ header token; echo "    token: $token"; } > "$out/token.kubeconfig"
printf '%s\n' "$token" > "$out/token"
{ header tokenfile; echo "    tokenFile: $out/token"; } > "$out/tokenfile.kubeconfig"
{ header certfiles; echo "    client-certificate: $certs/client.crt"
  echo "    client-key: $certs/client.key"; } > "$out/cert-files.kubeconfig"
{ header badtoken; echo "    token: not-$token"; } > "$out/badtoken.kubeconfig"

cp "$certs/ca.crt" "$certs/client.crt" "$certs/client.key" "$out/"
cluster="    certificate-authority: ca.crt"
{ header certrel; echo "    client-certificate: client.crt"
  echo "    client-key: client.key"; } > "$out/cert-relative.kubeconfig"

cluster="    certificate-authority-data: $(b64 "$certs/ca.crt")"
{ header certdata; echo "    client-certificate-data: $(b64 "$certs/client.crt")"
  echo "    client-key-data: $(b64 "$certs/client.key")"; } > "$out/cert-data.kubeconfig"

cat > "$out/exec-plugin.sh" <<PLUGIN
#!/bin/sh
# A credential plugin: prints an ExecCredential with a bearer token.
echo "\${KUBERNETES_EXEC_INFO:-none}" >> "$out/exec-plugin.calls"
cat <<JSON
{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"$token"}}
JSON
PLUGIN
chmod +x "$out/exec-plugin.sh"
cluster="    certificate-authority: $certs/ca.crt"
{ header exec; cat <<YAML
    exec:
      apiVersion: client.authentication.k8s.io/v1
      command: $out/exec-plugin.sh
      args: []
      env:
      - name: FAKE_K8S_PLUGIN
        value: "1"
      interactiveMode: Never
      provideClusterInfo: false
      installHint: "exec-plugin.sh is made by tests/fake-k8s/kubeconfig.sh"
YAML
} > "$out/exec.kubeconfig"

cluster="    insecure-skip-tls-verify: true"
{ header insecure; echo "    token: $token"; } > "$out/insecure.kubeconfig"

printf '%s' "$token" > "$out/incluster/token"
cp "$certs/ca.crt" "$out/incluster/ca.crt"
printf '%s' "$ns" > "$out/incluster/namespace"
printf 'KUBERNETES_SERVICE_HOST=127.0.0.1\nKUBERNETES_SERVICE_PORT=%s\n' "$port" > "$out/incluster.env"
