"""clomp_results/compare/: the A/B comparison (run_clomp.sh --compare, --ompt-tax): options, sides, report, words."""
