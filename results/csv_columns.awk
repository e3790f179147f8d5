# Shared by the results/ scripts: read a CSV whose first row names the columns,
# and address cells by name. Cells are split on commas: clomp quotes only text
# with commas or quotes in it, which can only be its last column (host).
#   col("speedup") -> the cell of the current row, "" when there is no such column
FNR == 1 { delete at; for (i = 1; i <= NF; i++) at[$i] = i; next }
function col(name) { return (name in at) ? $(at[name]) : "" }
function num(name,  v) { v = col(name); return (v ~ /^-?[0-9.]+([eE][-+]?[0-9]+)?$/) ? v : "NaN" }
