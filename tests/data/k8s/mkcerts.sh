#!/bin/sh
# mkcerts.sh - regenerate the static test PKI used by the k8s unit tests
# (valid for 100 years, so the committed files never expire in CI).
set -e
cd "$(dirname "$0")"
d=36500
openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.crt -days $d -subj "/CN=sluice-test-ca" 2>/dev/null
cat > ext.cnf <<X
subjectAltName=DNS:localhost,DNS:kubernetes.internal,IP:127.0.0.1
X
openssl req -newkey rsa:2048 -nodes -keyout server.key -out server.csr -subj "/CN=localhost" 2>/dev/null
openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out server.crt -days $d -extfile ext.cnf 2>/dev/null
openssl req -newkey rsa:2048 -nodes -keyout client.key -out client.csr -subj "/O=system:masters/CN=sluice-test" 2>/dev/null
openssl x509 -req -in client.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out client.crt -days $d 2>/dev/null
rm -f ext.cnf server.csr client.csr ca.srl
