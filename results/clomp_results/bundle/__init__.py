"""clomp_results/bundle/: the submission bundle and its validator: bundle, validate (crosscheck, full_text, profile_check, grade), sign, find-suite."""
