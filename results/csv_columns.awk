# The suite's bash reads of a CSV whose first row names the columns, cells
# addressed by name (suite/common.sh table_rows, --resume, --stop-on-slowdown:
# parts of a suite that never need Python). Cells are
# RFC 4180, one record per line: clomp quotes text with a comma or a quote in it (an optional
# schedule's name such as "Static,1 OMP", the host name).
#   col("speedup") -> the cell of the current row, "" when there is no such column
{ ncell = csv_split($0, cell) }
FNR == 1 { delete at; for (i = 1; i <= ncell; i++) at[cell[i]] = i; next }
function csv_split(line, out,   n, i, ch, text, quoted) {
    delete out
    if (index(line, "\"") == 0) return split(line, out, ",")
    n = 1; text = ""; quoted = 0
    for (i = 1; i <= length(line); i++) {
        ch = substr(line, i, 1)
        if (quoted && ch == "\"" && substr(line, i + 1, 1) == "\"") { text = text ch; i++ }
        else if (ch == "\"") quoted = !quoted
        else if (ch == "," && !quoted) { out[n++] = text; text = "" }
        else text = text ch
    }
    out[n] = text
    return n
}
function col(name) { return (name in at) ? cell[at[name]] : "" }
function num(name,  v) { v = col(name); return (v ~ /^-?[0-9.]+([eE][-+]?[0-9]+)?$/) ? v : "NaN" }
