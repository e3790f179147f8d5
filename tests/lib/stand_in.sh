# shellcheck shell=bash
# A stand-in for clomp that the driver tests share (tests/grain.t, untrusted_driver.t, manifest_reader.t):
#   plain_stand_in FILE [LINE]   writes an executable FILE: every run prints a line and succeeds at once
#                                (no CSV, no record), LINE (shell) run first where given; --version and
#                                --help answer as a clomp; --list-* asks the real one, $CLOMP (read when it runs).
plain_stand_in() {
    {
        cat <<'STANDIN'
#!/usr/bin/env bash
case ${1-} in
    --version) echo "fake clomp 0.0 (a test stand-in)"; exit 0 ;;
    --help) echo "  --csv=FILE  (a test stand-in)"; exit 0 ;;
    --list-*) exec "$CLOMP" "$1" ;;
esac
STANDIN
        [ -z "${2-}" ] || printf '%s\n' "$2"
        printf '%s\n' 'echo "fake clomp $*"'
    } >"$1" && chmod +x "$1"
}
