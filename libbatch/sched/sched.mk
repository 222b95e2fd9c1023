# libbatch/sched/sched.mk: the Kueue object model, the admission engine
# (pure logic) and the scenario runner (`sluice simulate`).
libbatch_libbatch_a_SOURCES += \
	libbatch/kueue.c libbatch/kueue.h \
	libbatch/kueue_parse.c libbatch/kueue_parse.h \
	libbatch/kueue_check.c libbatch/kueue_topo.c \
	libbatch/sched/sched.h libbatch/sched/sched_int.h \
	libbatch/sched/model.c libbatch/sched/cell.c libbatch/sched/quota.c libbatch/sched/wlq.c \
	libbatch/sched/flavor.c libbatch/sched/preempt.c libbatch/sched/fairshare.c \
	libbatch/sched/afs.c libbatch/sched/cycle.c libbatch/sched/info.c \
	libbatch/sched/api.c libbatch/sched/msg.c libbatch/sched/equiv.c \
	libbatch/sched/namemap.c libbatch/sched/partial.c libbatch/sched/reason.c \
	libbatch/sched/estimate.c libbatch/sched/estimate_trial.c libbatch/sched/backfill.c \
	libbatch/sched/tas.c libbatch/sched/tas_admit.c libbatch/sched/tas_place.c libbatch/sched/tas_req.c libbatch/sched/tas_text.c libbatch/sched/tas_int.h \
	libbatch/sim.c libbatch/sim.h libbatch/sim_int.h libbatch/sim_report.c libbatch/sim_clock.c \
	libbatch/sim_tas.c \
	libbatch/replay.c libbatch/replay.h libbatch/replay_int.h libbatch/replay_trace.c \
	libbatch/replay_result.c libbatch/replay_report.c libbatch/replay_html.c

# every scenario file must be listed here (make distcheck)
EXTRA_DIST += tests/scenarios/README.md tests/scenarios/run.sh \
	tests/scenarios/admission-exceeds-max-quota.yaml \
	tests/scenarios/admission-fits-single-cq.yaml \
	tests/scenarios/afs-localqueue-ordering.yaml \
	tests/scenarios/bad-quantity.yaml \
	tests/scenarios/bad-unknown-kind.yaml \
	tests/scenarios/bad-mincount.yaml \
	tests/scenarios/bad-timelimit.yaml \
	tests/scenarios/bad-tas-duplicate-level.yaml \
	tests/scenarios/bad-tas-node-quantity.yaml \
	tests/scenarios/bad-tas-topology-exclusive.yaml \
	tests/scenarios/partial-borrowing-cohort.yaml \
	tests/scenarios/partial-cannot-fit-min-count.yaml \
	tests/scenarios/partial-preempt-full-first.yaml \
	tests/scenarios/partial-preempt-reduced.yaml \
	tests/scenarios/partial-reduced-to-fit.yaml \
	tests/scenarios/partial-reduced-to-min-count.yaml \
	tests/scenarios/partial-two-podsets-scaled.yaml \
	tests/scenarios/borrow-only-one-fits.yaml \
	tests/scenarios/bwc-preempt-lower-while-borrowing.yaml \
	tests/scenarios/fifo-besteffort-skips-blocked-head.yaml \
	tests/scenarios/fifo-strict-head-of-line-blocking.yaml \
	tests/scenarios/flavor-group-one-flavor-for-all-resources.yaml \
	tests/scenarios/flavor-multiple-resource-groups.yaml \
	tests/scenarios/flavor-node-selector-skips-flavor.yaml \
	tests/scenarios/flavor-podsets-assumed-usage.yaml \
	tests/scenarios/flavor-skip-tainted-flavor.yaml \
	tests/scenarios/flavor-taint-flavor-own-toleration.yaml \
	tests/scenarios/flavor-taint-tolerated-by-podset.yaml \
	tests/scenarios/flavor-taint-untolerated-never-fits.yaml \
	tests/scenarios/flavor-used-resources-no-candidates.yaml \
	tests/scenarios/fs-earliest-timestamp-first.yaml \
	tests/scenarios/fs-hier-tournament-winner.yaml \
	tests/scenarios/fs-highest-priority-first.yaml \
	tests/scenarios/fs-lowest-drf-after-admission.yaml \
	tests/scenarios/fs-lowest-share-borrowing.yaml \
	tests/scenarios/fs-lowest-share-first.yaml \
	tests/scenarios/fs-multiple-preemptions-within-cq.yaml \
	tests/scenarios/fs-preempt-highest-share.yaml \
	tests/scenarios/fs-singleton-cqs-and-no-cohort.yaml \
	tests/scenarios/fs-within-cq-borrowing-reclaim-never.yaml \
	tests/scenarios/fungibility-preemption-over-borrowing.yaml \
	tests/scenarios/hier-borrow-up-to-lending-limit.yaml \
	tests/scenarios/hier-borrowing-less-first.yaml \
	tests/scenarios/lending-limit-exceeded.yaml \
	tests/scenarios/many-workloads-fifo.yaml \
	tests/scenarios/podsets-multiple-resources-flavors.yaml \
	tests/scenarios/preempt-cq-lowest-priority.yaml \
	tests/scenarios/preempt-cq-minimal-set-fillback.yaml \
	tests/scenarios/reclaim-from-borrower-lowerpriority.yaml \
	tests/scenarios/sched-admit-different-cohorts.yaml \
	tests/scenarios/sched-admit-same-cohort-no-borrowing.yaml \
	tests/scenarios/sched-admit-single-cq-full.yaml \
	tests/scenarios/sched-borrow-fallback-next-flavor.yaml \
	tests/scenarios/sched-borrow-no-overadmission.yaml \
	tests/scenarios/sched-borrow-overadmission-next-flavor.yaml \
	tests/scenarios/sched-borrow-reclaim-other-flavor.yaml \
	tests/scenarios/sched-borrow-resource-not-in-cq.yaml \
	tests/scenarios/sched-borrow-same-cycle-fits.yaml \
	tests/scenarios/sched-bwc-reserve-limited-by-borrowing-limit.yaml \
	tests/scenarios/sched-fungibility-no-candidates-next-flavor.yaml \
	tests/scenarios/sched-fungibility-skip-flavor-without-candidates.yaml \
	tests/scenarios/sched-namespace-selector-mismatch.yaml \
	tests/scenarios/sched-preempt-after-earlier-fit.yaml \
	tests/scenarios/sched-preempt-cq-and-cohort.yaml \
	tests/scenarios/sched-preempt-multiple-cqs.yaml \
	tests/scenarios/sched-preempt-multiple-without-borrowing.yaml \
	tests/scenarios/sched-preempt-skip-shared-limited-resource.yaml \
	tests/scenarios/sched-reclaim-any-does-not-block-borrower.yaml \
	tests/scenarios/sched-reclaim-lowerpriority-blocks-borrower.yaml \
	tests/scenarios/sched-reclaim-never-blocks-borrower.yaml \
	tests/scenarios/sched-reclaim-prefer-first-flavor-cq-preemption.yaml \
	tests/scenarios/sched-reclaim-prefer-first-flavor-mixed.yaml \
	tests/scenarios/sched-reclaim-prefer-over-cq-preemption.yaml \
	tests/scenarios/sched-reclaim-prioritized-over-full-cq.yaml \
	tests/scenarios/stop-policy-hold-and-drain.yaml \
	tests/scenarios/taint-untolerated-flavor.yaml \
	tests/scenarios/v1beta2-cohortname-borrowing.yaml \
	tests/scenarios/wpc-higher-class-preempts.yaml \
	tests/scenarios/bwc-no-same-cq-when-never.yaml \
	tests/scenarios/bwc-same-cq-above-threshold.yaml \
	tests/scenarios/bwc-same-cq-and-below-threshold.yaml \
	tests/scenarios/bwc-threshold-blocks-while-borrowing.yaml \
	tests/scenarios/bwc-threshold-reclaim-without-borrowing.yaml \
	tests/scenarios/fs-hier-nominal-first-mixed-quotas.yaml \
	tests/scenarios/fs-hier-nominal-first-per-flavor.yaml \
	tests/scenarios/fs-nominal-first-despite-higher-drs.yaml \
	tests/scenarios/fs-preempt-borrowable-from-top-user.yaml \
	tests/scenarios/fs-preempt-borrowing-cq-in-nonborrowing-cohort.yaml \
	tests/scenarios/fs-preempt-deep-tree.yaml \
	tests/scenarios/fs-preempt-final-share-high-priority.yaml \
	tests/scenarios/fs-preempt-forced-within-cq.yaml \
	tests/scenarios/fs-preempt-hierarchical.yaml \
	tests/scenarios/fs-preempt-huge-within-nominal.yaml \
	tests/scenarios/fs-preempt-initial-share-lower-priority-first.yaml \
	tests/scenarios/fs-preempt-lower-priority-same-cq.yaml \
	tests/scenarios/fs-preempt-no-cohort.yaml \
	tests/scenarios/fs-preempt-none-candidate-cq-under-nominal.yaml \
	tests/scenarios/fs-preempt-none-huge-vs-huge.yaml \
	tests/scenarios/fs-preempt-none-if-switches-imbalance.yaml \
	tests/scenarios/fs-preempt-none-two-small-for-huge.yaml \
	tests/scenarios/fs-preempt-none-when-all-within-nominal.yaml \
	tests/scenarios/fs-preempt-one-from-each-borrower.yaml \
	tests/scenarios/fs-preempt-prefer-final-share.yaml \
	tests/scenarios/fs-preempt-reclaim-from-lesser-user.yaml \
	tests/scenarios/fs-preempt-reclaim-nominal-from-top-user.yaml \
	tests/scenarios/fs-preempt-same-cq-and-top-user.yaml \
	tests/scenarios/fs-preempt-target-and-others-over-nominal.yaml \
	tests/scenarios/fs-preempt-threshold-ignored.yaml \
	tests/scenarios/fs-preempt-two-cqs-smaller-max-share.yaml \
	tests/scenarios/fs-preempt-weight-preempts-more.yaml \
	tests/scenarios/fs-preempt-zero-weight-borrower.yaml \
	tests/scenarios/fs-preempt-zero-weight-cohort-protected.yaml \
	tests/scenarios/fs-preempt-zero-weight-cohort-reclaims.yaml \
	tests/scenarios/fs-preempt-zero-weight-cq-reclaims.yaml \
	tests/scenarios/fs-preempt-zero-weight-nominal-protected.yaml \
	tests/scenarios/hier-long-range-reclaim.yaml \
	tests/scenarios/hier-preempt-advantage-and-own-cq.yaml \
	tests/scenarios/hier-preempt-advantage.yaml \
	tests/scenarios/hier-preempt-avoid-within-nominal.yaml \
	tests/scenarios/hier-preempt-cohort-and-own-cq.yaml \
	tests/scenarios/hier-preempt-fits-cq-nominal.yaml \
	tests/scenarios/hier-preempt-forced-priority-candidate.yaml \
	tests/scenarios/hier-preempt-infeasible-pruned.yaml \
	tests/scenarios/hier-preempt-multiple-advantage.yaml \
	tests/scenarios/hier-preempt-multiple-resources.yaml \
	tests/scenarios/hier-preempt-prefer-hierarchical.yaml \
	tests/scenarios/hier-reclaim-lowest-priority-borrower.yaml \
	tests/scenarios/lending-limit-exceeds-requestable.yaml \
	tests/scenarios/preempt-cq-exhausted-one-of-two-resources.yaml \
	tests/scenarios/preempt-cq-exhausted-single-resource.yaml \
	tests/scenarios/preempt-cq-exhausted-two-resources.yaml \
	tests/scenarios/preempt-cq-multiple.yaml \
	tests/scenarios/preempt-cq-newer-equal-priority.yaml \
	tests/scenarios/preempt-cq-no-lower-priority.yaml \
	tests/scenarios/preempt-cq-not-enough-low-priority.yaml \
	tests/scenarios/preempt-cq-podsets-different-flavors.yaml \
	tests/scenarios/preempt-cq-some-free-quota.yaml \
	tests/scenarios/preempt-cq-victims-in-chosen-flavor.yaml \
	tests/scenarios/preempt-local-borrow-cascade.yaml \
	tests/scenarios/preempt-local-borrow-no-limits.yaml \
	tests/scenarios/preempt-local-borrow-other-resource.yaml \
	tests/scenarios/preempt-local-borrow-same-resource.yaml \
	tests/scenarios/reclaim-and-preempt-not-exhausted.yaml \
	tests/scenarios/reclaim-from-lender.yaml \
	tests/scenarios/reclaim-lend-from-all-cqs.yaml \
	tests/scenarios/reclaim-not-enough-borrowing.yaml \
	tests/scenarios/reclaim-same-priority-any-policy.yaml \
	tests/scenarios/reclaim-same-priority-lowerpriority-policy.yaml \
	tests/scenarios/reclaim-zero-request-at-nominal.yaml \
	tests/scenarios/backfill-strict-short-job-goes-first.yaml \
	tests/scenarios/backfill-besteffort-protects-reservation.yaml \
	tests/scenarios/backfill-never-the-reason-to-preempt.yaml \
	tests/scenarios/backfill-cohort-borrower-respects-lender-reservation.yaml \
	tests/scenarios/estimate-late-after-higher-priority-arrival.yaml \
	tests/scenarios/inactive-cq-missing-flavor.yaml \
	tests/scenarios/inactive-lq-missing-cq.yaml \
	tests/scenarios/tas-admitted-on-deleted-node.yaml \
	tests/scenarios/tas-allocatable-pods-used.yaml \
	tests/scenarios/tas-equal-priority-waits.yaml \
	tests/scenarios/tas-implied-only-tas-flavor.yaml \
	tests/scenarios/tas-kc-allow-to-schedule-on-node-which-matches-node-bestfit.yaml \
	tests/scenarios/tas-kc-allow-to-schedule-on-node-with-tolerated-taint-bestfit.yaml \
	tests/scenarios/tas-kc-bestfit-podset-group-workers-spread-across-hosts.yaml \
	tests/scenarios/tas-kc-block-preferred-but-only-multiple-blocks-can-accommodate-the-workload.yaml \
	tests/scenarios/tas-kc-block-preferred-but-the-workload-cannot-be-accommodate-in-entire-topol.yaml \
	tests/scenarios/tas-kc-block-preferred-for-podset-host-required-for-slices-2-blocks-with-unba.yaml \
	tests/scenarios/tas-kc-block-preferred-for-podset-rack-required-for-slices-bestfit.yaml \
	tests/scenarios/tas-kc-block-preferred-pods-fit-in-2-blocks-bestfit.yaml \
	tests/scenarios/tas-kc-block-required-4-pods-fit-into-one-host-each-bestfit.yaml \
	tests/scenarios/tas-kc-block-required-for-podset-host-required-for-slices-bestfit.yaml \
	tests/scenarios/tas-kc-block-required-for-podset-host-required-for-slices-optimize-last-domai.yaml \
	tests/scenarios/tas-kc-block-required-for-podset-host-required-for-slices-prioritize-more-fre.yaml \
	tests/scenarios/tas-kc-block-required-for-podset-host-required-for-slices-select-domains-with.yaml \
	tests/scenarios/tas-kc-block-required-for-podset-rack-required-for-slices-bestfit.yaml \
	tests/scenarios/tas-kc-block-required-for-podset-rack-required-for-slices-only-1-out-of-2-sli.yaml \
	tests/scenarios/tas-kc-block-required-for-podset-rack-required-for-slices-podset-fits-in-a-bl.yaml \
	tests/scenarios/tas-kc-block-required-for-podset-rack-required-for-slices-podset-fits-in-both.yaml \
	tests/scenarios/tas-kc-block-required-pods-fit-in-a-block-spread-across-two-racks-bestfit.yaml \
	tests/scenarios/tas-kc-block-required-single-pod-fits-in-a-block-and-a-single-rack-bestfit.yaml \
	tests/scenarios/tas-kc-block-required-single-pod-fits-in-a-block-spread-across-two-racks-best.yaml \
	tests/scenarios/tas-kc-block-required-single-pod-which-cannot-be-split-bestfit.yaml \
	tests/scenarios/tas-kc-block-required-too-many-pods-to-fit-requested-bestfit.yaml \
	tests/scenarios/tas-kc-cannot-request-not-existing-slice-topology.yaml \
	tests/scenarios/tas-kc-choose-the-node-that-can-accommodate-all-pods.yaml \
	tests/scenarios/tas-kc-detailed-failure-message-with-exclusion-stats.yaml \
	tests/scenarios/tas-kc-don-t-consider-terminal-pods-when-computing-the-capacity-bestfit.yaml \
	tests/scenarios/tas-kc-don-t-consider-unscheduled-pods-when-computing-capacity-bestfit.yaml \
	tests/scenarios/tas-kc-find-topology-assignment-for-grouped-podsets-keeps-tight-domain-when-l.yaml \
	tests/scenarios/tas-kc-find-topology-assignment-for-grouped-podsets-preserves-leader-below-th.yaml \
	tests/scenarios/tas-kc-find-topology-assignment-for-grouped-podsets-preserves-worker-capacity.yaml \
	tests/scenarios/tas-kc-find-topology-assignment-for-grouped-podsets-skips-domain-where-mixed.yaml \
	tests/scenarios/tas-kc-find-topology-assignment-for-grouped-podsets-skips-domain-where-only-w.yaml \
	tests/scenarios/tas-kc-find-topology-assignment-for-preferred-grouped-podsets-preserves-capac.yaml \
	tests/scenarios/tas-kc-find-topology-assignment-for-sliced-grouped-podsets-preserves-worker-c.yaml \
	tests/scenarios/tas-kc-find-topology-assignment-for-two-podsets-with-overlapping-domain.yaml \
	tests/scenarios/tas-kc-find-topology-assignment-for-two-podsets-with-the-same-group-leader-do.yaml \
	tests/scenarios/tas-kc-find-topology-assignment-for-two-podsets-with-the-same-group-multiple.yaml \
	tests/scenarios/tas-kc-find-topology-assignment-for-two-podsets-with-the-same-group-no-fit.yaml \
	tests/scenarios/tas-kc-find-topology-assignment-for-two-podsets-with-the-same-group-optimizes.yaml \
	tests/scenarios/tas-kc-find-topology-assignment-for-two-podsets-with-the-same-group-requestin.yaml \
	tests/scenarios/tas-kc-find-topology-assignment-for-two-podsets-with-the-same-group-with-doma.yaml \
	tests/scenarios/tas-kc-find-topology-assignment-for-two-podsets-with-the-same-group.yaml \
	tests/scenarios/tas-kc-find-topology-assignment-for-unconstrained-grouped-podsets-spreads-lea.yaml \
	tests/scenarios/tas-kc-host-preferred-single-pod-fits-in-the-host-bestfit-tasprofilemixed.yaml \
	tests/scenarios/tas-kc-host-required-single-pod-fits-in-the-host-bestfit-tasprofilemixed.yaml \
	tests/scenarios/tas-kc-host-required-single-pod-fits-in-the-host-bestfit.yaml \
	tests/scenarios/tas-kc-include-usage-from-non-tas-pods-pod-usage.yaml \
	tests/scenarios/tas-kc-include-usage-from-pending-scheduled-non-tas-pods-blocked-assignment-b.yaml \
	tests/scenarios/tas-kc-include-usage-from-running-non-tas-pods-blocked-assignment-bestfit.yaml \
	tests/scenarios/tas-kc-include-usage-from-running-non-tas-pods-found-free-capacity-on-another.yaml \
	tests/scenarios/tas-kc-minimize-the-number-of-used-racks-before-optimizing-the-number-of-node.yaml \
	tests/scenarios/tas-kc-multi-layer-topology-block-required-rack-slices-of-4-host-slices-of-2.yaml \
	tests/scenarios/tas-kc-multi-layer-topology-enough-hostname-slices-but-not-enough-rack-slices.yaml \
	tests/scenarios/tas-kc-multi-layer-topology-host-slice-rounding-makes-rack-slice-impossible.yaml \
	tests/scenarios/tas-kc-multi-layer-topology-mimic-a-real-world-gb200-cluster-with-nvl36-arch.yaml \
	tests/scenarios/tas-kc-multi-layer-topology-no-feature-gate-additional-layers-ignored.yaml \
	tests/scenarios/tas-kc-multi-layer-topology-small-host-kills-rack-slices-despite-enough-total.yaml \
	tests/scenarios/tas-kc-multiple-podsets-account-assumed-pod-usage-against-allocatable-pods-be.yaml \
	tests/scenarios/tas-kc-multiple-podsets-block-required-for-one-unconstrained-for-another-tasp.yaml \
	tests/scenarios/tas-kc-multiple-podsets-rack-required-for-both-different-resource-requests-be.yaml \
	tests/scenarios/tas-kc-no-assignment-as-node-does-not-have-enough-allocatable-pods-status-all.yaml \
	tests/scenarios/tas-kc-no-assignment-as-node-is-not-ready-bestfit.yaml \
	tests/scenarios/tas-kc-no-assignment-as-node-is-unschedulable-bestfit.yaml \
	tests/scenarios/tas-kc-no-topology-for-podset-host-required-for-slices-bestfit.yaml \
	tests/scenarios/tas-kc-no-topology-for-podset-host-required-for-slices-multiple-blocks-bestfi.yaml \
	tests/scenarios/tas-kc-no-topology-for-podset-rack-required-for-slices-multiple-blocks-bestfi.yaml \
	tests/scenarios/tas-kc-node-allocatable-capacity-completely-used-by-non-tas-pod-empty-remaini.yaml \
	tests/scenarios/tas-kc-non-hostname-leaf-topology-nil-aggregateddomainusages-preserves-per-fl.yaml \
	tests/scenarios/tas-kc-only-nodes-with-matching-labels-are-considered-matching-node-is-found.yaml \
	tests/scenarios/tas-kc-only-nodes-with-matching-labels-are-considered-no-matching-node-bestfi.yaml \
	tests/scenarios/tas-kc-only-nodes-with-matching-levels-are-considered-no-host-label-on-node-b.yaml \
	tests/scenarios/tas-kc-rack-preferred-but-only-block-can-accommodate-the-workload-bestfit.yaml \
	tests/scenarios/tas-kc-rack-preferred-but-only-multiple-blocks-can-accommodate-the-workload-b.yaml \
	tests/scenarios/tas-kc-rack-required-multiple-pods-fit-in-a-rack-bestfit.yaml \
	tests/scenarios/tas-kc-rack-required-multiple-pods-fit-in-some-racks-bestfit.yaml \
	tests/scenarios/tas-kc-rack-required-single-pod-fits-in-a-rack-bestfit.yaml \
	tests/scenarios/tas-kc-rack-required-single-pod-requiring-memory-bestfit.yaml \
	tests/scenarios/tas-kc-rack-required-too-many-pods-to-fit-in-any-rack-bestfit.yaml \
	tests/scenarios/tas-kc-resource-exclusion-picks-most-restrictive-resource.yaml \
	tests/scenarios/tas-kc-skip-node-which-doesn-t-match-node-selector-label-exists-value-doesn-t.yaml \
	tests/scenarios/tas-kc-skip-node-which-doesn-t-match-node-selector-missing-label-bestfit.yaml \
	tests/scenarios/tas-kc-skip-node-which-has-untolerated-taint-bestfit.yaml \
	tests/scenarios/tas-kc-slice-required-topology-level-cannot-be-above-the-main-required-topolo.yaml \
	tests/scenarios/tas-kc-slice-size-is-required-when-slice-topology-is-requested.yaml \
	tests/scenarios/tas-kc-stable-tie-break-on-identical-nodes-reversed-order-tasbalancedplacemen.yaml \
	tests/scenarios/tas-kc-stable-tie-break-on-identical-nodes-tasbalancedplacement-disabled.yaml \
	tests/scenarios/tas-kc-unconstrained-6-pods-fit-into-hosts-scattered-across-the-whole-datacen.yaml \
	tests/scenarios/tas-kc-unconstrained-a-single-pod-fits-into-each-host-bestfit.yaml \
	tests/scenarios/tas-kc-unconstrained-a-single-pod-fits-into-each-host-leastfreecapacity-taspr.yaml \
	tests/scenarios/tas-level-only-in-second-flavor.yaml \
	tests/scenarios/tas-mixed-podsets.yaml \
	tests/scenarios/tas-multi-layer-block-rack-host.yaml \
	tests/scenarios/tas-multi-layer-host-rounding-no-fit.yaml \
	tests/scenarios/tas-next-to-admitted-multiple-resources.yaml \
	tests/scenarios/tas-no-fit-node-capacity.yaml \
	tests/scenarios/tas-node-full-of-non-tas-pods.yaml \
	tests/scenarios/tas-node-used-by-non-tas-pod.yaml \
	tests/scenarios/tas-node-used-by-tas-workload.yaml \
	tests/scenarios/tas-overlapping-flavors-share-nodes.yaml \
	tests/scenarios/tas-partial-admission-trimmed.yaml \
	tests/scenarios/tas-partially-empty-preferred.yaml \
	tests/scenarios/tas-partially-empty-required.yaml \
	tests/scenarios/tas-partially-empty-unconstrained.yaml \
	tests/scenarios/tas-plain-skips-tas-flavor.yaml \
	tests/scenarios/tas-podset-of-size-zero.yaml \
	tests/scenarios/tas-preadmitted-on-the-only-node.yaml \
	tests/scenarios/tas-preempt-fragmented-capacity.yaml \
	tests/scenarios/tas-preempt-mid-priority-survives.yaml \
	tests/scenarios/tas-preempt-only-low-priority.yaml \
	tests/scenarios/tas-preempt-pods-pressure.yaml \
	tests/scenarios/tas-preempt-sibling-flavor-usage.yaml \
	tests/scenarios/tas-preempting-reserves-capacity.yaml \
	tests/scenarios/tas-preempting-reserves-capacity-last-head-recomputes.yaml \
	tests/scenarios/tas-preempting-without-targets-reserves.yaml \
	tests/scenarios/tas-required-gets-scheduled.yaml \
	tests/scenarios/tas-required-level-missing.yaml \
	tests/scenarios/tas-required-skips-non-tas-flavor.yaml \
	tests/scenarios/tas-sibling-flavors-no-self-overlap.yaml \
	tests/scenarios/tas-tainted-node-flavor-toleration.yaml \
	tests/scenarios/tas-tainted-node-untolerated.yaml \
	tests/scenarios/tas-two-podsets-host-and-preferred.yaml \
	tests/scenarios/tas-two-podsets-required-rack.yaml \
	tests/scenarios/tas-two-podsets-worker-too-big.yaml \
	tests/scenarios/tas-zero-request-resource-not-in-cq.yaml \
	tests/scenarios/tas-zero-request.yaml \
	tests/scenarios/tas-cohort-borrowing-gets-scheduled.yaml \
	tests/scenarios/tas-cohort-both-overlapping-initial-assignment.yaml \
	tests/scenarios/tas-cohort-no-reserve-when-can-always-reclaim.yaml \
	tests/scenarios/tas-cohort-preemptor-recomputes-stale-assignment.yaml \
	tests/scenarios/tas-cohort-reclaim-one-of-three.yaml \
	tests/scenarios/tas-cohort-reclaim-single-borrowing.yaml \
	tests/scenarios/tas-cohort-two-nominated-same-node-both-fit.yaml \
	tests/scenarios/tas-cohort-two-resources-fit-turns-preempt.yaml \
	tests/scenarios/tas-cohort-two-small-different-nodes.yaml \
	tests/scenarios/tas-cohort-two-small-only-one-on-initial-node.yaml \
	tests/scenarios/tas-cohort-two-flavors-recompute-sticky.yaml \
	tests/scenarios/tas-kc-multi-layer-3-layer-small-hosts-cascade.yaml \
	tests/scenarios/tas-kc-no-annotation-implied-unconstrained.yaml \
	tests/scenarios/tas-kc-non-hostname-leaf-prior-usage-applied.yaml \
	tests/scenarios/tas-kc-optimize-last-domain-lws-bestfit.yaml \
	tests/scenarios/tas-kc-sibling-flavor-usage-on-shared-hostname.yaml \
	tests/scenarios/tas-kc-temporary-state-cleanup-across-podsets.yaml \
	tests/scenarios/tas-missing-topology-waits.yaml \
	tests/scenarios/tas-preempt-two-resources-fit-turns-preempt.yaml \
	tests/scenarios/tas-preempt-victim-on-deleted-node.yaml \
	tests/scenarios/tas-two-podsets-exceed-node-pods.yaml \
	tests/scenarios/flavor-borrow-limit-above-cohort-quota.yaml \
	tests/scenarios/flavor-borrow-try-next-found-first.yaml \
	tests/scenarios/flavor-borrow-try-next-found-second.yaml \
	tests/scenarios/flavor-borrow-try-next-second-at-nominal.yaml \
	tests/scenarios/flavor-lend-try-next-found-second.yaml \
	tests/scenarios/flavor-preempt-may-stop-search.yaml \
	tests/scenarios/flavor-preempt-try-next-flavor.yaml \
	tests/scenarios/hier-lending-limit-blocks-borrow.yaml \
	tests/scenarios/preempt-local-one-queue-cohort.yaml \
	tests/scenarios/sched-borrow-different-resources-same-cycle.yaml \
	tests/scenarios/sched-borrow-same-resource-same-cycle-fits.yaml \
	tests/scenarios/sched-fungibility-bop-borrow-second-flavor.yaml \
	tests/scenarios/sched-fungibility-pob-no-candidates-borrow.yaml \
	tests/scenarios/sched-fungibility-preempt-try-next-flavor.yaml \
	tests/scenarios/sched-preempt-minimal-cq-exhausted.yaml \
	tests/scenarios/sched-preempt-only-if-fits-nominal.yaml \
	tests/scenarios/tas-cohort-only-first-fits.yaml \
	tests/scenarios/tas-cohort-reclaim-partial-admission.yaml \
	tests/scenarios/tas-cohort-two-small-same-node.yaml \
	tests/scenarios/tas-preempt-recompute-overlapping-targets.yaml \
	tests/scenarios/flavor-multiple-specs-fits-borrowing.yaml \
	tests/scenarios/flavor-num-pods-dont-fit.yaml \
	tests/scenarios/flavor-num-pods-fit.yaml \
	tests/scenarios/flavor-past-max-preempt-in-cq.yaml \
	tests/scenarios/flavor-past-min-preempt-in-cohort.yaml \
	tests/scenarios/flavor-reclaim-before-priority-compute-fits.yaml \
	tests/scenarios/flavor-rg-preempt-one-nofit-other.yaml \
	tests/scenarios/hier-flavor-deeper-borrow-over-no-candidates.yaml \
	tests/scenarios/hier-flavor-select-top-flavor.yaml \
	tests/scenarios/sched-lsc-borrow-after-all-flavors.yaml \
	tests/scenarios/sched-lsc-borrow-before-next-flavor.yaml \
	tests/scenarios/sched-lsc-next-full-borrow-on-first.yaml \
	tests/scenarios/sched-lsc-next-full-preempt-on-first.yaml \
	tests/scenarios/sched-lsc-trynext-second-full-preempt-first.yaml \
	tests/scenarios/sched-lsc-unblocked-after-delete.yaml \
	tests/scenarios/sched-order-borrowing-level.yaml \
	tests/scenarios/sched-order-nominal-priority-fifo.yaml \
	tests/scenarios/sched-preempt-zero-request-undefined-resource.yaml \
	tests/scenarios/sched-pssp-tas-first-flavor-blocked.yaml \
	tests/scenarios/sched-pssp-tas-pod-larger-than-node.yaml

TESTS += tests/scenarios/run.sh

UNIT_TESTS += tests/unit/test_kueue tests/unit/test_sched_quota tests/unit/test_sched_cycle \
	tests/unit/test_sched_equiv tests/unit/test_sched_partial tests/unit/test_sim
tests_unit_test_sched_quota_SOURCES = tests/unit/test_sched_quota.c tests/unit/sched_testlib.h
tests_unit_test_sched_cycle_SOURCES = tests/unit/test_sched_cycle.c tests/unit/sched_testlib.h
tests_unit_test_sched_equiv_SOURCES = tests/unit/test_sched_equiv.c tests/unit/sched_testlib.h
tests_unit_test_sched_partial_SOURCES = tests/unit/test_sched_partial.c tests/unit/sched_testlib.h

# Per-node quota cells: a 5 000-flavor model, usage outside a CQ's groups.
UNIT_TESTS += tests/unit/test_sched_sparse
tests_unit_test_sched_sparse_SOURCES = tests/unit/test_sched_sparse.c tests/unit/sched_testlib.h

# The usage rows sinfo --quota prints (what each queue lends).
UNIT_TESTS += tests/unit/test_sched_usage
tests_unit_test_sched_usage_SOURCES = tests/unit/test_sched_usage.c tests/unit/sched_testlib.h

# Start-time estimates and backfill.
UNIT_TESTS += tests/unit/test_estimate tests/unit/test_backfill
tests_unit_test_estimate_SOURCES = tests/unit/test_estimate.c tests/unit/sched_testlib.h
tests_unit_test_backfill_SOURCES = tests/unit/test_backfill.c tests/unit/sched_testlib.h

# `sluice replay`: traces through the engine (tests/data/replay/, docs/replay.md).
UNIT_TESTS += tests/unit/test_replay
EXTRA_DIST += tests/data/replay/small.yaml tests/data/replay/gpu100.yaml \
	tests/data/replay/gpu100-split.yaml tests/data/replay/gpu100-backfill.yaml \
	tests/data/replay/gpu100-strict.yaml docs/replay.md \
	tests/bench/replay_trace.py tests/bench/replay.sh
	tests/data/replay/gpu100-split.yaml tests/bench/replay_trace.py tests/bench/replay.sh

# Topology-aware scheduling through the engine's API (nodes fed, restart, reload).
UNIT_TESTS += tests/unit/test_tas
tests_unit_test_tas_SOURCES = tests/unit/test_tas.c tests/unit/sched_testlib.h

# Queues Kueue keeps inactive (missing flavor, missing ClusterQueue) and the
# table from Kueue's pending reasons to Slurm's.
UNIT_TESTS += tests/unit/test_sched_inactive
tests_unit_test_sched_inactive_SOURCES = tests/unit/test_sched_inactive.c tests/unit/sched_testlib.h

# Several Kueue cycles per sl_sched_cycle call decide what one per call does.
UNIT_TESTS += tests/unit/test_sched_chain
tests_unit_test_sched_chain_SOURCES = tests/unit/test_sched_chain.c tests/unit/sched_testlib.h
