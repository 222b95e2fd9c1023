#!/bin/sh
# mkcerts.sh DIR: a test CA, a server certificate for 127.0.0.1/localhost and
# a client certificate (CN=sluice, O=system:masters), all signed by the CA.
# Files: ca.crt ca.key server.crt server.key client.crt client.key, plus
# rogue.crt/rogue.key (a client certificate signed by another CA).
set -eu
dir=${1:?usage: mkcerts.sh DIR}
mkdir -p "$dir"
cd "$dir"
umask 077

ssl() { out=$(openssl "$@" 2>&1) || { printf "%s\n" "$out" >&2; return 1; }; }

ssl req -x509 -newkey rsa:2048 -nodes -days 3650 -sha256 \
	-keyout ca.key -out ca.crt -subj "/CN=fake-k8s-ca"

cat > server.ext <<EXT
basicConstraints=CA:FALSE
keyUsage=digitalSignature,keyEncipherment
extendedKeyUsage=serverAuth
subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:kubernetes.default.svc
EXT
cat > client.ext <<EXT
basicConstraints=CA:FALSE
keyUsage=digitalSignature,keyEncipherment
extendedKeyUsage=clientAuth
EXT

ssl req -newkey rsa:2048 -nodes -keyout server.key -out server.csr -subj "/CN=fake-k8s"
ssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 3650 -sha256 \
	-extfile server.ext -out server.crt

ssl req -newkey rsa:2048 -nodes -keyout client.key -out client.csr -subj "/O=system:masters/CN=sluice"
ssl x509 -req -in client.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 3650 -sha256 \
	-extfile client.ext -out client.crt

# A client certificate from an unrelated CA, to test rejection.
ssl req -x509 -newkey rsa:2048 -nodes -days 3650 -sha256 \
	-keyout rogue.key -out rogue.crt -subj "/O=system:masters/CN=rogue"

rm -f server.csr client.csr server.ext client.ext ca.srl
chmod 600 ./*.key
chmod 644 ./*.crt
