"""The frame every HTML page of the package shares (the suite's report, html_page.py; the sweep's,
sweep_page.py; the grain search's, grain_page.py): the head and style (HEAD, one %(name)s), and the
charts this process drew inlined as SVG (Charts). Every value that came from outside goes through
html.escape (safe_text.for_html)."""
import re

from .safe_text import for_html as e   # control characters escaped, then HTML

HEAD = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>CLOMP results: %(name)s</title>
<style>
body { font-family: "DejaVu Sans", Arial, sans-serif; margin: 1.5em auto; max-width: 1000px; color: #222; line-height: 1.4; padding: 0 1em; }
h1 { border-bottom: 3px solid #1f77b4; padding-bottom: .2em; }
h2 { margin-top: 1.8em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: .5em 0; }
th, td { border: 1px solid #ccc; padding: .3em .7em; text-align: left; vertical-align: top; }
th { background: #f0f4f8; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.met { background: #d8f0d8; color: #135c13; font-weight: bold; }
.notmet { background: #f8d7d7; color: #8a1515; font-weight: bold; }
.undecided { background: #fdf0c8; color: #7a5a00; font-weight: bold; }
.na { color: #777; }
figure { margin: 1em 0; border: 1px solid #ddd; padding: .5em; }
figure svg { width: 100%%; height: auto; display: block; }
figcaption { font-size: .9em; color: #555; }
pre { background: #f7f7f7; border: 1px solid #ddd; padding: .6em; overflow-x: auto; font-size: .85em; }
</style>
</head>
<body>
<h1>CLOMP results: %(name)s</h1>"""


class Charts(object):
    """The SVGs drawn in this process, inlined with ids prefixed per chart (several SVGs, one page)."""

    def __init__(self, drawn, charts_dir_name):
        self.drawn, self.dir, self.count = drawn, charts_dir_name, 0

    def figure(self, stem, heading, caption):
        svg = self.drawn.get(stem, {}).get("svg")
        if not svg:
            return []
        self.count += 1
        p = "c%d_" % self.count
        text = svg.decode("utf-8", "replace")
        text = "\n".join(l for l in text.splitlines() if not l.startswith("<?xml") and not l.startswith("<!DOCTYPE"))
        text = re.sub(r"""id=(['"])""", r"id=\g<1>" + p, text)
        text = re.sub(r"""href=(['"])#""", r"href=\g<1>#" + p, text)
        text = text.replace("url(#", "url(#" + p)
        link = e(self.dir) + "/" + e(stem)
        return ["<h3>%s</h3>" % e(heading), "<figure>", text,
                '<figcaption>%s <a href="%s.png">PNG</a> <a href="%s.svg">SVG</a></figcaption>' % (e(caption), link, link),
                "</figure>"]
