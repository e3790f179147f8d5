"""clomp_results/cluster/: the cluster report and run_clomp.sh --nodes: nodes, figures, render, cluster bundle, suite."""
