# k8s/render.mk: rendering (owned by its area)
