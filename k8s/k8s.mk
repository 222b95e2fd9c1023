# k8s/k8s.mk: owned by its area
