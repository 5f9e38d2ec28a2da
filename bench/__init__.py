"""Benchmarks: `python -m bench.load` (server under load). See bench/README.md."""
