"""clomp_results/grain/: the grain search and node limits (run_clomp.sh --grain, the Node limits section): plan, cells, answers, report, page."""
