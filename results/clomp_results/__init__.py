"""clomp_results: the suite's reports, bundle and validator, from records.

Python 3.8+, standard library only. Modules, one concern each:
  safe_io   the one safe way in for files this run did not make
  records   typed records (dataclasses) of a suite
  loader    load_suite(path) -> Suite
  cli       python3 -m clomp_results SUBCOMMAND ... (results/clomp-results)
"""
