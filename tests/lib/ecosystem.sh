# shellcheck shell=bash
# The harnesses' own tools for the tests of integrations/ and --caliper-json
# (issue 49): the source copies of ReFrame 4.10.1 (+ archspec) and LLNL
# Hatchet 2024.1.0 (+ textX) in ../shared/reference/ecosystem (CI has
# ../shared beside its clone), run with Debian's python3 and packages, and
# Debian's JUBE. Never copied into the project. Source after tap.sh; needs $top.
#
#   ecosystem_missing TOOL   prints what TOOL (hatchet, reframe, jube) lacks here, in one line
#                            naming the Debian packages or the copy; nothing when it is all there
#   skip_all_without TOOL NAME  a whole test file skipped, naming what NAME lacks, unless TOOL is all there
#   hatchet_pythonpath       builds Hatchet's Cython module once (into $BUILD_DIR/ecosystem) and
#                            prints the PYTHONPATH that imports hatchet; exit status 1 if it cannot
#   reframe_pythonpath       prints the PYTHONPATH that imports reframe

ECOSYSTEM=${CLOMP_ECOSYSTEM:-$top/../shared/reference/ecosystem}
[ -d "$ECOSYSTEM" ] || [ -n "${CLOMP_ECOSYSTEM-}" ] || ECOSYSTEM=$top/../../shared/reference/ecosystem   # a worktree one level down
# Debian's interpreter: the Debian modules live in its dist-packages (a pyenv python3 has none).
ECOSYSTEM_PYTHON=/usr/bin/python3
HATCHET_COPY=hatchet-2024.1.0 TEXTX_COPY=textx-4.4.0 REFRAME_COPY=reframe-4.10.1 ARCHSPEC_COPY=archspec
# module:Debian package, as the copies' try.sh found them (Hatchet imports matplotlib and multiprocess at start).
HATCHET_MODULES="numpy:python3-numpy pandas:python3-pandas matplotlib:python3-matplotlib multiprocess:python3-multiprocess
    arpeggio:python3-arpeggio"
REFRAME_MODULES="argcomplete:python3-argcomplete ClusterShell:python3-clustershell fasteners:python3-fasteners
    jinja2:python3-jinja2 jsonschema:python3-jsonschema lxml:python3-lxml yaml:python3-yaml requests:python3-requests
    semver:python3-semver tabulate:python3-tabulate"

# _missing_modules "module:package ...": the packages whose module Debian's python3 cannot import.
_missing_modules() {
    local pair missing=()
    for pair in $1; do
        "$ECOSYSTEM_PYTHON" -c "import ${pair%%:*}" >/dev/null 2>&1 || missing+=("${pair#*:}")
    done
    printf '%s' "${missing[*]}"
}

ecosystem_missing() {
    local tool=$1 packages='' copies=()
    [ -x "$ECOSYSTEM_PYTHON" ] || { echo "Debian's python3 (/usr/bin/python3)"; return; }
    case $tool in
    hatchet)
        [ -d "$ECOSYSTEM/$HATCHET_COPY" ] || copies+=("$HATCHET_COPY")
        [ -d "$ECOSYSTEM/$TEXTX_COPY" ] || copies+=("$TEXTX_COPY")
        packages=$(_missing_modules "$HATCHET_MODULES")
        command -v cython3 >/dev/null 2>&1 || packages="$packages cython3"
        [ -f "$("$ECOSYSTEM_PYTHON" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')/Python.h" ] ||
            packages="$packages python3-dev"
        ;;
    reframe)
        [ -d "$ECOSYSTEM/$REFRAME_COPY" ] || copies+=("$REFRAME_COPY")
        [ -d "$ECOSYSTEM/$ARCHSPEC_COPY" ] || copies+=("$ARCHSPEC_COPY")
        packages=$(_missing_modules "$REFRAME_MODULES")
        ;;
    jube)
        command -v jube >/dev/null 2>&1 || packages=jube
        ;;
    esac
    packages=${packages# }
    local said=()
    [ -z "$packages" ] || said+=("the Debian packages $packages (apt-get install, .ci/packages)")
    [ ${#copies[@]} -eq 0 ] || said+=("the source copies ${copies[*]} in $ECOSYSTEM")
    [ ${#said[@]} -eq 0 ] || printf '%s\n' "needs ${said[*]}"
}

skip_all_without() {
    local lacking
    lacking=$(ecosystem_missing "$1")
    [ -z "$lacking" ] && return 0
    echo "1..0 # SKIP $2 $lacking"
    exit 0
}

hatchet_pythonpath() {
    local dest=${BUILD_DIR:-$top/build}/ecosystem/$HATCHET_COPY
    local module=graphframe_modules
    local suffix
    suffix=$("$ECOSYSTEM_PYTHON" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))') || return 1
    # A copy with the one Cython module Hatchet imports at start (the other reads HPCToolkit's files), built once.
    if [ ! -f "$dest/hatchet/cython_modules/libs/$module$suffix" ]; then
        local work
        work=$(mktemp -d) || return 1
        rm -rf "$dest" && mkdir -p "$(dirname "$dest")" && cp -r "$ECOSYSTEM/$HATCHET_COPY" "$work/copy" &&
            cython3 -3 "$work/copy/hatchet/cython_modules/$module.pyx" -o "$work/$module.c" >/dev/null 2>&1 &&
            gcc -shared -fPIC -O2 -I"$("$ECOSYSTEM_PYTHON" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')" \
                -I"$("$ECOSYSTEM_PYTHON" -c 'import numpy; print(numpy.get_include())')" "$work/$module.c" \
                -o "$work/copy/hatchet/cython_modules/libs/$module$suffix" && mv "$work/copy" "$dest"
        local built=$?
        rm -rf "$work"
        [ "$built" = 0 ] || return 1
    fi
    printf '%s\n' "$dest:$ECOSYSTEM/$TEXTX_COPY"
}

reframe_pythonpath() {
    printf '%s\n' "$ECOSYSTEM/$REFRAME_COPY:$ECOSYSTEM/$ARCHSPEC_COPY"
}
