"""clomp_results: the suite's reports, bundle and validator, from records.

Python 3.8+, standard library only. Entry points at the top: cli (results/clomp-results SUBCOMMAND ...:
one line per subcommand) and __main__ (python3 -m clomp_results). Every module lives in one subpackage:
  core/     what every product reads through: records, loader, manifest (legacy: suites from before it),
            catalogue (clomp --list-figures), safe_io/safe_text/safe_write, tar_reader/tar_writer,
            stats_helper (clomp-stats), runtime_library/runtime_profiles, and the shared tables, figures
            and charts (tables, view, given, between, cliff, by_design, compare_figures, estimate,
            machine_facts, gnuplot, svg_chart, html_frame); it imports no product
  suite/    the suite's report: render (after each run, at the end), report and html_*, charts, offload,
            calibration, `load` (inspect), `manifest` (manifest_cli)
  bundle/   the submission bundle and its validator: bundle, validate (record_checks, crosscheck,
            full_text, machine_check, profile_check, grade), sign, find_suite
  compare/  the A/B comparison (run_clomp.sh --compare, --ompt-tax): compare_*, ompt_tax_report
  sweep/    the settings sweep (run_clomp.sh --sweep): sweep_plan, sweep_report, sweep_page
  grain/    the grain search (run_clomp.sh --grain): grain_*, and node_limits (the Node limits section)
  buyers/   the buyer's table (./clomp_compare): submissions (process_figures; text12: CLOMP 1.2 text), buyers_*,
            archive
  cluster/  the cluster report and run_clomp.sh --nodes: cluster, cluster_*
A product imports core, and another product only where tests/python_layers.t lists why
(docs/architecture.md, "The results package by product").
"""
