# compat/output.mk: owned by its area; see Makefile.am
