"""clomp_results/sweep/: the settings sweep (run_clomp.sh --sweep): plan, report, page."""
