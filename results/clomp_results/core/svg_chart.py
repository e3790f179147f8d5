"""A line chart as inline SVG, drawn in this process from numbers (the
buyer's table's thread-sweep charts): no external program, and every text
(titles, submission labels) escaped as XML. A line per series, a point per
value, the interval as an error bar; an axis is logarithmic when its values
are all positive and span more than LOG_SPAN times (threads: base 2)."""
from __future__ import annotations

import math
from html import escape
from typing import List, Optional, Sequence, Tuple

COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf")
DASHES = ("", "6,3", "2,3", "8,3,2,3")
LOG_SPAN = 20.0
W, H, LEFT, RIGHT, TOP, BOTTOM = 760, 380, 80, 220, 36, 50

Point = Tuple[float, float, Optional[float], Optional[float]]


def _axis(values: Sequence[float], force_log: bool = False):
    """(low, high, log) of an axis holding VALUES."""
    lo, hi = min(values), max(values)
    log = lo > 0 and (force_log or hi / lo > LOG_SPAN)
    if log:
        return math.log10(lo) - 0.05, math.log10(hi) + 0.05, True
    if lo == hi:
        lo, hi = lo - (abs(lo) or 1) * 0.5, hi + (abs(hi) or 1) * 0.5
    pad = (hi - lo) * 0.06
    return lo - pad, hi + pad, False


def _ticks(lo, hi, log):
    if log:
        return [10 ** e for e in range(int(math.floor(lo)), int(math.ceil(hi)) + 1) if lo <= e <= hi] or [10 ** lo]
    step = 10 ** math.floor(math.log10((hi - lo) / 4 or 1))
    for m in (1, 2, 5, 10):
        if (hi - lo) / (step * m) <= 6:
            step *= m
            break
    first = math.ceil(lo / step) * step
    return [first + i * step for i in range(int((hi - first) / step) + 1)]


def chart(title: str, x_label: str, y_label: str, series: List[Tuple[str, List[Point]]], x_unit: str = "threads") -> str:
    """The SVG text; an empty string when no series has a point. X_UNIT names x in a point's tooltip."""
    xs = [p[0] for _, pts in series for p in pts]
    ys = [v for _, pts in series for p in pts for v in (p[1], p[2], p[3]) if v is not None]
    if not xs or not ys:
        return ""
    x_lo, x_hi, x_log = _axis(xs, force_log=min(xs) > 0 and max(xs) / min(xs) >= 4)
    y_lo, y_hi, y_log = _axis(ys)
    pw, ph = W - LEFT - RIGHT, H - TOP - BOTTOM

    def px(x):
        v = math.log10(x) if x_log else x
        return LEFT + (v - x_lo) / (x_hi - x_lo) * pw

    def py(y):
        if y_log and y <= 0:
            return TOP + ph
        v = math.log10(y) if y_log else y
        return TOP + ph - (v - y_lo) / (y_hi - y_lo) * ph

    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img">' % (W, H, W, H),
           '<title>%s</title>' % escape(title),
           '<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#444"/>' % (LEFT, TOP, pw, ph),
           '<text x="%d" y="20" font-size="14" font-family="sans-serif">%s</text>' % (LEFT, escape(title)),
           '<text x="%d" y="%d" font-size="12" font-family="sans-serif" text-anchor="middle">%s%s</text>' % (
               LEFT + pw // 2, H - 10, escape(x_label), " (log scale)" if x_log else ""),
           '<text x="14" y="%d" font-size="12" font-family="sans-serif" transform="rotate(-90 14 %d)" '
           'text-anchor="middle">%s%s</text>' % (TOP + ph // 2, TOP + ph // 2, escape(y_label), " (log scale)" if y_log else "")]
    for t in sorted(set(xs)):
        out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/>' % (px(t), TOP, px(t), TOP + ph))
        out.append('<text x="%.1f" y="%d" font-size="11" font-family="sans-serif" text-anchor="middle">%s</text>'
                   % (px(t), TOP + ph + 16, escape("%g" % t)))
    for t in _ticks(y_lo, y_hi, y_log):
        out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>' % (LEFT, py(t), LEFT + pw, py(t)))
        out.append('<text x="%d" y="%.1f" font-size="11" font-family="sans-serif" text-anchor="end">%s</text>'
                   % (LEFT - 6, py(t) + 4, escape("%g" % t)))
    for i, (name, pts) in enumerate(series):
        colour, dash = COLOURS[i % len(COLOURS)], DASHES[(i // len(COLOURS)) % len(DASHES)]
        pts = sorted(pts)
        if len(pts) > 1:
            out.append('<polyline fill="none" stroke="%s" stroke-width="2"%s points="%s"/>' % (
                colour, ' stroke-dasharray="%s"' % dash if dash else "",
                " ".join("%.1f,%.1f" % (px(x), py(y)) for x, y, _, _ in pts)))
        for x, y, lo, hi in pts:
            if lo is not None and hi is not None:
                out.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s"/>' % (px(x), py(lo), px(x), py(hi), colour))
            out.append('<circle cx="%.1f" cy="%.1f" r="3.5" fill="%s"><title>%s: %g %s, %g</title></circle>'
                       % (px(x), py(y), colour, escape(name), x, escape(x_unit), y))
        ly = TOP + 14 + 18 * i
        out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"%s/>' % (
            LEFT + pw + 12, ly - 4, LEFT + pw + 36, ly - 4, colour, ' stroke-dasharray="%s"' % dash if dash else ""))
        out.append('<text x="%d" y="%d" font-size="11" font-family="sans-serif">%s</text>' % (
            LEFT + pw + 42, ly, escape(name[:32])))
    out.append("</svg>")
    return "\n".join(out)
