"""clomp_results/bundle/: the submission bundle and its validator: bundle, validate (record_checks, crosscheck, full_text, machine_check, profile_check, grade), sign, find-suite."""
