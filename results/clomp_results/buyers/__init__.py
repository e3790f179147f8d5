"""clomp_results/buyers/: the buyer's table (./clomp_compare) and its archive: submissions (their figures: process_figures; CLOMP 1.2 text: text12), table, HTML, CLI, SQLite archive."""
