# tests/fake-k8s/fake-k8s.mk: owned by its area
