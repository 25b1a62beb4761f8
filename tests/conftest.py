from hypothesis import settings

# Solve times vary with CP-SAT's work, so no per-example deadline; speed is the benchmarks' job.
settings.register_profile("default", deadline=None)
settings.load_profile("default")
