"""Simply Cosmic's balance report. Every number carries its 95% interval and n; the alien verdict is
repeated under other policies (all heuristic, all cautious, mixed) and under the estimated choices
(destiny composition, Laser reading, Grief model, play order) by comparison runs on the run's seed
(`report_runs.compare_run`). The header lists every estimated datum (scenario.estimated()).

Sections: alien win rates vs the fair share (per policy setting); one replay per alien win; pairwise
matchups (heatmap); start-player advantage; game length and how games are won; deal success; the
sensitivity of the alien ranking to the estimated choices.
"""
from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np

from ... import positions, stats
from ...charts import errorbar_chart
from ...report_runs import NOT_RUN, compare_n, compare_run, comparing, is_the_run, run_flags
from ...reporting import Report, Scope
from ...results import matrix
from .state import ALIEN_NAMES

# (label, policies (None: heuristic and cautious alternating), weight changes)
POLICY_SETTINGS = (("all heuristic", ["heuristic"], None), ("all cautious", ["cautious"], None),
                   ("mixed (heuristic, cautious alternating)", None, None),
                   # a habit of both heuristics: they invite allies whenever the ally's win is not its last base
                   ("all heuristic, stricter invitations (invite_below 0.4: only while the side's odds alone "
                    "are below 40%)", ["heuristic"], {"weights.heuristic.invite_below": 0.4}))
SENSITIVITY = (("destiny: no reverse cards (5 regular per colour)",
                {"deck.destiny.regular_per_colour": 5, "deck.destiny.reverse_per_colour": 0}),
               ("destiny: no instructions or comets (4 wild)",
                {"deck.destiny.wild": 4, "deck.destiny.most_foreign_bases": 0, "deck.destiny.player_on_left": 0,
                 "deck.destiny.power_outage": 0, "deck.destiny.tenacious_defense": 0}),
               ("laser_reading: ffg", {"rules.laser_reading": "ffg"}),
               ("grief_model: none", {"rules.grief_model": "none"}),
               ("play_order: clockwise (the spec's wording)", {"rules.play_order": "clockwise"}),
               # what the readings settled in issue 22's third pass moved: the engine's behaviour before them
               ("earlier readings: tokens home together, a home planet with no base, power lost as tokens leave",
                {"rules.home_tokens_split": "together", "rules.home_without_base": "home_planet",
                 "rules.power_loss_timing": "immediate"}))


def readings(rules: dict) -> str:
    """The named readings this run played (the game's docstring and docs/rule-readings.md explain them)."""
    return ("Readings: Cosmic Zap `cosmic_zap_window: {cosmic_zap_window}`; fewer than 4 players "
            "`unowned_system: {unowned_system}`, `unowned_defense: {unowned_defense}`; tokens going home "
            "`home_tokens_split: {home_tokens_split}`, `home_without_base: {home_without_base}`; "
            "`power_loss_timing: {power_loss_timing}`; `laser_ffg_no_card: {laser_ffg_no_card}`.".format(**rules))


def alien_rates(df) -> list[tuple[str, stats.Estimate]]:
    """(alien, win rate when dealt) for every alien dealt at least once (n: seats dealt it)."""
    fac, wins = matrix(df, "faction"), matrix(df, "is_winner").astype(bool)
    out = []
    for a, name in enumerate(ALIEN_NAMES):
        dealt = fac == a
        n = int(dealt.sum())
        if n:
            out.append((name, stats.proportion(int(wins[dealt].sum()), n)))
    return out


def fair_share(df) -> float:
    """The expected win rate of a seat: wins per game (shared wins count for each) over players."""
    return float(matrix(df, "is_winner").sum(axis=1).mean()) / int(df["n_players"][0])


def verdict(est: stats.Estimate, fair: float) -> str:
    if est.lo > fair:
        return "strong"
    if est.hi < fair:
        return "weak"
    return "fair"


def mixed_policies(players: int) -> list[str]:
    return [("heuristic", "cautious")[k % 2] for k in range(players)]


def replay_rows(df, meta) -> list[list]:
    sc = meta["scenario"]
    flags = f"--players {sc['players']} --policy {','.join(sc['policies'])}"
    flags += "".join(f" --set {c}" for c in meta.get("changed_rules", []))
    fac, wins = matrix(df, "faction"), matrix(df, "is_winner").astype(bool)
    ids = df["game_id"].to_numpy()
    rows = []
    for a, name in enumerate(ALIEN_NAMES):
        won = np.flatnonzero((wins & (fac == a)).any(axis=1))
        if len(won):
            rows.append([name, f"`analyzer replay cosmic --seed {meta['seed']} --game {ids[won[0]]} {flags}`"])
    return rows


def matchup_matrix(df) -> tuple[np.ndarray, np.ndarray]:
    """rate[a, b]: a's win rate in games where b is also dealt; n[a, b] those games."""
    fac, wins = matrix(df, "faction"), matrix(df, "is_winner").astype(bool)
    k = len(ALIEN_NAMES)
    present = np.stack([(fac == a).any(axis=1) for a in range(k)], axis=1)
    won = np.stack([(wins & (fac == a)).any(axis=1) for a in range(k)], axis=1)
    n = present.T.astype(np.int64) @ present.astype(np.int64)
    w = won.T.astype(np.int64) @ present.astype(np.int64)
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = np.where(n > 0, w / np.maximum(n, 1), np.nan)
    np.fill_diagonal(rate, np.nan)
    return rate, n


def heatmap(rate: np.ndarray, n: np.ndarray, fair: float) -> plt.Figure:
    """Row alien's win rate per column alien, each cell with its 95% half-width; the colour scale is
    centred on the fair share and wide enough for every cell, and a cell's text is light on dark colours."""
    _, lo, hi = stats.wilson(np.nan_to_num(rate) * n, np.maximum(n, 1))
    reach = max(5.0, float(np.ceil(np.nanmax(np.abs(rate - fair)) * 100)))
    fig, ax = plt.subplots(figsize=(9, 7.5))
    im = ax.imshow(rate * 100, cmap="RdBu_r", vmin=100 * fair - reach, vmax=100 * fair + reach)
    ax.set_xticks(range(len(ALIEN_NAMES)), ALIEN_NAMES, rotation=45, ha="right")
    ax.set_yticks(range(len(ALIEN_NAMES)), ALIEN_NAMES)
    ax.set_xlabel("opponent dealt in the same game")
    ax.set_ylabel("alien")
    for i in range(rate.shape[0]):
        for j in range(rate.shape[1]):
            if not np.isnan(rate[i, j]):
                r, g, b, _ = im.cmap(im.norm(100 * rate[i, j]))
                light = 0.299 * r + 0.587 * g + 0.114 * b < 0.5
                ax.text(j, i, f"{100 * rate[i, j]:.0f}\n±{50 * (hi[i, j] - lo[i, j]):.0f}", ha="center",
                        va="center", fontsize=9, color="white" if light else "black")
    fig.colorbar(im, ax=ax, label=f"win rate (%), centred on the fair share {100 * fair:.1f}%")
    ax.set_title("Row alien's win rate (%) when the column alien is also in the game\n"
                 "(below each rate: the half-width of its 95% interval)")
    return fig


def alien_verdicts(d) -> dict[str, tuple[stats.Estimate, str]]:
    f = fair_share(d)
    return {name: (est, verdict(est, f)) for name, est in alien_rates(d)}


def short_verdict(aliens: dict[str, tuple[stats.Estimate, str]], fair: float) -> str:
    """The alien verdict in a few words, for the all-games index: which aliens are off the fair share, by how
    much, and how sure (95% intervals clear of it, n: seats dealt each)."""
    best = max(aliens, key=lambda a: aliens[a][0].value)
    worst = min(aliens, key=lambda a: aliens[a][0].value)
    off = sum(v != "fair" for _, v in aliens.values())
    seats = min(e.n for e, _ in aliens.values())
    gap = 100 * (aliens[best][0].value - aliens[worst][0].value)
    if not off:
        return (f"**No alien off the fair share** ({100 * fair:.1f}%): every 95% interval holds it; the extremes "
                f"{best} and {worst} are {gap:.1f} points apart (at least {seats:,} seats each).")
    return (f"**Unbalanced aliens**: {best} wins {100 * aliens[best][0].value:.1f}%, {worst} "
            f"{100 * aliens[worst][0].value:.1f}% (fair share {100 * fair:.1f}%): {gap:.1f} points apart; {off} of "
            f"{len(aliens)} aliens strong or weak beyond their 95% intervals (at least {seats:,} seats each).")


SENSITIVITY_TITLE = "Sensitivity of the alien ranking to the estimated choices and the readings"


def sensitivity(rep, game, df, meta: dict, n_cmp: int, names: list[str]) -> None:
    """The alien table with one estimated choice changed per column (comparison runs, same seed)."""
    variants = [("this run", df)] + [(label, compare_run(game, meta, n_cmp, sets=sets)) for label, sets in SENSITIVITY]
    rep.section(SENSITIVITY_TITLE,
                "Each column replays the run's scenario with one estimated choice changed, or (the last) with the "
                "readings this version settled set back to the engine's earlier behaviour, so it shows what they "
                f"moved (same seed, {n_cmp:,} games). Rank 1 = the highest win rate.")
    table = {name: [name] for name in names}
    for _label, d in variants:
        rates = alien_rates(d)
        order = sorted(rates, key=lambda r: -r[1].value)
        rank = {name: i + 1 for i, (name, _) in enumerate(order)}
        for name, est in rates:
            if name in table:
                table[name].append(f"{est.fmt(pct=True)} (#{rank[name]})")
    rep.table(["alien", *[label for label, _ in variants]], list(table.values()))


def write_report(game, df, meta: dict, out: Path) -> Path:
    sc = meta["scenario"]
    players = sc["players"]
    rep = Report(f"Simply Cosmic balance report ({players} players, estimated deck and powers)", meta, df.height)
    n_cmp = compare_n(df.height)
    fair = fair_share(df)
    rep.text(readings(sc["rules"]))
    this, settings = policy_settings(rep, game, df, meta, n_cmp)
    names = alien_section(rep, df, meta, settings, fair, n_cmp)

    rows = replay_rows(df, meta)
    rep.section("One game won by each alien", "Read it move by move with:")
    rep.table(["alien", "replay"], rows)

    rate, n = matchup_matrix(df)
    rep.section("Pairwise matchups",
                "Row alien's win rate in the games where the column alien was also dealt (n per cell: "
                f"{int(n[~np.eye(len(ALIEN_NAMES), dtype=bool)].min()):,} to {int(n.max()):,} games). A cell far from "
                "the row's overall rate says the pairing matters.")
    rep.figure(heatmap(rate, n, fair), "matchups.png",
               "Pairwise matchups (row alien's win rate, %, with the half-width of its 95% interval)")

    start = start_section(rep, settings, this, players)
    length_section(rep, settings)
    deal_section(rep, settings)
    if comparing(rep, SENSITIVITY_TITLE):
        sensitivity(rep, game, df, meta, n_cmp, names)
    headlines(rep, df, players, settings, names, fair, start, this)
    from ... import (  # the sections about players every report ends with (headline: the alien win rates)
        player_sections,
        skill,
    )
    player_sections.sections(rep, game, df, meta, verdict=lambda d: skill.rates_verdict(dict(alien_rates(d)), fair_share(d)))
    return rep.write(out)


def policy_settings(rep, game, df, meta: dict, n_cmp: int) -> tuple[str, list]:
    """(this run's label, [(label, results)] of every policy setting): the aliens under each policy setting;
    the run's own setting is the run (its comparison run would be a smaller sample of the same games, not
    another policy)."""
    players = meta["scenario"]["players"]
    this, others = "this run", []
    for label, pol, sets in POLICY_SETTINGS:
        if is_the_run(game, meta, sets, policies=pol or mixed_policies(players)):
            this = f"this run ({label})"
        else:
            others.append((label, pol, sets))
    settings = [(this, df)]
    if comparing():
        for label, pol, sets in others:
            settings.append((label, compare_run(game, meta, n_cmp, sets=sets, policies=pol or mixed_policies(players))))
    else:
        rep.text(f"The tables below show this run only: the runs under other policies were {NOT_RUN}.")
    return this, settings


def alien_section(rep, df, meta: dict, settings: list, fair: float, n_cmp: int) -> list[str]:
    """Each alien's win rate under every policy setting; returns the aliens' names."""
    players = meta["scenario"]["players"]
    rep.section("Win rate per alien",
                f"Win rate of a seat dealt the alien (shared wins count for each winner). The fair share is the mean "
                f"wins per game over {players} players ({100 * fair:.1f}% in this run: shared wins lift it above "
                f"{100 / players:.0f}%). Verdict: strong/weak when the whole 95% interval is above/below the fair "
                f"share of that run. Every power model is an estimate (Grief's invented). Comparison runs: "
                f"`{run_flags(meta, n_cmp)}` with the policies named.")
    names = [name for name, _ in alien_rates(df)]
    rows = {name: [name] for name in names}
    for _label, d in settings:
        f = fair_share(d)
        for name, est in alien_rates(d):
            if name in rows:
                rows[name].append(f"{est.fmt(pct=True)} ({verdict(est, f)})")
    rep.table(["alien", *[label for label, _ in settings]], list(rows.values()))
    return names


def start_section(rep, settings: list, this: str, players: int) -> dict:
    """Does starting pay, under every policy setting; returns each setting's position verdict."""
    rows, start = [], {}
    for label, d in settings:
        s = start.setdefault(label, positions.Summary.of(d))
        rows.append([label, *[e.fmt(pct=True) for e in s.win], stats.fmt_p(s.test.p_value), s.label(), f"{d.height:,}"])
    rep.section("Does starting pay?",
                "Win rate by turn position (position 1 is the start player picked by the destiny deck); verdict at the "
                f"{100 * positions.ALPHA:g}% cut-off of the fairness test on sole wins. This run: {start[this].verdict()}")
    rep.table(["policies", *positions.labels(players), "fairness p", "verdict", "n"], rows)
    positions.policy_table(rep, start)
    return start


def length_section(rep, settings: list) -> None:
    rows = []
    for label, d in settings:
        won = d["win_by"].to_numpy()
        decided = int((won > 0).sum())
        rows.append([label, stats.bootstrap_mean(d["length"].to_numpy()).fmt(),
                     stats.bootstrap_mean(d["challenges"].to_numpy()).fmt(),
                     *[stats.proportion(int((won == k).sum()), max(decided, 1)).fmt(pct=True) for k in (1, 2, 3)],
                     stats.proportion(int((d["outcome"] == "shared").sum()), d.height).fmt(pct=True),
                     f"{int(d['capped'].sum()):,}", f"{d.height:,}"])
    rep.section("Game length and how games are won",
                "Turns and challenges per game; the share of decided games whose last challenge was a won attack, a "
                "deal, or a re-establish; shared wins; games stopped at the turn cap (draws).")
    rep.table(["policies", "turns", "challenges", "won by attack", "by deal", "by re-establish", "shared",
               "capped", "n"], rows)


def deal_section(rep, settings: list) -> None:
    rows = []
    for label, d in settings:
        made, failed = int(d["deals_made"].sum()), int(d["deals_failed"].sum())
        rows.append([label, f"{made + failed:,}", stats.proportion(made, max(made + failed, 1)).fmt(pct=True),
                     stats.bootstrap_mean((d["deals_made"] + d["deals_failed"]).to_numpy()).fmt()])
    rep.section("Deal success",
                "Compromise against compromise: deals proposed and answered by the policies (no deal is assumed). "
                "Deals within a game are not independent, so the intervals are a little narrow.")
    rep.table(["policies", "deals tried", "success", "deals per game"], rows)


def headlines(rep, df, players: int, settings: list, names: list[str], fair: float, start: dict, this: str) -> None:
    """The aliens (strongest and weakest, and the policy settings that agree) and starting (`start`: each
    setting's position verdict, `this` the run's)."""
    def ends(v):  # (strongest, weakest) alien of a setting's verdicts
        return max(v, key=lambda a: v[a][0].value), min(v, key=lambda a: v[a][0].value)

    aliens = alien_verdicts(df)
    best, worst = ends(aliens)
    # the verdict holds where the same aliens are strongest and weakest, with the same verdicts
    keeps, differs = [], []
    for label, v in ((label, alien_verdicts(d)) for label, d in settings):
        strong, weak = ends(v)
        if (strong, weak) == (best, worst) and (v[best][1], v[worst][1]) == (aliens[best][1], aliens[worst][1]):
            keeps.append(label)
        else:
            differs.append(f"{label} (strongest {strong} {v[strong][0].fmt(pct=True)}, weakest {weak})")
    rep.headline(f"The aliens ({players} players): the strongest, {best}, wins {aliens[best][0].fmt(pct=True)} "
                 f"({aliens[best][1]}), the weakest, {worst}, {aliens[worst][0].fmt(pct=True)} ({aliens[worst][1]}), "
                 f"against a fair share of {100 * fair:.1f}% (strong/weak: the whole 95% interval above/below it); "
                 f"{sum(v == 'fair' for _, v in aliens.values())} of {len(aliens)} aliens are fair.",
                 Scope(keeps, differs), short=short_verdict(aliens, fair))
    rep.headline_figure(errorbar_chart(names, [aliens[a][0] for a in names], "Win rate per alien (this run)",
                                       "win rate", pct=True, reference=fair), "alien_win_rate.png",
                        "Win rate per alien with 95% intervals; the line is the fair share")
    rep.headline(f"Starting: {start[this].sentence()}", Scope(*positions.holds_under(start)))
    rep.headline_figure(positions.chart(start[this], "Win rate by turn position (this run)"),
                        "position_win_rate.png", "Win rate by turn position (1 = start player), 95% intervals.")
