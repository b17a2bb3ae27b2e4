"""Report building shared by every game: under its title and table of contents, a page opens with its
headline answers (one sentence each, with numbers and intervals, and a chart), then says what was run
(and which data are estimates), then the sections of text, tables and charts; written as Markdown +
one HTML page + PNG files + summary.json (what the all-games index shows, see `write_index`).

Games build a `Report` and add their balance answers; every number they add should come from
analyzer.stats with its n and 95% interval.
"""
from __future__ import annotations

import html
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from .charts import plt  # matplotlib as reports draw: to files, in the page's sizes
from .report_runs import NOT_RUN, comparing
from .stats import Estimate

FIGURE_DPI = 110
ESTIMATED_SHOWN = 8  # estimated items named in the header; the full list is linked below it
ESTIMATED_TITLE = "Estimated data"  # the section that lists every estimated item when they are many


@dataclass
class _Block:
    kind: str  # "h2" | "text" | "table" | "figure"
    text: str = ""
    headers: list[str] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)
    file: str = ""


@dataclass
class Scope:
    """The policy settings under which the headline verdict holds, and those under which it does not."""
    holds: list[str]
    fails: list[str]

    def text(self) -> str:
        return (f"The same verdict under: {', '.join(self.holds)}"
                + (f"; a different one under: {', '.join(self.fails)}." if self.fails else "."))


class Report:
    def __init__(self, title: str, meta: dict, n_games: int):
        self.title = title
        self.meta = meta
        self.n_games = n_games
        self.headlines: list[_Block] = []  # the page's opening answers
        self.scope: Scope | None = None  # of the first headline (the verdict the index shows)
        self.blocks: list[_Block] = []
        self._sentences: list[str] = []  # the headline sentences without their scope (for the index)
        self._figures: dict[str, plt.Figure] = {}
        self.skill = ""  # the "Skill and luck" reading (analyzer.skill), shown in the all-games index
        self.search = ""  # whether the headline verdict holds under search play (analyzer.search_report), too
        self.verdict = ""  # the first headline in a few words (what is unbalanced, by how much, how sure): the index's
        self.chart = ""  # the first headline chart's file: the index's thumbnail

    # -- building -------------------------------------------------------------------------------
    def headline(self, sentence: str, scope: Scope | None = None, short: str = "") -> None:
        """One headline answer: a sentence with its numbers and intervals (and, for the first, the
        policy settings its verdict holds under); shown first on the page and in the index. `short`: the
        verdict in a few words (what is unbalanced, by how much, how sure), which the index shows for the
        first headline."""
        if not self.headlines:
            self.verdict = short
            if scope is not None and self.scope is None:
                self.scope = scope
        self.headlines.append(_Block("text", f"{sentence} {scope.text()}" if scope else sentence))
        self._sentences.append(sentence)

    def headline_figure(self, fig: plt.Figure, file: str, caption: str) -> None:
        self._figures[file] = fig
        self.chart = self.chart or file
        self.headlines.append(_Block("figure", caption, file=file))

    def section(self, title: str, text: str = "") -> None:
        self.blocks.append(_Block("h2", title))
        if text:
            self.text(text)

    def text(self, text: str) -> None:
        self.blocks.append(_Block("text", text))

    def table(self, headers: list[str], rows: list[list], caption: str = "") -> None:
        if caption:
            self.text(caption)
        self.blocks.append(_Block("table", headers=headers, rows=[[_cell(c) for c in r] for r in rows]))

    def figure(self, fig: plt.Figure, file: str, caption: str) -> None:
        self._figures[file] = fig
        self.blocks.append(_Block("figure", caption, file=file))

    # -- writing --------------------------------------------------------------------------------
    def estimated(self) -> list[str]:
        return list(self.meta.get("estimated", []))

    def estimated_line(self) -> str:
        """The estimated-data flag: every item when few, else a count, the first few and a link to the list."""
        est = self.estimated()
        if not est:
            if self.meta.get("changed_rules") or self.meta.get("variant"):  # an edit is not the published game
                return ("Estimated data: none; every card and rule value comes from the published game, except the "
                        "changes named above.")
            return "Estimated data: none; every card and rule value comes from the published game."
        head = f"**Estimated data (not the published game): {len(est)} items:** "
        if len(est) <= ESTIMATED_SHOWN:
            return head + ", ".join(est) + "."
        return (head + ", ".join(est[:ESTIMATED_SHOWN]) + f" and {len(est) - ESTIMATED_SHOWN} more "
                f"([full list](#{anchor(ESTIMATED_TITLE)})).")

    def header_lines(self) -> list[str]:
        m = self.meta
        sc = m.get("scenario", {})
        lines = [
            f"{'Base: scenario' if m.get('variant') else 'Scenario'} **{sc.get('name', '?')}** (hash `{m.get('scenario_hash', '?')}`), "
            f"{sc.get('players', '?')} players, policies {', '.join(m.get('policies', []))}; "
            f"{self.n_games:,} games, seed {m.get('seed', '?')}; analyzer {m.get('analyzer_version', '?')}.",
            "Every interval is a 95% interval; n is the number of games (or seats) behind a number.",
        ]
        if m.get("command"):
            lines.append(f"Command: `{m['command']}`")
        if m.get("stopping"):
            from .stopping import header_line
            lines.append(header_line(m["stopping"]))
        variant = m.get("variant")  # a comparison's other side (analyzer compare)
        lines.append(rules_line(m.get("changed_rules", []), "The base's rules" if variant else "Rules"))
        if variant:
            lines.append(variant_line(variant))
        lines.append(self.estimated_line())
        if not comparing():
            lines.append(f"Comparison runs: {NOT_RUN}; the sections built from them say so, and every other "
                         "table shows this run alone.")
        return lines

    def _page(self) -> list[_Block]:
        """Every block in page order: headline answers, what was run, the sections, the estimated list."""
        blocks = [_Block("h2", "Headline answers"), *self.headlines,
                  _Block("h2", "What was run"), *[_Block("text", x) for x in self.header_lines()], *self.blocks]
        if len(self.estimated()) > ESTIMATED_SHOWN:
            blocks += [_Block("h2", ESTIMATED_TITLE), _Block("text", ", ".join(self.estimated()) + ".")]
        return blocks

    def summary(self) -> dict:
        """What the all-games index shows of this report."""
        first = self._sentences[0] if self._sentences else ""
        scope = self.scope or Scope([], [])
        return {"title": self.title, "game": self.meta.get("game", ""), "headline": first,
                "holds_under": scope.holds, "not_under": scope.fails, "estimated": self.estimated(),
                "n_games": self.n_games, "policies": list(self.meta.get("policies", [])), "skill": self.skill,
                "search": self.search, "verdict": self.verdict, "chart": self.chart}

    def write(self, out: Path) -> Path:
        """Write index.md, index.html, summary.json and the PNGs into `out`; returns the Markdown path."""
        out = Path(out)
        out.mkdir(parents=True, exist_ok=True)
        for file, fig in self._figures.items():
            fig.savefig(out / file, dpi=FIGURE_DPI, bbox_inches="tight")
            plt.close(fig)
        blocks = self._page()
        _write_atomic(out / "index.md", _markdown(self.title, blocks))
        _write_atomic(out / "index.html", _html(self.title, blocks))
        _write_atomic(out / "summary.json", json.dumps(self.summary(), indent=1))
        return out / "index.md"


def rules_line(changed: list[str], who: str = "Rules") -> str:
    """What the header says of a scenario's rules: every rule changed from the game's default scenario
    (simulation.changed_rules), or that there is none. Reports name an edit by this diff, never "printed" or "the
    default"."""
    return (f"{who} changed from the game's default scenario: {', '.join(f'`{c}`' for c in changed)}."
            if changed else f"{who}: the game's default scenario.")


def variant_line(v: dict) -> str:
    """A comparison's variant in the header: its name and hash, what it changes from the base, and its rules
    against the game's default (keys of `v`: name, hash, changes, changed_rules)."""
    changes = ", ".join(f"`{c}`" for c in v.get("changes", [])) or "nothing (the same scenario)"
    return (f"Variant: scenario **{v.get('name', '?')}** (hash `{v.get('hash', '?')}`), the base with {changes}. "
            + rules_line(v.get("changed_rules", []), "Its rules"))


def anchor(title: str) -> str:
    """The id of a section heading (also its link target in the table of contents)."""
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


def _contents(blocks: list[_Block]) -> list[tuple[str, str]]:
    return [(b.text, anchor(b.text)) for b in blocks if b.kind == "h2"]


def _markdown(title: str, blocks: list[_Block]) -> str:
    toc = _contents(blocks)
    parts = [f"# {title}", "", *(["Contents: " + " · ".join(f"[{t}](#{a})" for t, a in toc), ""] if toc else [])]
    for b in blocks:
        if b.kind == "h2":
            parts += [f'<a id="{anchor(b.text)}"></a>', "", f"## {b.text}", ""]
        elif b.kind == "text":
            parts += [b.text, ""]
        elif b.kind == "table":
            parts.append("| " + " | ".join(b.headers) + " |")
            parts.append("|" + "---|" * len(b.headers))
            parts += ["| " + " | ".join(r) + " |" for r in b.rows]
            parts.append("")
        elif b.kind == "figure":
            parts += [f"![{b.text}]({b.file})", "", f"*{b.text}*", ""]
    return "\n".join(parts)


STYLE = ("body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222;"
         "line-height:1.45}table{border-collapse:collapse;margin:1em 0}"
         "td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}th{background:#f3f3f3}"
         "img{max-width:100%}code{background:#f3f3f3}nav{background:#f7f7f7;padding:.5em 1em;margin:1em 0}"
         "nav ol{margin:.3em 0;columns:2}h2{border-bottom:1px solid #ddd;padding-bottom:.2em;margin-top:1.6em}")


def _html(title: str, blocks: list[_Block], contents: bool = True, style: str = "") -> str:
    e = html.escape
    toc = "".join(f"<li><a href='#{a}'>{e(t)}</a></li>" for t, a in _contents(blocks))
    body = [f"<h1>{e(title)}</h1>"] + ([f"<nav><b>Contents</b><ol>{toc}</ol></nav>"] if contents else [])
    for b in blocks:
        if b.kind == "h2":
            body.append(f"<h2 id='{anchor(b.text)}'>{e(b.text)}</h2>")
        elif b.kind == "text":
            body.append(f"<p>{_md_inline(b.text)}</p>")
        elif b.kind == "table":
            head = "".join(f"<th>{e(h)}</th>" for h in b.headers)
            rows = "".join("<tr>" + "".join(f"<td>{_md_inline(c)}</td>" for c in r) + "</tr>" for r in b.rows)
            body.append(f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>")
        elif b.kind == "figure":
            body.append(f"<figure><img src='{e(b.file)}' alt='{e(b.text)}'><figcaption>{e(b.text)}</figcaption></figure>")
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{e(title)}</title>"
            f"<style>{STYLE}{style}</style></head><body>{''.join(body)}</body></html>")


def _cell(c) -> str:
    if isinstance(c, Estimate):
        return c.fmt()
    if isinstance(c, float):
        return f"{c:,.3g}"
    if isinstance(c, int):
        return f"{c:,}"
    return str(c)


def _md_inline(text: str) -> str:
    """The little Markdown our own texts use (**bold**, `code`, [link](target), ![image](file)), as HTML."""
    t = html.escape(text)
    t = re.sub(r"`(.+?)`", r"<code>\1</code>", t)
    t = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", t)
    t = re.sub(r"!\[([^\]]*)\]\(([^)\s]+)\)", r"<img src='\2' alt='\1'>", t)
    return re.sub(r"\[([^\]]+)\]\(([^)\s]+)\)", r"<a href='\2'>\1</a>", t)


def _write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


SKILL_WORDS = ("skill matters", "skill and luck both count", "mostly luck")  # analyzer.skill's readings
THUMB_PX = 240  # the index's chart thumbnails, in CSS pixels


def short_verdict(s: dict) -> str:
    """A report's verdict in a few words for the index: its own (Report.verdict), else the headline's first
    clause (a summary.json written before the short verdict existed)."""
    if s.get("verdict"):
        return s["verdict"]
    head = s.get("headline", "")
    return head.split(";")[0] + ("; …" if ";" in head else "")


def short_scope(s: dict) -> str:
    """The policy settings the verdict holds under, as a count, and the names of those it does not."""
    holds, fails = s.get("holds_under", []), s.get("not_under", [])
    if not holds and not fails:
        return "this run's policies only"
    text = f"{len(holds)} of {len(holds) + len(fails)} policy settings"
    return text + (f"; not under: {', '.join(_setting_name(f) for f in fails)}" if fails else "")


INDEX_NAME_CHARS = 40  # a longer setting name is cut before its first parenthesis in the index


def _setting_name(fail: str) -> str:
    """A setting of Scope.fails in a few words: without the verdict it gives (its last parenthesis), and a long
    name without its own note: 'z (all) (no verdict)' -> 'z (all)'."""
    name = _without_last_paren(fail)
    return name.split(" (")[0] if len(name) > INDEX_NAME_CHARS else name


def _without_last_paren(fail: str) -> str:
    if not fail.endswith(")"):
        return fail
    depth = 0
    for i in range(len(fail) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(fail[i], 0)
        if depth == 0:
            return fail[:i].rstrip() or fail
    return fail


def short_skill(text: str) -> str:
    """analyzer.skill's reading in its few words ("skill matters", ...), or the text when it has none."""
    found = [w for w in SKILL_WORDS if w in text]
    return max(found, key=len) if found else (text or "not measured")


def headline_chart(folder: Path, s: dict) -> str:
    """The file of a report's first headline chart: its summary's, else the first image under its page's
    "Headline answers" (a report written before summaries named it); '' when it has none."""
    if s.get("chart"):
        return s["chart"]
    md = folder / "index.md"
    head = md.read_text(encoding="utf-8").split("## Headline answers", 1)[-1].split("\n## ", 1)[0] if md.is_file() else ""
    found = re.search(r"!\[[^\]]*\]\(([^)\s]+)\)", head)
    return found.group(1) if found else ""


def write_index(out: Path, folders: list[str]) -> Path:
    """`out`/index.html and index.md: every game at a glance, one row per report folder of `out` named in
    `folders` (each written by Report.write): its verdict in a few words (what is unbalanced, by how much,
    how sure), its headline chart as a thumbnail, how many policy settings the verdict holds under, under
    search play, skill and luck, its estimated data as a count; the details (every headline with its
    intervals, the estimated list) behind links to the report (its page of the same kind). Returns the HTML path."""
    out = Path(out)
    summaries = [(f, json.loads((out / f / "summary.json").read_text(encoding="utf-8"))) for f in folders]
    title = "analyzer: balance reports of every game"
    intro = _Block("text", "Every game at a glance: its verdict in a few words (95% intervals, n games), its headline "
                   "chart, how many of the policy settings tried give the same verdict, and how many of its data are "
                   "estimates rather than the published game. Each report opens with its headline answers in full: "
                   "follow its details link.")
    skill = any(s.get("skill") for _, s in summaries)
    search = any(s.get("search") for _, s in summaries)
    headers = ["game", "verdict", "headline chart", "the verdict holds under",
               *(["under search play"] if search else []), *(["skill and luck"] if skill else []),
               "estimated data", "games"]

    def blocks(page: str) -> list[_Block]:
        rows = []
        for folder, s in summaries:
            est = s["estimated"]
            where = anchor(ESTIMATED_TITLE if len(est) > ESTIMATED_SHOWN else "What was run")  # see Report._page
            flags = "none" if not est else f"[{len(est)} items]({folder}/{page}#{where})"
            details = f"{folder}/{page}#{anchor('Headline answers')}"
            file = headline_chart(out / folder, s)
            chart = f"[![{s['title']}: headline chart]({folder}/{file})]({folder}/{file})" if file else "none"
            rows.append([f"[{s['title']}]({folder}/{page})", f"{short_verdict(s)} ([details]({details}))", chart,
                         short_scope(s), *([s.get("search") or "not measured"] if search else []),
                         *([short_skill(s.get("skill", ""))] if skill else []), flags, f"{s['n_games']:,}"])
        return [intro, _Block("table", headers=headers, rows=rows)]

    _write_atomic(out / "index.md", _markdown(title, blocks("index.md")))
    _write_atomic(out / "index.html", _html(title, blocks("index.html"), contents=False, style=(
        "body{max-width:1500px}th,td{text-align:left;vertical-align:top}td:last-child{text-align:right}"
        f"td img{{width:{THUMB_PX}px;max-width:none}}")))
    return out / "index.html"
