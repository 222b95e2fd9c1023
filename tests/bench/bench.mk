# tests/bench/bench.mk: benchmarks (not part of make check)
