"""MLEM's balance report. Every number carries its 95% interval and n; verdicts are repeated under
other policies (comparison runs on the run's seed, `report_runs.compare_run`). The header lists the
estimated mat items by itself (scenario.estimated()).

Opens with the headline answers (does commanding first pay, under which policies; game length).
Sections: value of each astronaut type (its worth by restricted play, never_send_<type> against the run's
field, and what the players did with it: sent, boarded, the points credited to it by a stated rule); push-your-luck (seat 0's `risk` weight swept timid to reckless
against expected_value opponents at risk 1); turn-position fairness; crash rate by space; score spread;
how the numbers move when the (estimated) mat is edited; game length in expeditions; the mat itself
(an input, drawn as a picture and listed space by space).
"""
from __future__ import annotations

import itertools
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np

from ... import positions, stats
from ...charts import errorbar_chart
from ...report_runs import NOT_RUN, compare_n, compare_run, comparing, is_the_run
from ...reporting import Report, Scope
from ...results import matrix
from .columns import SOURCES
from .decisions import TYPE_KEYS, TYPE_NAMES, TYPES

RISKS = (0.25, 0.5, 1.0, 2.0, 4.0)
OTHER_POLICIES = (("greedy (all)", ["greedy"]), ("random (all)", ["random"]))
ON_MOON = 2  # astronaut_at codes 2..5 = placed (moon, planet, comet, galaxy)


def nested(df, col: str) -> np.ndarray:
    """A (n,P,K) column as a numpy array."""
    flat = df[col].explode().explode().to_numpy()
    return flat.reshape(df.height, int(df["n_players"][0]), -1)


def by_space(df, col: str) -> np.ndarray:
    """A (n,S) column as a numpy array."""
    return df[col].explode().to_numpy().reshape(df.height, -1)


ROW = 9  # spaces per row of the board picture (the track snakes left, right, left)


def _space_xy(i: int) -> tuple[float, float]:
    row, col = divmod(i, ROW)
    return (col if row % 2 == 0 else ROW - 1 - col) * 1.5, -row * 3.4


def board_figure(sc: dict) -> plt.Figure:
    """The mat as a picture: the track of spaces snaking from the start to deep space, each space
    with the faces usable there and its afterburner pips, and the moons (points each) or planet
    (points for 1st/2nd/3rd) it touches drawn beside it."""
    b = sc["board"]
    moons = {m["name"]: m["values"] for m in b["moons"]}
    planets = {p["name"]: p["points"] for p in b["planets"]}
    spaces = b["spaces"]
    fig, ax = plt.subplots(figsize=(11, 7.8))
    xy = [_space_xy(i) for i in range(len(spaces))]
    path = [xy[0]]
    for (x0, y0), (x1, y1) in itertools.pairwise(xy):
        if y1 != y0:  # a turn: round the row's end outside the text under its last space
            side = 0.95 if x0 > 0 else -0.95
            path += [(x0 + side, y0), (x1 + side, y1)]
        path.append((x1, y1))
    ax.plot([x for x, _ in path], [y for _, y in path], color="#bbbbbb", lw=2, zorder=1)
    sat = sc["rules"]["satellite_start_space"]
    for i, (sp, (x, y)) in enumerate(zip(spaces, xy, strict=True)):
        last = i == len(spaces) - 1
        ax.scatter([x], [y], s=900 if not last else 1500, zorder=2, edgecolors="#333333",
                   color="#222244" if last else ("#ffe9a8" if i == sat else "#e8eef7"))
        ax.text(x, y, "deep\nspace" if last else str(i), ha="center", va="center", zorder=3,
                fontsize=8 if last else 11, color="white" if last else "#222222", weight="bold")
        if not last:
            faces = " ".join(str(f) for f in sp["faces"])
            ab = f"AB={sp['ab']}" if sp["ab"] else "no AB"
            ax.text(x, y - 0.62, f"{faces}\n{ab}", ha="center", va="top", fontsize=8.5, color="#333333")
        body = sp.get("body") or ""
        if body in moons:
            for k, v in enumerate(moons[body]):
                mx, my = x - 0.3 + 0.6 * k if len(moons[body]) > 1 else x, y + 0.95
                ax.scatter([mx], [my], s=260, color="#cccccc", edgecolors="#666666", zorder=2)
                ax.text(mx, my, str(v), ha="center", va="center", fontsize=8.5, zorder=3)
        elif body in planets:
            ax.scatter([x], [y + 1.05], s=1000, color="#e07b39", edgecolors="#8a4a1f", zorder=2)
            ax.text(x, y + 1.05, "/".join(str(v) for v in planets[body]), ha="center", va="center", fontsize=8,
                    zorder=3, color="white", weight="bold")
        elif last:
            ax.text(x, y - 0.75, f"comet {b['comet']}\ngalaxy {b['galaxy']}", ha="center", va="top", fontsize=9)
    handles = [plt.scatter([], [], s=120, color=c, edgecolors=e, label=lab) for c, e, lab in (
        ("#ffe9a8", "#333333", f"satellite start (space {sat})"), ("#cccccc", "#666666", "moon (its points)"),
        ("#e07b39", "#8a4a1f", "planet (points for 1st/2nd/3rd)"))]
    ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.02), ncol=3, frameon=False)
    ax.set_title(f"The mat ({sc['board_status']}): faces usable on each space and afterburner (AB) pips; "
                 "start at 0", fontsize=11)
    ax.set_xlim(-1.1, (ROW - 1) * 1.5 + 1.1)
    ax.set_ylim(min(y for _, y in xy) - 1.5, 1.6)
    ax.set_axis_off()
    return fig


def board_section(rep: Report, sc: dict) -> None:
    b = sc["board"]
    rep.section("The mat (input)", f"Board status: **{sc['board_status']}**. The picture shows the track; the table "
                "lists it space by space: the faces usable there, the afterburner pips (0: AB forbidden) and the "
                "body it touches.")
    rep.figure(board_figure(sc), "board.png", f"The mat ({sc['board_status']}) as the scenario gives it.")
    values = {m["name"]: f"moons {m['values']}" for m in b["moons"]} | {p["name"]: f"1st/2nd/3rd {p['points']}" for p in b["planets"]}
    rep.table(["space", "faces", "AB pips", "body", "values"],
              [[i, " ".join(str(f) for f in s["faces"]), s["ab"], s["body"] or "", values.get(s["body"], "")]
               for i, s in enumerate(b["spaces"])])


CREDIT_RULE = ("a moon's, the comet's or the galaxy's points and a goal token's go to the astronaut that took them; a "
               "planet's placement points to the player's first astronaut there, the Planet x2 doubling to the Planet x2")


MIN_N = 30  # fewer seat-games than this behind a number: shown as too few, never as a finding


def _few(n: int) -> str:
    return f"too few (n={n})"


def _mean_cell(x) -> str:
    x = np.asarray(x, float)
    return stats.bootstrap_mean(x).fmt() if x.size >= MIN_N else _few(x.size)


def astronaut_rows(df) -> list[list]:
    """Per type, what the players did with it (no worth: see worth_rows): the share of seat-games in which the
    seat sent it at least once, boardings per seat-game, the points credited to it (CREDIT_RULE) per seat-game
    where it was sent, the share still placed at the end and its credited points then. A mean over fewer than
    MIN_N seat-games is shown as too few."""
    sent, boarded = nested(df, "boarded") > 0, nested(df, "boarded")
    where, points = nested(df, "astronaut_at"), nested(df, "type_points")
    rows = []
    for t in range(TYPES):
        yes, placed = sent[:, :, t], where[:, :, t] >= ON_MOON
        rows.append([TYPE_NAMES[t], stats.proportion(int(yes.sum()), yes.size).fmt(pct=True),
                     stats.bootstrap_mean(boarded[:, :, t].ravel()).fmt(), _mean_cell(points[:, :, t][yes]),
                     stats.proportion(int(placed.sum()), placed.size).fmt(pct=True), _mean_cell(points[:, :, t][placed])])
    return rows


def _pts(x: float) -> str:
    """A difference of rates in points, signed, never '-0.0'."""
    return f"{round(100 * x, 1) + 0.0:+.1f}"


def worth_rows(game, meta: dict, n: int) -> list[list]:
    """Per type, its worth by restricted play: the win rate of one seat that may never send it
    (`never_send_<type>`) against the run's unrestricted field, the seat rotated through every seat on the same
    games, next to the field's own share in those seats and the paired difference (what never sending it costs).
    The same runs as "What each element is worth" (analyzer.skill; report_runs.compare_run plays each once)."""
    from ... import skill, train
    players = meta["scenario"]["players"]
    per = skill._per_seat(n, players)
    own = matrix(compare_run(game, meta, per, sets=skill._seat_sets(meta, 0)), "is_winner").astype(bool)
    rows = []
    for t, key in enumerate(TYPE_KEYS):
        changed, lifted = np.zeros_like(own), 0
        for seat in range(players):
            d = compare_run(game, meta, per, sets=skill._seat_sets(meta, seat, restrict=[f"never_send_{key}"]))
            changed[:, seat] = matrix(d, "is_winner")[:, seat].astype(bool)
            lifted += int(matrix(d, "restrict_lifted")[:, seat].sum())
        p = train.paired(changed, own)
        g = p.gain  # never sending it minus the field's own share: the type's worth is its negative
        reading = ("worth having" if g.hi < 0 else "better never sent" if g.lo > 0 else "no worth detected at this n")
        rows.append([TYPE_NAMES[t], f"`never_send_{key}`", p.rate.fmt(pct=True), f"{100 * p.field.value:.1f}%",
                     f"{_pts(-g.value)} points [{_pts(-g.hi)}, {_pts(-g.lo)}]", reading,
                     f"{lifted:,}"])
    return rows


def headline_numbers(d):
    """MLEM's headline under each policy (the strong-play sections): the turn positions' win rates and each
    astronaut type's points credited when sent (CREDIT_RULE)."""
    from ... import skill
    v = skill.position_verdict(d)
    sent, points = nested(d, "boarded") > 0, nested(d, "type_points")
    for t in range(TYPES):
        if sent[:, :, t].any():
            v.numbers[f"{TYPE_NAMES[t]}: points when sent"] = stats.bootstrap_mean(points[:, :, t][sent[:, :, t]])
            v.means.add(f"{TYPE_NAMES[t]}: points when sent")
    return v


def placed_points(df) -> list[str]:
    """Points credited to each type when it is still placed at the end (the board edits' comparison)."""
    where, points = nested(df, "astronaut_at"), nested(df, "type_points")
    return [stats.bootstrap_mean(points[:, :, t][where[:, :, t] >= ON_MOON]).fmt() if (where[:, :, t] >= ON_MOON).any()
            else "n/a (n=0)" for t in range(TYPES)]


def crash_rates(df) -> list[stats.Estimate]:
    rolls, crashes = by_space(df, "rolls_at").sum(axis=0), by_space(df, "crashes_at").sum(axis=0)
    return [stats.proportion(int(c), int(r)) for c, r in zip(crashes, rolls, strict=True)]


def board_edits(board: dict) -> list[tuple[str, dict]]:
    """Edits of the (estimated) mat to see how much the verdicts hang on it, each as `--set` overrides
    relative to the run's own mat, so they stay valid boards (values still rising with distance) for
    any mat typed in."""
    moons, planets, spaces = board["moons"], board["planets"], board["spaces"]
    far, near = len(planets) - 1, 0
    ab = [i for i, sp in enumerate(spaces) if sp["ab"]]
    return [
        ("every moon +1 point", {f"board.moons.{g}.values": [v + 1 for v in m["values"]] for g, m in enumerate(moons)}),
        (f"farthest moons ({moons[-1]['name']}) +2", {f"board.moons.{len(moons) - 1}.values": [v + 2 for v in moons[-1]["values"]]}),
        (f"farthest planet ({planets[far]['name']}) pays 1.5x", {f"board.planets.{far}.points": [v * 3 // 2 for v in planets[far]["points"]]}),
        (f"nearest planet ({planets[near]['name']}) pays half", {f"board.planets.{near}.points": [v // 2 for v in planets[near]["points"]]}),
        ("afterburner pips -1 (at least 1)", {f"board.spaces.{i}.ab": max(spaces[i]["ab"] - 1, 1) for i in ab}),
        ("afterburner pips +1 (at most 3)", {f"board.spaces.{i}.ab": min(spaces[i]["ab"] + 1, 3) for i in ab}),
    ]


def edit_row(policies: str, label: str, d) -> list:
    rolls, crashes = by_space(d, "rolls_at").sum(), by_space(d, "crashes_at").sum()
    where, points = nested(d, "astronaut_at"), nested(d, "type_points")
    return [policies, label, stats.proportion(int(crashes), int(rolls)).fmt(pct=True),
            stats.bootstrap_mean(d["crashes"].to_numpy()).fmt(), stats.bootstrap_mean(matrix(d, "score").ravel()).fmt(),
            stats.bootstrap_mean(points[where >= ON_MOON]).fmt(), f"{d.height:,}"]


def board_edit_section(rep: Report, game, meta: dict, n: int, base) -> None:
    """How the numbers move when the mat is edited: each edit replayed on the run's seed, under the
    run's policies and under greedy."""
    edits = board_edits(meta["scenario"]["board"])
    runs = {"this run": [("the run's mat", base)] + [(label, compare_run(game, meta, n, sets=sets)) for label, sets in edits],
            "greedy (all)": [("the run's mat", compare_run(game, meta, n, policies=["greedy"]))]
            + [(label, compare_run(game, meta, n, sets=sets, policies=["greedy"])) for label, sets in edits]}
    rep.section(MAT_EDITS,
                "The mat is estimated, so how much do the numbers hang on it? Each edit below is played on the run's "
                "seed (the first row of each policy: the run's own mat on the same games). Crash rate = crashes per "
                "roll; astronaut value = mean points credited to a placed astronaut.")
    rep.table(["policies", "mat", "crash rate", "crashes per game", "mean score", "astronaut value", "n"],
              [edit_row(policies, label, d) for policies, rs in runs.items() for label, d in rs])
    rep.text("Points credited to each astronaut type when it is still placed at the end, by the rule of "
             "[Value of each astronaut type](#value-of-each-astronaut-type) (this run's policies):")
    values = [placed_points(d) for _, d in runs["this run"]]
    rep.table(["astronaut", *[label for label, _ in runs["this run"]]],
              [[TYPE_NAMES[t], *[v[t] for v in values]] for t in range(TYPES)])


ASTRONAUTS = "Value of each astronaut type"


def astronaut_section(rep: Report, game, meta: dict, df, others: list, n: int) -> None:
    """What an astronaut type is worth, by restricted play; then what the players did with each type."""
    rep.section(ASTRONAUTS,
                "**What a type is worth** is measured by restricted play: one seat may never send the type "
                "(`never_send_<type>`), the rest of the table plays as in the run, the restricted seat rotated through "
                f"every seat ({skill_games(n, meta):,} games in each, the same games for every type). The type's "
                "worth: the field's own share in the same seats on the same games minus that seat's win rate (paired "
                "95% interval); a type is worth having when its worth's interval lies above 0, better never sent when "
                "below. This replaces comparing the games in "
                "which a seat sent a type with those in which it did not: a seat sends an astronaut where it expects "
                "to gain, so those games differ in more than the astronaut (a selection effect), and a type sent in "
                "nearly every game leaves a handful of games to compare it with.")
    if comparing():
        rep.table(["astronaut", "restriction", "win rate never sending it", "the field's own share",
                   "worth (points)", "reading", "lifted (decisions)"], worth_rows(game, meta, n))
    else:
        rep.text(f"Restricted play: {NOT_RUN}.")
    rep.text("**What the players did with each type**, per seat and game: the share of games in which the seat sent "
             "it at least once, boardings per game, the points credited to it when sent (" + CREDIT_RULE + "; 0 when "
             f"it never scored), the share of games it ended on a body and its credited points then. A mean over "
             f"fewer than {MIN_N} seat-games is shown as too few. These describe play; they are not a worth.")
    for label, d in [("this run", df), *others]:
        rep.text(f"**{label}** ({d.height:,} games):")
        rep.table(["astronaut", "sent", "boardings per game", "points credited when sent", "placed at the end",
                   "points credited when placed at the end"], astronaut_rows(d))


def skill_games(n: int, meta: dict) -> int:
    """The games of one rotation of restricted play at n games per comparison run (analyzer.skill.one_seat)."""
    from ... import skill
    return skill._per_seat(n, meta["scenario"]["players"])


PUSH_YOUR_LUCK, MAT_EDITS = "Push your luck: timid to reckless", "If the mat is different"  # comparison sections


def push_your_luck(rep: Report, game, meta: dict, n_cmp: int) -> None:
    """One expected_value seat at each risk weight against three at the default (4 players)."""
    risk_rows, risk_win = [], []
    for r in RISKS:
        d = compare_run(game, meta, n_cmp, players=4, policies=["expected_value"], sets={"seat_weights": {0: {"risk": r}}})
        win = stats.proportion(int(matrix(d, "is_winner")[:, 0].sum()), d.height)
        risk_win.append(win)
        risk_rows.append([f"{r:g}", win.fmt(pct=True), stats.bootstrap_mean(matrix(d, "score")[:, 0]).fmt()])
    rep.section(PUSH_YOUR_LUCK,
                "Seat 0 plays expected_value with the risk below against three expected_value opponents at risk 1 "
                "(4 players); fair share 25%.")
    rep.table(["seat 0 risk", "seat 0 win rate", "seat 0 mean points"], risk_rows)
    rep.figure(errorbar_chart([f"risk {r:g}" for r in RISKS], risk_win, "Seat 0 win rate by risk", "win rate", pct=True,
                              reference=0.25), "risk_win_rate.png", "Win rate of one seat by its risk, 95% intervals")


def write_report(game, df, meta: dict, out: Path) -> Path:
    sc = meta["scenario"]
    players = sc["players"]
    rep = Report(f"MLEM: Space Agency balance report ({players} players, {sc['board_status']} mat)", meta, df.height)
    n_cmp = compare_n(df.height)
    # the other policies (not the run's own setting: its comparison run would be the run's first games again)
    others = [(label, compare_run(game, meta, n_cmp, policies=pol)) for label, pol in OTHER_POLICIES
              if not is_the_run(game, meta, policies=pol)] if comparing() else []
    if not others:
        rep.text(f"The tables below show this run only: the runs under other policies were {NOT_RUN}.")
    astronaut_section(rep, game, meta, df, others, n_cmp)
    if comparing(rep, PUSH_YOUR_LUCK):
        push_your_luck(rep, game, meta, n_cmp)
    verdicts = position_section(rep, meta, df, others)
    crash_section(rep, sc, df, others)
    score_section(rep, df, others)
    if comparing(rep, MAT_EDITS):
        board_edit_section(rep, game, meta, n_cmp, df.head(n_cmp))
    length_section(rep, df, others)
    board_section(rep, sc)
    headlines(rep, sc, df, verdicts)
    from ... import player_sections  # the sections about players every report ends with
    player_sections.sections(rep, game, df, meta, verdict=headline_numbers)
    return rep.write(out)


def position_section(rep: Report, meta: dict, df, others) -> dict[str, positions.Summary]:
    """Does commanding first pay, in this run and under the other policies; returns each one's verdict."""
    rows, verdicts = [], {}
    for label, d in [(positions.run_label(meta["policies"]), df), *others]:
        s = verdicts[label] = positions.Summary.of(d)
        rows.append([label, *[e.fmt(pct=True) for e in s.win], stats.fmt_p(s.test.p_value), s.label(), f"{d.height:,}"])
    here = verdicts[next(iter(verdicts))]
    players = meta["scenario"]["players"]
    rep.section("Does commanding first pay?",
                f"Win rate by turn position (position 1 commands the first expedition); fair share {100 / players:.1f}%. "
                f"Verdict: fairness test on sole wins at the {100 * positions.ALPHA:g}% cut-off. This run: {here.verdict()}")
    rep.table(["policies", *positions.labels(players), "fairness p", "verdict", "n"], rows)
    positions.policy_table(rep, verdicts)
    return verdicts


def crash_section(rep: Report, sc: dict, df, others) -> None:
    rates = {label: crash_rates(d) for label, d in [("this run", df), *others]}
    rep.section("Crash rate by space",
                "Crashes per roll made on each space (all commanders); rolls within a game are not independent, "
                "so the intervals are a little narrow. Deep space is never rolled on.")
    rep.table(["space", *rates], [[i, *[r[i].fmt(pct=True) for r in rates.values()]]
                                   for i in range(len(sc["board"]["spaces"]) - 1)])


def score_section(rep: Report, df, others) -> None:
    rows = []
    for label, d in [("this run", df), *others]:
        score = matrix(d, "score")
        spread = score.max(axis=1) - score.min(axis=1)
        by_source = nested(d, "points").sum(axis=(0, 1)) / max(score.sum(), 1)
        rows.append([label, stats.bootstrap_mean(score.ravel()).fmt(), stats.bootstrap_mean(spread).fmt(),
                     ", ".join(f"{s} {100 * x:.0f}%" for s, x in zip(SOURCES, by_source, strict=True))])
    rep.section("Score spread", "Mean score per player, mean gap between the highest and lowest score of a game, "
                "and where the points come from.")
    rep.table(["policies", "mean score", "mean top-bottom gap", "points by source"], rows)


def length_section(rep: Report, df, others) -> None:
    rows = []
    for label, d in [("this run", df), *others]:
        end = d["end"].to_numpy()
        rows.append([label, stats.bootstrap_mean(d["length"].to_numpy()).fmt(),
                     stats.bootstrap_mean(d["crashes"].to_numpy()).fmt(),
                     stats.proportion(int((end == 1).sum()), d.height).fmt(pct=True), f"{int(d['capped'].sum()):,}"])
    rep.section("Game length", "Expeditions per game, crashes per game, share of games ended by the crash track "
                "(the rest: a player placed all 8), and games stopped at the expedition cap (draws).")
    rep.table(["policies", "expeditions", "crashes", "ended by crashes", "capped"], rows)


def headlines(rep: Report, sc: dict, df, verdicts: dict[str, positions.Summary]) -> None:
    """Commanding first (this run's verdict, and the policy settings it holds under) and the game's length."""
    here = verdicts[next(iter(verdicts))]
    rep.headline(f"Commanding first ({sc['players']} players): {here.sentence()}", Scope(*positions.holds_under(verdicts)),
                 short=here.short())
    rep.headline_figure(positions.chart(here, "Win rate by turn position (this run)"), "position_win_rate.png",
                        "Win rate by turn position (1 commands the first expedition), 95% intervals; dashed: fair share.")
    rep.headline(f"A game lasts {stats.bootstrap_mean(df['length'].to_numpy()).fmt()} expeditions, with "
                 f"{stats.bootstrap_mean(df['crashes'].to_numpy()).fmt()} crashes; the mat is "
                 f"{sc['board_status']} (drawn in [The mat](#the-mat-input)).")
