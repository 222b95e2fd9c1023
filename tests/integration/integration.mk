# Integration tests: the real sluiced on a private socket, the real commands.
INTEGRATION_TESTS = \
	tests/integration/basic.sh \
	tests/integration/cancel.sh \
	tests/integration/timeout.sh \
	tests/integration/kill9.sh \
	tests/integration/restart.sh \
	tests/integration/config.sh \
	tests/integration/badinput.sh \
	tests/integration/preempt.sh \
	tests/integration/nonroot.sh \
	tests/integration/constraint.sh \
	tests/integration/noderange.sh
TESTS += $(INTEGRATION_TESTS)
EXTRA_DIST += tests/integration/lib.sh $(INTEGRATION_TESTS)
