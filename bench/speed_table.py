"""Render the README's one speed table from bench/out/bench.json (written by `analyzer bench`) into
docs/speed-table.md and into the README, between its speed-table markers. The table is never edited by
hand: rerun the bench, then this script."""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TITLES = {"stop": "STOP (matches)", "spacebase": "Space Base", "mlem": "MLEM", "simplecard": "Simple Card",
          "cosmic": "Simply Cosmic", "pig": "Pig"}
COLUMNS = [  # header, bench.json key (the 1e6 CLI run's keys end in its n), format
    ("games/s, 1 core", "games_per_s_1job", "{:,.0f}"),
    ("2 threads vs 1", "speedup_2_vs_1", "{:.2f}x"),
    ("2 threads vs 2 loky processes", "threads_vs_loky", "{:.2f}x"),
    ("kernel vs floor probe", "kernel_cost_vs_floor", "{:.1f}x"),
    ("cold compile", "cold_compile_s", "{:.0f} s"),
    ("`sim --n {n}` wall", "cli_wall_s_", "{:.1f} s"),
    ("peak RSS", "peak_rss_mib_", "{:,.0f} MiB"),
]


def _value(row: dict, key: str) -> tuple[str | None, float | None]:
    """(the n of a CLI-run key, its value); keys ending in `_` take the run's n from the JSON."""
    if not key.endswith("_"):
        return None, row.get(key)
    hits = [(k.removeprefix(key), v) for k, v in row.items() if k.startswith(key)]
    return hits[0] if hits else (None, None)


def render(bench: dict) -> str:
    games = [g for g in TITLES if "games_per_s_1job" in bench.get(g, {})]
    runs = {_value(bench[g], "cli_wall_s_")[0] for g in games} - {None}
    n = runs.pop() if len(runs) == 1 else "N"
    head = ["game", *(h.format(n=n) for h, _, _ in COLUMNS)]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for g in games:
        cells = []
        for _, key, fmt in COLUMNS:
            _, v = _value(bench[g], key)
            cells.append("n/a" if v is None else fmt.format(v))
        quick = " (quick)" if bench[g].get("quick") else ""
        lines.append(f"| {TITLES[g]}{quick} | " + " | ".join(cells) + " |")
    m = bench.get("machine", {})
    notes = [f"Measured by `make bench` on {m.get('cpus', '?')} cores (load average {m.get('load_average_at_start', '?')} "
             f"at the start), Python {m.get('python', '?')}; dates per game in bench/out/bench.json."]
    stop = bench.get("stop", {})
    if "ratio_hands_per_s_vs_rlcard_uno_games_per_s" in stop:
        notes.append(f"STOP plays {stop['hands_per_s_1job']:,.0f} hands/s on one core: "
                     f"{stop['ratio_hands_per_s_vs_rlcard_uno_games_per_s']:,.0f}x RLCard's UNO "
                     f"({bench['rlcard_uno_games_per_s']:,.0f} games/s, 4 random players).")
    return "\n".join(lines + [""] + notes + search_table(bench)) + "\n"


def search_table(bench: dict) -> list[str]:
    """The search player's cost per searchable game (bench/run.py's search_bench), one core."""
    rows = [(g, bench[g]["search"]) for g in TITLES if "search" in bench.get(g, {})]
    if not rows:
        return []
    lines = ["", "| search (one seat, default budget, 1 core) | rollouts/s | rollouts per decision | per decision "
             "| decisions per game | per game | report section, 2 cores |", "|---|---|---|---|---|---|---|"]
    for g, r in rows:
        section = f"{r['report_section_s_2cores'] / 60:,.1f} min" if "report_section_s_2cores" in r else "n/a"
        lines.append(f"| {TITLES[g]} ({r['rollouts_per_option']} per option) | {r['rollouts_per_s_1core']:,.0f} | "
                     f"{r['rollouts_per_decision']:,.0f} | {1000 * r['s_per_decision_1core']:,.1f} ms | "
                     f"{r['decisions_per_game']:.0f} | {r['s_per_game_1core']:,.2f} s | {section} |")
    lines.append("")
    lines.append("The report section's time is estimated from the cost per decision above at the game's SearchPlan "
                 "(bench/run.py, report_section_s); the goal is at most 10 minutes.")
    return lines


BEGIN, END = "<!-- speed-table: bench/speed_table.py writes this -->", "<!-- /speed-table -->"


def main() -> None:
    src = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "bench" / "out" / "bench.json"
    table = render(json.loads(src.read_text()))
    out = ROOT / "docs" / "speed-table.md"
    out.write_text(table)
    readme = ROOT / "README.md"
    text, n = re.subn(re.escape(BEGIN) + ".*?" + re.escape(END), lambda _: f"{BEGIN}\n{table}{END}",
                      readme.read_text(), flags=re.S)
    if n == 1:
        readme.write_text(text)
    print(f"wrote {out}" + (" and the README's table" if n == 1 else " (the README has no speed-table markers)"))


if __name__ == "__main__":
    main()
