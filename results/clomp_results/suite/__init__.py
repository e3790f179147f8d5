"""clomp_results/suite/: the suite's report: render (after each run, at the end), the HTML page and its charts, offload, the dry run's calibration, `load`, `manifest`."""
