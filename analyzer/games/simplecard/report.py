"""Simple Card's balance report: the Rank-2 risk. Every number carries its 95% interval and n; the
headline is repeated under three policy pairings (comparison runs on the run's seed, `report_runs.compare_run`),
so a reader sees whether the verdict depends on how stacks are played. The header lists our own card pool
(scenario.estimated()).

Sections: the Rank-2 headline, by restricted play (a seat that never stacks, each seat in turn, under greedy
and under a player that weighs a stack's defence) and by policy pairing; decks by number of rank-2/3 cards, with and without them
(the no_rank2 swap); first-player advantage; value of each cast technique; the balancer; per-card win
contribution; how games end.
"""
from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import yaml

from ... import positions, stats
from ...charts import errorbar_chart
from ...report_runs import NOT_RUN, compare_n, compare_run, comparing, is_the_run, run_flags
from ...reporting import Report, Scope
from ...results import matrix
from .columns import BITS
from .scenario import CT_NAMES

PAIRINGS = (("greedy vs greedy", ["greedy", "greedy"]), ("cautious vs greedy", ["cautious", "greedy"]),
            ("ct vs ct", ["ct", "ct"]))
# the defence-weighing player: greedy whose `exposure` weight prices the face-up defence a winning Main must
# then make (scenario.WEIGHTS). Against plain greedy (seats rotated, seed 7, n=12,000) it wins 48% at 0-6, 51% at
# 15, 58% from 25 to 40 (a plateau; 57.9% [57.2, 58.5] at 25, n=20,000) and 60% at 50: 25 is the plateau's start
DEFENCE_EXPOSURE = 25
STACK_PLAYERS = (("greedy", {}), (f"defence-weighing greedy (exposure {DEFENCE_EXPOSURE})",
                                  {"weights.greedy.exposure": DEFENCE_EXPOSURE}))
END_NAMES = {0: "ACT cap", 1: "Risk limit", 2: "deck and hand empty", 3: "could not place"}


# the sections built only from comparison runs (behind report_runs.comparing, for report --no-compare)
RANK2_RESTRICTED = "Rank-2 risk: what a stack is worth (restricted play)"
CT_VALUE = "Value of each cast technique"


def nested(df, col: str) -> np.ndarray:
    """A (n,P,K) column as a numpy array."""
    flat = df[col].explode().explode().to_numpy()
    return flat.reshape(df.height, 2, -1)


def difference(a: stats.Estimate, b: stats.Estimate) -> str:
    """a - b in percentage points with a 95% normal interval (the two samples taken as independent)."""
    if not a.n or not b.n:
        return "n/a"
    d = a.value - b.value
    se = np.sqrt(a.value * (1 - a.value) / a.n + b.value * (1 - b.value) / b.n)
    return f"{100 * d:+.1f} [{100 * (d - stats.Z95 * se):+.1f}, {100 * (d + stats.Z95 * se):+.1f}] points"


def rank2_counts(sc: dict) -> dict[str, int]:
    """Rank-2/3 cards in each deck of a scenario."""
    return {d["name"]: sum(n for k, n in d["cards"].items() if "/" in k) for d in sc["decks"]}


def stack_win(d, seats: list[int]) -> tuple[stats.Estimate, stats.Estimate]:
    """Win rate of `seats` in the games where they played a stack, and in those where they did not."""
    played = matrix(d, "stacks_played")[:, seats] > 0
    w = matrix(d, "is_winner").astype(bool)[:, seats]
    return (stats.proportion(int(w[played].sum()), int(played.sum())),
            stats.proportion(int(w[~played].sum()), int((~played).sum())))


def headline_numbers(d):
    """Simple Card's headline under each policy (the strong-play sections): who wins by turn position, and
    a seat's win rate in games where it played a rank-2/3 stack and where it did not."""
    from ... import skill
    v = skill.position_verdict(d)
    v.numbers["win rate, stack played"], v.numbers["win rate, no stack"] = stack_win(d, [0, 1])
    return v


def stack_rows(label: str, d, policies: list[str]) -> list[list]:
    """The Rank-2 headline of one run, one row per policy in it (seats of the same policy pooled)."""
    rows = []
    for pol in dict.fromkeys(policies):
        seats = [k for k, p in enumerate(policies) if p == pol]
        col = {c: matrix(d, c)[:, seats] for c in ("stacks_played", "stack_contacts", "stack_wins", "stack_ended",
                                                    "stack_risk")}
        contacts = int(col["stack_contacts"].sum())
        rows.append([label, pol, stats.bootstrap_mean(col["stacks_played"]).fmt(digits=2),
                     stats.proportion(int(col["stack_wins"].sum()), contacts).fmt(pct=True),
                     stats.proportion(int(col["stack_ended"].sum()), contacts).fmt(pct=True),
                     stats.bootstrap_mean(col["stack_risk"]).fmt(digits=2),
                     *[e.fmt(pct=True) for e in stack_win(d, seats)]])
    return rows


def stack_figure(pairings: dict):
    """Win rate with and without a stack played, per pairing and policy (95% intervals)."""
    fig, ax = plt.subplots(figsize=(8, 0.5 * 2 * sum(len(set(p)) for _, p in PAIRINGS) + 1.5))
    labels, ests = [], []
    for label, pol in PAIRINGS:
        for p in dict.fromkeys(pol):
            if label not in pairings:
                continue
            played, not_played = stack_win(pairings[label], [k for k, q in enumerate(pol) if q == p])
            labels += [f"{label}: {p}, stack played", f"{label}: {p}, no stack"]
            ests += [played, not_played]
    return errorbar_chart(labels, ests, "A seat's win rate in games where it played a stack, and where it did not",
                          "win rate", pct=True, reference=0.5, ax=ax)


def deck_win_rates(d, names: list[str]) -> dict[str, stats.Estimate]:
    faction, wins = matrix(d, "faction"), matrix(d, "is_winner").astype(bool)
    return {name: stats.proportion(int(wins[faction == j].sum()), int((faction == j).sum())) for j, name in enumerate(names)}


def rotated(game, meta, n_cmp, sets: dict, seat_sets) -> tuple[stats.Estimate, stats.Estimate]:
    """(wins, draws) of the seat that `seat_sets(seat)` changes, two greedy seats playing with `sets`, each
    seat changed in turn (n_cmp games each, on the run's seed): seat and turn position do not pollute it."""
    wins = draws = games = 0
    for seat in (0, 1):
        d = compare_run(game, meta, n_cmp, policies=["greedy", "greedy"], sets={**sets, **seat_sets(seat)})
        won = matrix(d, "is_winner")
        wins, draws, games = wins + int(won[:, seat].sum()), draws + int((won.sum(axis=1) == 0).sum()), games + d.height
    return stats.proportion(wins, games), stats.proportion(draws, games)


def reading(rate: stats.Estimate, draws: stats.Estimate) -> str:
    """What a restricted seat's win rate says, against an even share of the decided games."""
    even = (1 - draws.value) / 2
    if rate.lo > even:
        return "never stacking wins more: the stacks, as played, cost their player"
    if rate.hi < even:
        return "never stacking wins less: the stacks are worth playing"
    return "no measurable difference: a stack neither costs nor gains"


def restricted_stacks(rep: Report, game, meta, n_cmp) -> dict[str, tuple]:
    """Restricted play (issue #25): the seat forbidden rank-2/3 stacks against an unrestricted one, under each
    of STACK_PLAYERS; and the defence-weighing player against greedy, to show which of the two plays better."""
    out, rows = {}, []
    for label, sets in STACK_PLAYERS:
        rate, draws = rotated(game, meta, n_cmp, sets, lambda seat: {"restrict": {seat: ["no_rank2_stacks"]}})
        out[label] = (rate, draws)
        rows.append([label, rate.fmt(pct=True), f"{100 * (1 - draws.value) / 2:.1f}%", reading(rate, draws)])
    strength, _ = rotated(game, meta, n_cmp, {}, lambda seat: {f"seat_weights.{seat}.exposure": DEFENCE_EXPOSURE})
    rep.section(RANK2_RESTRICTED,
                "The win rate of a seat that may never place a rank-2/3 stack (restriction `no_rank2_stacks`) "
                "against an unrestricted player of the same policy, each seat restricted in turn (draws count as "
                "not won; an even share is half the decided games). greedy stacks whenever the stack gives the "
                "biggest margin and ignores that a winning stack stays face up, to be attacked by an opponent who "
                "can see it; the defence-weighing player is greedy whose `exposure` weight charges a winning Main "
                f"that would lose that defence {DEFENCE_EXPOSURE} times its risk points. Against plain greedy it "
                f"wins {strength.fmt(pct=True)} (rotated): the better player, so its row measures the stack's own "
                "risk, and the gap between the rows measures greedy's misuse.")
    rep.table(["players", "win rate, never stacking", "even share", "reading"], rows)
    return out


def headline(rep: Report, meta, df, pairings: dict) -> None:
    rows = []
    for label, pol in PAIRINGS:
        if label in pairings:  # absent under --no-compare
            rows += stack_rows(label, pairings[label], pol)
    rows += stack_rows("this run", df, meta["scenario"]["policies"] * (2 if len(meta["scenario"]["policies"]) == 1 else 1))
    rep.section("Rank-2 risk: does playing a stack pay?",
                "Per seat and game, under each policy pairing (comparison runs on the run's seed): rank-2/3 stacks "
                "placed; of the contacts fought with a stack as Main, the share it won and the share whose destruction "
                "brought its owner's Risk to the limit (ended its game); Risk points lost to destroyed stacks; and the "
                "seat's win rate in games where it played a stack against games where it did not (a stack is "
                "played only when drawn with its rank-1 card, so these groups differ in more than the stack).")
    rep.table(["run", "policy", "stacks played / game", "stack contacts won", "stack contacts ending the game",
               "risk lost to stacks / game", "win rate, stack played", "win rate, no stack"], rows)


def decks_section(rep: Report, game, meta, df, n_cmp) -> None:
    sc = meta["scenario"]
    names = [d["name"] for d in sc["decks"]]
    counts = rank2_counts(sc)
    here = deck_win_rates(df, names)
    no2_file = game.scenario_dir / "no_rank2.yaml"
    no2 = yaml.safe_load(no2_file.read_text()) if no2_file.is_file() else None
    without = None
    if no2 and no2["cards"] == sc["cards"] and [d["name"] for d in no2["decks"]] == names and comparing():
        without = deck_win_rates(compare_run(game, meta, n_cmp, sets={"decks": no2["decks"]}), names)
    rep.section("Decks by number of rank-2/3 cards",
                "Win rate of each deck (per seat-game: mirror matches count twice), in this run and, when the pool is "
                "the sample's, with its rank-2/3 cards swapped for rank-1 cards of similar risk (no_rank2.yaml, same seed).")
    rep.table(["deck", "rank-2/3 cards", "win rate", "win rate without rank-2/3 (no_rank2)"],
              [[nm, counts[nm], here[nm].fmt(pct=True), without[nm].fmt(pct=True) if without else "n/a (custom pool)"]
               for nm in sorted(names, key=lambda x: counts[x])])
    rep.figure(errorbar_chart([f"{nm} ({counts[nm]})" for nm in names], [here[nm] for nm in names],
                              "Win rate by deck (rank-2/3 cards)", "win rate", pct=True, reference=0.5),
               "deck_win_rate.png", "Win rate by deck, 95% intervals")


def first_player_section(rep: Report, meta, df, pairings: dict, own: tuple = ()) -> dict[str, positions.Summary]:
    """The first-player verdict of this run and of each pairing but those in `own`: the run's own setting, whose
    comparison run is a smaller sample of the same games, not another policy."""
    rows, verdicts = [], {}
    for label, d in [(positions.run_label(meta["policies"]), df), *[(k, v) for k, v in pairings.items() if k not in own]]:
        s = verdicts.setdefault(label, positions.Summary.of(d))
        rows.append([label, *[e.fmt(pct=True) for e in s.win], stats.fmt_p(s.test.p_value), s.label(), f"{d.height:,}"])
    here = next(iter(verdicts.values()))
    rep.section("First-player advantage",
                "Win rate by turn position (position 1 moves first; the higher balancer chose the order); draws "
                f"(simultaneous losses) count for neither. Verdict at the {100 * positions.ALPHA:g}% cut-off of the "
                f"fairness test on sole wins. This run: {here.verdict()}"
                + (f" Not repeated: {', '.join(own)}, this run's own setting." if own else ""))
    rep.table(["policies", *positions.labels(2), "fairness p", "verdict", "n"], rows)
    positions.policy_table(rep, verdicts)
    return verdicts


def ct_section(rep: Report, game, meta, df, n_cmp) -> None:
    used = nested(df, "cts").sum(axis=1)
    base = compare_run(game, meta, n_cmp, policies=["ct", "greedy"])
    win0 = stats.proportion(int(matrix(base, "is_winner")[:, 0].sum()), base.height)
    rows = []
    for k, name in enumerate(CT_NAMES):
        others = [c for c in CT_NAMES if c != name]
        d = compare_run(game, meta, n_cmp, policies=["ct", "greedy"], sets={"rules.enabled_cts": others})
        w = stats.proportion(int(matrix(d, "is_winner")[:, 0].sum()), d.height)
        ct_uses = nested(base, "cts")[:, 0, k]
        rows.append([name, stats.bootstrap_mean(used[:, k]).fmt(digits=3), stats.bootstrap_mean(ct_uses).fmt(digits=3),
                     w.fmt(pct=True), difference(win0, w)])
    rep.section(CT_VALUE,
                f"Uses per game in this run (both seats), and the ct policy (seat 0) against greedy (seat 1): its uses "
                f"per game and its win rate with every technique but this one. With all of them its win rate is "
                f"{win0.fmt(pct=True)}; the value is the difference (greedy never casts, so removing a technique "
                f"changes only the ct seat). The ct policy never uses Reading or Recall.")
    rep.table(["technique", "uses / game (this run)", "ct uses / game", "ct win rate without it", "value"], rows)


def balancer_section(rep: Report, game, meta, df, n_cmp) -> None:
    bonus, wins = matrix(df, "start_bonus"), matrix(df, "is_winner").astype(bool)
    first = df["first_player"].to_numpy()
    rows = []
    for diff in range(int(bonus.max() - bonus.min()) + 1):
        # (seat, games where that seat leads by diff): both seats of a tied game count (diff 0)
        leads = [(seat, (bonus[:, seat] - bonus[:, 1 - seat]) == diff) for seat in (0, 1)]
        cells = []
        for moved in (None, True, False):  # all games, the leader moving first, the leader moving second
            w = n = 0
            for seat, sel in leads:
                if moved is not None:
                    sel = sel & ((first == seat) == moved)
                w, n = w + int(wins[sel, seat].sum()), n + int(sel.sum())
            cells.append(stats.proportion(w, n).fmt(pct=True) if n else "n/a")
        if any(c != "n/a" for c in cells):
            rows.append([f"+{diff}", *cells])
    rep.section("The balancer",
                "Win rate of a seat by how much its first balancer's bonus (its lowest contact value) exceeds the "
                "opponent's (balancers change with Balance shift and Skipping; this is the first one), in all games "
                "and split by whether that seat moved first: the higher balancer chooses the order, so the pooled "
                "column mixes the bonus with the choice, and the split columns separate them.")
    rep.table(["bonus lead", "win rate", "moving first", "moving second"], rows)
    if not comparing():
        rep.text(f"Without the bonus (`balancer_bonus: false`): {NOT_RUN}.")
        return
    plain = compare_run(game, meta, n_cmp, sets={"rules.balancer_bonus": False})
    rep.text(f"Game length with the bonus: {stats.bootstrap_mean(df['length'].to_numpy()).fmt()} ACTs; without it "
             f"(`balancer_bonus: false`, same seed): {stats.bootstrap_mean(plain['length'].to_numpy()).fmt()} ACTs; "
             f"tied contacts per game: {tie_rate(df).fmt(digits=3)} against {tie_rate(plain).fmt(digits=3)}.")


def tie_rate(d) -> stats.Estimate:
    """Tied contacts per game: a contact counts once for each seat (contacts / 2 per game); a tie is won by neither."""
    contacts, won = matrix(d, "contacts").sum(axis=1) / 2, matrix(d, "contacts_won").sum(axis=1)
    return stats.bootstrap_mean(contacts - won)


def cards_section(rep: Report, df, meta) -> None:
    sc = meta["scenario"]
    keys = [c["name"] if c["rank"] == 1 else f"{c['name']}/{c['rank']}" for c in sc["cards"]]
    faction, wins = matrix(df, "faction"), matrix(df, "is_winner").astype(bool)
    words = nested(df, "played")
    rows = []
    for c, key in enumerate(keys):
        holders = np.array([key in d["cards"] for d in sc["decks"]])[faction]
        played = (words[:, :, c // BITS] >> (c % BITS)) & 1 == 1
        on, off = holders & played, holders & ~played
        if holders.any():
            a = stats.proportion(int(wins[on].sum()), int(on.sum()))
            b = stats.proportion(int(wins[off].sum()), int(off.sum()))
            rows.append([key, a.fmt(pct=True), b.fmt(pct=True), difference(a, b), a.value - b.value if a.n and b.n else 0.0])
    rows = [r[:4] for r in sorted(rows, key=lambda r: -r[4])]
    rep.section("Per-card win contribution",
                "For each card, among seat-games whose deck holds it: the win rate when the seat placed it in its Main "
                "(alone, in a stack or by Changing) and when it did not. A card that is played more in winning games "
                "is not necessarily the cause; read the difference as association.")
    rep.table(["card", "win rate when played", "win rate when not played", "difference"], rows)


def ending_section(rep: Report, df) -> None:
    end = df["end"].to_numpy()
    rows = [[END_NAMES[k], stats.proportion(int((end == k).sum()), df.height).fmt(pct=True)] for k in sorted(END_NAMES)]
    rows.append(["of which simultaneous (a draw unless simultaneous_loss says)",
                 stats.proportion(int(df["simultaneous"].sum()), df.height).fmt(pct=True)])
    rep.section("How games end", f"Mean length {stats.bootstrap_mean(df['length'].to_numpy()).fmt()} ACTs.")
    rep.table(["end", "share of games"], rows)


def write_report(game, df, meta: dict, out: Path) -> Path:
    rep = Report("Simple Card balance report: the Rank-2 risk (our own card pool)", meta, df.height)
    n_cmp = compare_n(df.height)
    if comparing():
        rep.text(f"Comparison runs: {n_cmp:,} games each on the run's seed (`{run_flags(meta, n_cmp)}` plus the change named).")
    pairings = {label: compare_run(game, meta, n_cmp, policies=pol) for label, pol in PAIRINGS} if comparing() else {}
    restricted = restricted_stacks(rep, game, meta, n_cmp) if comparing(rep, RANK2_RESTRICTED) else None
    headline(rep, meta, df, pairings)
    decks_section(rep, game, meta, df, n_cmp)
    own = tuple(label for label, pol in PAIRINGS if label in pairings and is_the_run(game, meta, policies=pol))
    verdicts = first_player_section(rep, meta, df, pairings, own)
    if comparing(rep, CT_VALUE):
        ct_section(rep, game, meta, df, n_cmp)
    balancer_section(rep, game, meta, df, n_cmp)
    cards_section(rep, df, meta)
    ending_section(rep, df)

    here = next(iter(verdicts.values()))
    rep.headline(f"Going first or second: {here.sentence()}", Scope(*positions.holds_under(verdicts)), short=here.short())
    rep.headline_figure(positions.chart(here, "Win rate by turn position (this run)"), "position_win_rate.png",
                        "Win rate by turn position (1 moves first), 95% intervals; dashed: fair share.")
    if restricted:
        rank2_headline(rep, restricted, pairings)
    from ... import player_sections  # the sections about players every report ends with
    player_sections.sections(rep, game, df, meta, verdict=headline_numbers)
    return rep.write(out)


def rank2_headline(rep: Report, restricted: dict, pairings: dict) -> None:
    (plain, _), (weighed, weighed_draws) = restricted.values()
    rep.headline(f"The Rank-2 risk: a seat that never plays a rank-2/3 stack wins {plain.fmt(pct=True)} of its "
                 f"games against greedy players, who stack for the biggest margin, and {weighed.fmt(pct=True)} "
                 f"against players who weigh the face-up defence a stack must then make (each seat restricted in "
                 f"turn): the gap is greedy's misuse; with the defence weighed, {reading(weighed, weighed_draws)}.")
    rep.headline_figure(stack_figure(pairings), "stack_win_rate.png",
                        "Win rate with and without a stack played, per policy pairing, 95% intervals.")
