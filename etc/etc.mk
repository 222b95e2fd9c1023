# Configuration, PAM service and systemd unit.
# etc/sluice.yaml is the repository-local config of quickstart.sh (paths
# relative to etc/). The installed copy is the same file with the system's
# socket and state paths, so the two cannot drift.
sluiceconfdir = $(sysconfdir)/sluice
sluiceconf_DATA = etc/installed/sluice.yaml
CLEANFILES += etc/installed/sluice.yaml
etc/installed/sluice.yaml: $(srcdir)/etc/sluice.yaml Makefile
	$(AM_V_GEN)$(MKDIR_P) etc/installed && sed \
		-e 's|^socket: .*|socket: $(runstatedir)/sluice/sluiced.sock|' \
		-e 's|^stateDir: .*|stateDir: $(localstatedir)/lib/sluice|' \
		$(srcdir)/etc/sluice.yaml > $@
pamdir = $(sysconfdir)/pam.d
dist_pam_DATA = etc/pam.d/sluice
systemdunitdir = $(prefix)/lib/systemd/system
systemdunit_DATA = etc/sluiced.service
EXTRA_DIST += etc/sluiced.service.in
CLEANFILES += etc/sluiced.service
# [@]: config.status would replace a plain @sbindir@ in this very rule
# with the value, and the sed would then leave the unit's placeholders be.
etc/sluiced.service: $(srcdir)/etc/sluiced.service.in Makefile
	$(AM_V_GEN)$(MKDIR_P) etc && sed -e 's|@sbindir[@]|$(sbindir)|g' \
		-e 's|@sysconfdir[@]|$(sysconfdir)|g' -e 's|@docdir[@]|$(docdir)|g' \
		$(srcdir)/etc/sluiced.service.in > $@

# Debian packages (sluice, sluice-client) in deb/: a private build for
# Debian's paths, split by etc/deb/mkdeb.sh.
EXTRA_DIST += etc/deb/mkdeb.sh
.PHONY: deb
deb:
	$(SHELL) $(srcdir)/etc/deb/mkdeb.sh $(srcdir) $(abs_builddir)/deb
