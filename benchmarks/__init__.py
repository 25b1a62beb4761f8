"""Reproducible benchmark suites: ``python -m benchmarks <suite> [options]``.

Each suite is one module of this package with a ``main(argv) -> int`` function; see
``benchmarks/README.md`` for what each one measures. Benchmarks import only the public API.
"""
