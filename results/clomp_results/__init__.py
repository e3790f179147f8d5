"""clomp_results: the suite's reports, bundle and validator, from records.

Python 3.8+, standard library only. Modules, one concern each:
  safe_io          the one safe way in for files this run did not make (docs/security.md)
  records          typed records (dataclasses) of a suite
  loader           load_suite(path) -> Suite: the API every other module relies on
  tables           .summary and .constructs.csv from the runs' JSON records
  between          the between-process summary (--replicates), statistics by clomp-stats --json
  validate, grade  ./clomp_validate: validity, then the submission grade
  bundle           the submission bundle; runtime_library: which OpenMP runtime ran
  inspect          `load`: what the loader reads
  render           every table and report of a suite from its manifest and records: after each run, at the end
  cli              results/clomp-results SUBCOMMAND ...: one line per subcommand
  submissions      the buyer's table's inputs made into records (bundles, suites, --compare, CLOMP 1.2 text:
                   text12; machine_facts: the header); buyers_table the table from them (clomp-stats),
                   buyers_html/svg_chart the page, buyers_cli ./clomp_compare, archive the SQLite archive
  cluster          the cluster report (docs/cluster.md): cluster_nodes reads per-node summaries and clomp_mpi's
                   mpi.per_rank, cluster_figures names the key figures, cluster_render writes text, CSV, JSON
"""
