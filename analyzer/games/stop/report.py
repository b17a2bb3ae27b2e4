"""STOP balance report: scoring spread per hand and by player count, the share of symbol cards in it,
match length, the advantage of each turn position (position 1 = the first dealer), and the effect of rule parameters.

The results file holds one player count and one rule set; the by-player-count and rule-parameter
sections come from comparison runs of `report_runs.compare_n` matches each (same seed, same scenario otherwise),
made here and labelled as such. Rule effects are measured under each policy at every seat (a rule a
policy never triggers cannot move its numbers: the report says so when a run comes out identical).
"""
from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np

from ... import positions, stats
from ...charts import errorbar_chart
from ...report_runs import compare_n, compare_run, comparing
from ...reporting import Report, Scope
from ...results import matrix

# The rule parameters of stop.md whose effect the report measures, each changed from the run's value:
# booleans flipped, two-way choices to the other reading, the Achtung rate between 0 and 0.2.
FLIPPED = ("starter_redraw_wild", "starter_effects", "play_drawn_card", "must_play_if_able", "xplus_zero_cancels",
           "xplus_card_effects")
READINGS = {"two_plus_drawer": ("skipped", "plays"), "out_player_scores": ("held", "zero")}
# Why a policy can leave a rule untouched (shown when a variant's run is identical to the scenario's).
NEVER_TRIGGERS = {
    ("greedy", "must_play_if_able"): "greedy never declines a legal card, so it plays exactly as when it must",
}
# How the first dealer is chosen (rules.first_dealer), and what it means for a position verdict.
FIRST_DEALER = {
    "random": "The first dealer is drawn at random for every match, so position and seat are independent.",
    "seat0": ("Seat 0 always deals the first hand (first_dealer: seat0), so position k is always seat k-1: with "
              "mixed policies position and policy cannot be told apart, and no position verdict is drawn from such "
              "a run (the per-hand table below rotates the dealer over the seats)."),
}
BY_PLAYER_COUNT, RULE_EFFECTS = "By player count", "Effect of rule parameters"  # the comparison-run sections


def rule_variants(rules: dict) -> list[tuple[str, str, dict]]:
    """(label, parameter, overrides) for each rule change, after the unchanged scenario."""
    out = [("as scenario", "", {})]
    for key in FLIPPED:
        out.append((f"{key}: {str(not rules[key]).lower()}", key, {f"rules.{key}": not rules[key]}))
    for key, (a, b) in READINGS.items():
        value = b if rules[key] == a else a
        out.append((f"{key}: {value}", key, {f"rules.{key}": value}))
    rate = 0.2 if rules["achtung_forget_rate"] == 0 else 0.0
    out.append((f"achtung_forget_rate: {rate}", "achtung_forget_rate", {"rules.achtung_forget_rate": rate}))
    return out


def same_games(a, b) -> bool:
    """Two runs of the same seed played identical matches (every score and length equal)."""
    return a["length"].equals(b["length"]) and np.array_equal(matrix(a, "score"), matrix(b, "score"))


def write_report(game, df, meta: dict, out: Path) -> Path:
    players = int(df["n_players"][0])
    rep = Report(f"STOP balance report ({players} players)", meta, df.height)
    n_cmp = compare_n(df.height)
    here = position_section(rep, df, meta, players)
    spread_section(rep, df, players)
    length_section(rep, df, meta)
    verdicts = {here_label(meta): here}
    if comparing(rep, BY_PLAYER_COUNT):
        by_player_count(rep, game, df, meta, n_cmp)
    if comparing(rep, RULE_EFFECTS):
        rule_effects(rep, game, meta, n_cmp, players, verdicts)
    headlines(rep, df, meta, verdicts)
    from ... import player_sections  # the sections about players every report ends with
    player_sections.sections(rep, game, df, meta, verdict=headline_numbers)
    return rep.write(out)


def position_section(rep: Report, df, meta: dict, players: int) -> positions.Summary:
    """The position advantage (position 1 = the first dealer, who plays first; later hands rotate), and every
    hand by position relative to its dealer; returns this run's verdict."""
    here = positions.Summary.of(df)
    rep.section("Win rate by position (position 1 = the first dealer, who plays first)",
                f"A fair game gives each position about 1/{players} = {100 / players:.1f}% (a shared win counts "
                f"for every sharer). {here.verdict()} {FIRST_DEALER[meta['scenario']['rules']['first_dealer']]}")
    labels = positions.labels(players)
    rep.table(["position", "win rate"], [[lab, e.fmt(pct=True)] for lab, e in zip(labels, here.win, strict=True)])
    positions.policy_table(rep, {here_label(meta): here})
    length = df["length"].to_numpy()
    rel_pen = matrix(df, "dealer_rel_penalty") / length[:, None]
    rel_out = matrix(df, "dealer_rel_out")
    hands = int(length.sum())
    rep.text("Every hand, by position relative to that hand's dealer (the dealer plays first): mean penalty per "
             "hand (bootstrap over matches) and share of hands in which that position went out first.")
    rep.table(["position", "penalty per hand", "went out (called STOP)"],
              [["dealer" if k == 0 else f"dealer + {k}", stats.bootstrap_mean(rel_pen[:, k]).fmt(),
                stats.proportion(int(rel_out[:, k].sum()), hands).fmt(pct=True)] for k in range(players)])
    return here


def spread_section(rep: Report, df, players: int) -> None:
    """The scoring spread in this run: the penalty of a hand, the symbol cards' share, the final penalty."""
    first = matrix(df, "first_hand_penalty")
    score = matrix(df, "score")
    sym = matrix(df, "symbol_penalty")
    share = stats.ratio_of_sums(sym.sum(axis=1), score.sum(axis=1))
    rep.section("Scoring spread",
                "Per-hand penalty is measured on each match's first hand (every seat, one hand per match, "
                "so the samples are independent); 0 is the hand's winner.")
    q = stats.quantile_table(first)
    rep.table(["measure", "value"], [
        ["mean penalty per player per hand", stats.bootstrap_mean(first).fmt()],
        ["median / 5% / 95% quantile", f"{q['q50']:.0f} / {q['q05']:.0f} / {q['q95']:.0f} (n={first.size:,} seat-hands)"],
        ["share of the match penalty from symbol cards (Pause, Swap, X+, wild)", share.fmt(pct=True)],
        ["mean final penalty per player", stats.bootstrap_mean(score).fmt()],
        ["matches with a capped hand", stats.proportion(int((df["capped_hands"] > 0).sum()), df.height).fmt(pct=True)],
    ])
    fig, ax = plt.subplots(figsize=(6, 3.2))
    ax.hist(first.ravel(), bins=np.arange(0, np.percentile(first, 99.5) + 10, 5), color="#4477aa")
    ax.set_xlabel("penalty of one player in one hand")
    ax.set_ylabel("seat-hands")
    ax.set_title(f"Per-hand penalty, {players} players (n={first.size:,})", fontsize=10)
    rep.figure(fig, "hand_penalty_hist.png", "Distribution of one player's penalty in a hand (first hands).")


def length_section(rep: Report, df, meta: dict) -> None:
    length = df["length"].to_numpy()
    rep.section("Match length", f"Hands until a player reaches {meta['scenario']['rules']['match_limit']} "
                f"penalty points: mean {stats.bootstrap_mean(length).fmt()}; median {np.median(length):.0f}, "
                f"95% of matches within {np.percentile(length, 95):.0f} hands.")
    fig, ax = plt.subplots(figsize=(6, 3.2))
    ax.hist(length, bins=np.arange(length.min(), length.max() + 2) - 0.5, color="#228833")
    ax.set_xlabel("hands per match")
    ax.set_ylabel("matches")
    ax.set_title(f"Match length (n={df.height:,})", fontsize=10)
    rep.figure(fig, "match_length_hist.png", "Match length in hands.")


def headlines(rep: Report, df, meta: dict, verdicts: dict[str, positions.Summary]) -> None:
    """Going first (this run's verdict, and the policy settings it holds under) and the match's length."""
    here = verdicts[here_label(meta)]
    players = int(df["n_players"][0])
    rep.headline(f"Going first ({players} players, position 1 = the first dealer): {here.sentence()}",
                 Scope(*positions.holds_under(verdicts)), short=here.short())
    rep.headline_figure(positions.chart(here), "position_win_rate.png",
                        ("Win rate by policy" if here.differ is None else "Win rate by position (1 = the first dealer)")
                        + ", 95% Wilson intervals; dashed: the fair share (wins per match over players).")
    rep.headline(f"A match lasts {stats.bootstrap_mean(df['length'].to_numpy()).fmt()} hands (to "
                 f"{meta['scenario']['rules']['match_limit']} penalty points); a player's hand costs "
                 f"{stats.bootstrap_mean(matrix(df, 'first_hand_penalty')).fmt()} penalty points on average.")


def headline_numbers(d):
    """STOP's headline under each policy (the strong-play sections): the positions' win rates and the
    scoring spread (mean gap between a match's highest and lowest final penalty)."""
    from ... import skill
    v = skill.position_verdict(d)
    score = matrix(d, "score")
    v.numbers["score spread (points)"] = stats.bootstrap_mean(score.max(axis=1) - score.min(axis=1))
    v.means.add("score spread (points)")
    return v


def by_player_count(rep, game, df, meta: dict, n_cmp: int) -> None:
    """Comparison runs at every player count, seat 0's policy at every seat (the run itself is reused
    only if it was played so)."""
    players = int(df["n_players"][0])
    policy = meta["policies"][0]
    uniform = all(q == policy for q in meta["policies"])
    rows, pen_est, len_est, share_est, labels = [], [], [], [], []
    for p in range(game.Scenario.MIN_PLAYERS, game.Scenario.MAX_PLAYERS + 1):
        reuse = p == players and n_cmp == df.height and uniform
        d = df if reuse else compare_run(game, meta, n_cmp, sets={"policies": [policy]}, players=p)
        f = matrix(d, "first_hand_penalty")
        pe = stats.bootstrap_mean(f)
        le = stats.bootstrap_mean(d["length"].to_numpy())
        se = stats.ratio_of_sums(matrix(d, "symbol_penalty").sum(axis=1), matrix(d, "score").sum(axis=1))
        first = positions.win_estimates(d)[0]
        labels.append(f"{p}p")
        pen_est.append(pe)
        len_est.append(le)
        share_est.append(se)
        rows.append([p, pe.fmt(), f"{np.percentile(f, 95):.0f}", se.fmt(pct=True), le.fmt(), first.fmt(pct=True)])
    mixed = "" if uniform else (f" The run itself mixes policies ({', '.join(meta['policies'])}), so its own "
                                f"player count is a comparison run too.")
    rep.section(BY_PLAYER_COUNT, f"Comparison runs of {n_cmp:,} matches per player count, {policy} at every "
                f"seat in every row (seat 0's policy of the run).{mixed}")
    rep.table(["players", "penalty per player per hand", "95% quantile", "symbol-card share", "match length (hands)",
               "position 1 win rate"], rows)
    fig, axes = plt.subplots(1, 3, figsize=(12, 3.4))
    errorbar_chart(labels, pen_est, "Penalty per player per hand", "penalty", ax=axes[0])
    errorbar_chart(labels, share_est, "Share of penalty from symbol cards", "share", pct=True, ax=axes[1])
    errorbar_chart(labels, len_est, "Match length", "hands", ax=axes[2])
    fig.tight_layout()
    rep.figure(fig, "by_player_count.png", "Scoring spread, symbol-card share and match length by player count (95% intervals).")



def rule_effects(rep, game, meta: dict, n_cmp: int, players: int, verdicts: dict) -> None:
    """One comparison run per rule change and policy; each policy's unchanged run joins `verdicts`."""
    policy = meta["policies"][0]
    uniform = all(q == policy for q in meta["policies"])
    variants = rule_variants(meta["scenario"]["rules"])
    # the run's own policies first, then every policy at every seat
    policies = [meta["policies"]] if not uniform else []
    policies += [[q] for q in sorted(game.playing_policies, key=lambda q: not (uniform and q == policy))]
    rep.section(RULE_EFFECTS, f"Each row is a comparison run of {n_cmp:,} matches with one rule "
                f"changed from the scenario ({players} players, same seed), once per policy: a verdict should "
                f"hold under more than one. 'identical' marks a run that played exactly the scenario's "
                f"matches (same seed, every score equal): under that policy the rule changed no outcome.")
    fig, axes = plt.subplots(len(policies), 1, figsize=(9, 4.6 * len(policies)), squeeze=False)
    for ax, pols in zip(axes[:, 0], policies, strict=True):
        who = pols[0] if len(pols) == 1 else "the run's policies (" + ", ".join(pols) + ")"
        rows, len_est, labels, notes = [], [], [], []
        base = None
        for label, key, sets in variants:
            d = compare_run(game, meta, n_cmp, sets={**sets, "policies": pols})
            if base is None:
                base = d
                verdicts.setdefault(f"{who} at every seat" if len(pols) == 1 else who, positions.Summary.of(d))
            le = stats.bootstrap_mean(d["length"].to_numpy())
            pe = stats.bootstrap_mean(matrix(d, "first_hand_penalty"))
            first = positions.win_estimates(d)[0]
            moves = stats.bootstrap_mean(d["moves"].to_numpy() / d["length"].to_numpy())
            same = key and same_games(d, base)
            if same and (why := NEVER_TRIGGERS.get((who, key))):
                notes.append(f"`{label}` under {who}: identical, because {why}.")
            labels.append(label)
            len_est.append(le)
            rows.append([label + (" (identical)" if same else ""), le.fmt(), pe.fmt(), moves.fmt(), first.fmt(pct=True)])
        rep.text(f"**{who} at every seat.**" if len(pols) == 1 else f"**{who}.**")
        rep.table(["rule", "match length (hands)", "penalty per player per hand", "plays per hand",
                   "position 1 win rate"], rows)
        if notes:
            rep.text(" ".join(notes))
        errorbar_chart(labels, len_est, f"Match length by rule, {who} (dashed: as scenario)", "hands",
                       reference=len_est[0].value, ax=ax)
    fig.tight_layout()
    rep.figure(fig, "rule_effects.png", "Match length under single rule changes, per policy (95% intervals).")



def here_label(meta: dict) -> str:
    pols = meta["policies"]
    return f"{pols[0]} at every seat" if len(set(pols)) == 1 else "the run's policies (" + ", ".join(pols) + ")"
