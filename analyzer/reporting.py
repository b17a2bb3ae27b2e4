"""Report building shared by every game: a header that says what was run (and which data are
estimates), sections of text, tables and charts, written as Markdown + one HTML page + PNG files.

Games build a `Report` and add their balance answers; every number they add should come from
analyzer.stats with its n and 95% interval.
"""
from __future__ import annotations

import html
import os
import re
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # reports are files; never open a window
import matplotlib.pyplot as plt  # noqa: E402

from .stats import Estimate  # noqa: E402

# Comparison runs: games per variant, by default a tenth of the run's games within these limits (never more
# than the run itself); `report --compare-n N` or ANALYZER_COMPARE_N fixes the number. Workers: 2, or
# ANALYZER_COMPARE_JOBS.
COMPARE_MIN, COMPARE_MAX, COMPARE_SHARE = 2_000, 20_000, 10
COMPARE_JOBS = int(os.environ.get("ANALYZER_COMPARE_JOBS", "2"))
_compare_setting: ContextVar[int | None] = ContextVar("compare_n", default=None)


def compare_n(run_games: int) -> int:
    """Games per comparison run for a report of `run_games` games (see COMPARE_MIN above)."""
    fixed = _compare_setting.get() or int(os.environ.get("ANALYZER_COMPARE_N", "0"))
    share = fixed or max(COMPARE_MIN, min(COMPARE_MAX, run_games // COMPARE_SHARE))
    return min(share, run_games)


@contextmanager
def comparisons(n: int | None):
    """Within this block, reports' comparison runs play `n` games each (None: the default above)."""
    token = _compare_setting.set(n)
    try:
        yield
    finally:
        _compare_setting.reset(token)


@dataclass
class _Block:
    kind: str  # "h2" | "text" | "table" | "figure"
    text: str = ""
    headers: list[str] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)
    file: str = ""


class Report:
    def __init__(self, title: str, meta: dict, n_games: int):
        self.title = title
        self.meta = meta
        self.n_games = n_games
        self.blocks: list[_Block] = []
        self._figures: dict[str, plt.Figure] = {}

    # -- building -------------------------------------------------------------------------------
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
    def header_lines(self) -> list[str]:
        m = self.meta
        sc = m.get("scenario", {})
        lines = [
            f"Scenario **{sc.get('name', '?')}** (hash `{m.get('scenario_hash', '?')}`), "
            f"{sc.get('players', '?')} players, policies {', '.join(m.get('policies', []))}; "
            f"{self.n_games:,} games, seed {m.get('seed', '?')}; analyzer {m.get('analyzer_version', '?')}.",
            "Every interval is a 95% interval; n is the number of games (or seats) behind a number.",
        ]
        if m.get("command"):
            lines.append(f"Command: `{m['command']}`")
        changed = m.get("changed_rules", [])
        lines.append(f"Rules changed from the game's default scenario: {', '.join(f'`{c}`' for c in changed)}."
                     if changed else "Rules: the game's default scenario.")
        est = m.get("estimated", [])
        if est:
            lines.append(f"**Estimated data (not the published game): {len(est)} items:** {', '.join(est)}.")
        else:
            lines.append("Estimated data: none; every card and rule value comes from the published game.")
        return lines

    def write(self, out: Path) -> Path:
        """Write index.md, index.html and the PNGs into `out`; returns the Markdown path."""
        out = Path(out)
        out.mkdir(parents=True, exist_ok=True)
        for file, fig in self._figures.items():
            fig.savefig(out / file, dpi=110, bbox_inches="tight")
            plt.close(fig)
        _write_atomic(out / "index.md", self._markdown())
        _write_atomic(out / "index.html", self._html())
        return out / "index.md"

    def _markdown(self) -> str:
        parts = [f"# {self.title}", "", *[f"{x}  " for x in self.header_lines()], ""]
        for b in self.blocks:
            if b.kind == "h2":
                parts += [f"## {b.text}", ""]
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

    def _html(self) -> str:
        e = html.escape
        body = [f"<h1>{e(self.title)}</h1>"] + [f"<p class=meta>{_md_inline(x)}</p>" for x in self.header_lines()]
        for b in self.blocks:
            if b.kind == "h2":
                body.append(f"<h2>{e(b.text)}</h2>")
            elif b.kind == "text":
                body.append(f"<p>{_md_inline(b.text)}</p>")
            elif b.kind == "table":
                head = "".join(f"<th>{e(h)}</th>" for h in b.headers)
                rows = "".join("<tr>" + "".join(f"<td>{e(c)}</td>" for c in r) + "</tr>" for r in b.rows)
                body.append(f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>")
            elif b.kind == "figure":
                body.append(f"<figure><img src='{e(b.file)}' alt='{e(b.text)}'><figcaption>{e(b.text)}</figcaption></figure>")
        style = ("body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}"
                 "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}"
                 "th{background:#f3f3f3}img{max-width:100%}.meta{color:#555;margin:.2em 0}code{background:#f3f3f3}")
        return (f"<!doctype html><html><head><meta charset='utf-8'><title>{e(self.title)}</title>"
                f"<style>{style}</style></head><body>{''.join(body)}</body></html>")


def _cell(c) -> str:
    if isinstance(c, Estimate):
        return c.fmt()
    if isinstance(c, float):
        return f"{c:,.3g}"
    if isinstance(c, int):
        return f"{c:,}"
    return str(c)


def _md_inline(text: str) -> str:
    """The little Markdown our own texts use (**bold**, `code`), as HTML."""
    t = html.escape(text)
    t = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", t)
    return re.sub(r"`(.+?)`", r"<code>\1</code>", t)


def _write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def errorbar_chart(labels, estimates: list[Estimate], title: str, ylabel: str, pct: bool = False,
                   reference: float | None = None, ax=None):
    """Points with 95% interval bars, one per label; n in the tick labels."""
    fig = None
    if ax is None:
        fig, ax = plt.subplots(figsize=(max(4, 0.9 * len(labels) + 2), 3.4))
    k = 100 if pct else 1
    vals = [x.value * k for x in estimates]
    err = [[(x.value - x.lo) * k for x in estimates], [(x.hi - x.value) * k for x in estimates]]
    ax.errorbar(range(len(labels)), vals, yerr=err, fmt="o", capsize=4)
    long = max(len(str(lab)) for lab in labels) > 10
    ax.set_xticks(range(len(labels)), [f"{lab}\nn={x.n:,}" for lab, x in zip(labels, estimates, strict=True)],
                  fontsize=8, rotation=25 if long else 0, ha="right" if long else "center")
    if reference is not None:
        ax.axhline(reference * k, ls="--", color="grey", lw=1)
    ax.set_title(title, fontsize=10)
    ax.set_ylabel(ylabel + (" (%)" if pct else ""))
    ax.grid(axis="y", alpha=0.3)
    return fig or ax.figure


def variant_scenario(game, meta: dict, sets: dict | None = None, players: int | None = None,
                     policies: list[str] | None = None):
    """The run's scenario (from its metadata) with rule changes, another player count or other
    policies, for the comparison runs a report makes. With another player count and no `policies`,
    per-seat policies collapse to seat 0's."""
    import copy

    from .scenario import apply_override, validate
    data = copy.deepcopy(meta["scenario"])
    for key, value in (sets or {}).items():
        apply_override(data, key, value)
    if players is not None and players != data["players"]:
        data["players"] = players
        data["policies"] = data["policies"][:1]
    if policies is not None:
        data["policies"] = list(policies)
    return validate(game.Scenario, data, "report variant")


def run_flags(meta: dict, n: int) -> str:
    """The command-line flags that repeat a report's comparison runs: the games per value, the run's seed,
    players, policies and changed rules (a `sweep` or `tune` result depends on every one of them)."""
    sc = meta["scenario"]
    sets = "".join(f" --set {c}" for c in meta.get("changed_rules", []))
    return f"--n {n} --seed {meta['seed']} --players {sc['players']} --policy {','.join(sc['policies'])}{sets}"


def compare_run(game, meta: dict, n: int, sets: dict | None = None, players: int | None = None,
                policies: list[str] | None = None, seed_offset: int = 0):
    """A comparison run for a report: the run's scenario changed as `variant_scenario` says, played
    on the run's seed (plus `seed_offset`), so every variant meets the same dice and decks."""
    from . import variants
    sc = variant_scenario(game, meta, sets, players, policies)
    [df] = variants.play(game, sc, [variants.Variant("comparison")], n, meta["seed"] + seed_offset, COMPARE_JOBS).values()
    return df

