# tests/fake-k8s/fake-k8s.mk: the fake Kubernetes API server (Python 3 stdlib)
# used by the Kubernetes executor's integration tests, and its self-test.
FAKE_K8S_FILES = \
	tests/fake-k8s/README.md \
	tests/fake-k8s/fake_k8s.py \
	tests/fake-k8s/fk_api.py \
	tests/fake-k8s/fk_client.py \
	tests/fake-k8s/fk_control.py \
	tests/fake-k8s/fk_controller.py \
	tests/fake-k8s/fk_exec.py tests/fake-k8s/fk_podrun.py \
	tests/fake-k8s/fk_http.py \
	tests/fake-k8s/fk_jobs.py \
	tests/fake-k8s/fk_jobset.py \
	tests/fake-k8s/fk_mpijob.py \
	tests/fake-k8s/fk_nodes.py \
	tests/fake-k8s/fk_pods.py \
	tests/fake-k8s/fk_rules.py \
	tests/fake-k8s/fk_schema.py \
	tests/fake-k8s/fk_state.py \
	tests/fake-k8s/fk_store.py \
	tests/fake-k8s/fk_util.py \
	tests/fake-k8s/fk_watch.py \
	tests/fake-k8s/fk_yaml.py \
	tests/fake-k8s/kubeconfig.sh \
	tests/fake-k8s/mkcerts.sh \
	tests/fake-k8s/selftest.py

TESTS += tests/fake-k8s/selftest.sh
EXTRA_DIST += $(FAKE_K8S_FILES) tests/fake-k8s/selftest.sh \
	tests/data/crds/README.md \
	tests/data/crds/jobset.x-k8s.io_jobsets.yaml \
	tests/data/crds/kubeflow.org_mpijobs.yaml
