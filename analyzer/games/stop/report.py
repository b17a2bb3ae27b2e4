"""STOP balance report: scoring spread per hand and by player count, the share of symbol cards in it,
match length, seat advantage relative to the first dealer, and the effect of rule parameters.

The results file holds one player count and one rule set; the by-player-count and rule-parameter
sections come from comparison runs of `COMPARE_N` matches each (same seed, same scenario otherwise),
made here and labelled as such.
"""
from __future__ import annotations

import os
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np

from ... import api, stats
from ...reporting import Report, errorbar_chart, variant_scenario
from ...results import matrix

COMPARE_N = int(os.environ.get("ANALYZER_COMPARE_N", "20000"))
COMPARE_JOBS = int(os.environ.get("ANALYZER_COMPARE_JOBS", "2"))
# Rule changes whose effect the report measures: (label, scenario overrides).
RULE_VARIANTS = [
    ("as scenario", {}),
    ("play_drawn_card: true", {"rules.play_drawn_card": True}),
    ("must_play_if_able: false", {"rules.must_play_if_able": False}),
    ("achtung_forget_rate: 0.2", {"rules.achtung_forget_rate": 0.2}),
    ("xplus_zero_cancels: false", {"rules.xplus_zero_cancels": False}),
    ("starter_effects: true", {"rules.starter_effects": True}),
]


def _compare(game, meta, n, sets=None, players=None):
    sc = variant_scenario(game, meta, sets, players)
    return api.sim(game, n=n, seed=meta["seed"], scenario=sc, jobs=COMPARE_JOBS)


def write_report(game, df, meta: dict, out: Path) -> Path:
    players = int(df["n_players"][0])
    rep = Report(f"STOP balance report ({players} players)", meta, df.height)
    n_cmp = min(COMPARE_N, df.height)

    # -- seat advantage ------------------------------------------------------------------------
    wins = matrix(df, "is_winner").astype(bool)
    seat_est = [stats.proportion(int(wins[:, s].sum()), df.height) for s in range(players)]
    sole = df.filter(df["winner"] >= 0)["winner"].to_numpy()
    fair = stats.seat_fairness(np.bincount(sole, minlength=players))
    rep.section("Win rate by seat (seat 0 = first dealer, who plays first)",
                f"A fair game gives each seat about 1/{players} = {100 / players:.1f}% (a shared win counts "
                f"for every sharer). Seat fairness test on sole wins: {fair.fmt()}. "
                + ("**The seats differ more than chance explains.**" if fair.p_value < 0.01 else
                   "No evidence that the seats differ."))
    rep.table(["seat", "win rate"], [[s, e.fmt(pct=True)] for s, e in enumerate(seat_est)])
    rep.figure(errorbar_chart([f"seat {s}" for s in range(players)], seat_est, "Win rate by seat", "win rate",
                              pct=True, reference=1 / players), "seat_win_rate.png",
               "Win rate by seat relative to the first dealer, 95% Wilson intervals; dashed: 1/players.")

    length = df["length"].to_numpy()
    rel_pen = matrix(df, "dealer_rel_penalty") / length[:, None]
    rel_out = matrix(df, "dealer_rel_out")
    hands = int(length.sum())
    rep.text("Every hand, by position relative to that hand's dealer (the dealer plays first): mean penalty per "
             "hand (bootstrap over matches) and share of hands in which that position went out first.")
    rep.table(["position", "penalty per hand", "went out (called STOP)"],
              [["dealer" if k == 0 else f"dealer + {k}", stats.bootstrap_mean(rel_pen[:, k]).fmt(),
                stats.proportion(int(rel_out[:, k].sum()), hands).fmt(pct=True)] for k in range(players)])

    # -- scoring spread in this run --------------------------------------------------------------
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

    # -- match length ----------------------------------------------------------------------------
    rep.section("Match length", f"Hands until a player reaches {meta['scenario']['rules']['match_limit']} "
                f"penalty points: mean {stats.bootstrap_mean(length).fmt()}; median {np.median(length):.0f}, "
                f"95% of matches within {np.percentile(length, 95):.0f} hands.")
    fig, ax = plt.subplots(figsize=(6, 3.2))
    ax.hist(length, bins=np.arange(length.min(), length.max() + 2) - 0.5, color="#228833")
    ax.set_xlabel("hands per match")
    ax.set_ylabel("matches")
    ax.set_title(f"Match length (n={df.height:,})", fontsize=10)
    rep.figure(fig, "match_length_hist.png", "Match length in hands.")

    # -- by player count (comparison runs) --------------------------------------------------------
    rows, pen_est, len_est, share_est, labels = [], [], [], [], []
    for p in range(game.Scenario.MIN_PLAYERS, game.Scenario.MAX_PLAYERS + 1):
        d = df if p == players and n_cmp == df.height else _compare(game, meta, n_cmp, players=p)
        f = matrix(d, "first_hand_penalty")
        pe = stats.bootstrap_mean(f)
        le = stats.bootstrap_mean(d["length"].to_numpy())
        se = stats.ratio_of_sums(matrix(d, "symbol_penalty").sum(axis=1), matrix(d, "score").sum(axis=1))
        seat0 = stats.proportion(int(matrix(d, "is_winner")[:, 0].sum()), d.height)
        labels.append(f"{p}p")
        pen_est.append(pe)
        len_est.append(le)
        share_est.append(se)
        rows.append([p, pe.fmt(), f"{np.percentile(f, 95):.0f}", se.fmt(pct=True), le.fmt(), seat0.fmt(pct=True)])
    rep.section("By player count", f"Comparison runs of {n_cmp:,} matches per player count (policies: "
                f"{meta['policies'][0]} at every seat unless the scenario gives one policy for all).")
    rep.table(["players", "penalty per player per hand", "95% quantile", "symbol-card share", "match length (hands)",
               "seat 0 win rate"], rows)
    fig, axes = plt.subplots(1, 3, figsize=(12, 3.4))
    errorbar_chart(labels, pen_est, "Penalty per player per hand", "penalty", ax=axes[0])
    errorbar_chart(labels, share_est, "Share of penalty from symbol cards", "share", pct=True, ax=axes[1])
    errorbar_chart(labels, len_est, "Match length", "hands", ax=axes[2])
    fig.tight_layout()
    rep.figure(fig, "by_player_count.png", "Scoring spread, symbol-card share and match length by player count (95% intervals).")

    # -- rule parameters (comparison runs) ----------------------------------------------------------
    rows, len_est, pen_est, labels = [], [], [], []
    for label, sets in RULE_VARIANTS:
        d = _compare(game, meta, n_cmp, sets=sets)
        le = stats.bootstrap_mean(d["length"].to_numpy())
        pe = stats.bootstrap_mean(matrix(d, "first_hand_penalty"))
        seat0 = stats.proportion(int(matrix(d, "is_winner")[:, 0].sum()), d.height)
        moves = stats.bootstrap_mean(d["moves"].to_numpy() / d["length"].to_numpy())
        labels.append(label)
        len_est.append(le)
        pen_est.append(pe)
        rows.append([label, le.fmt(), pe.fmt(), moves.fmt(), seat0.fmt(pct=True)])
    rep.section("Effect of rule parameters", f"Each row is a comparison run of {n_cmp:,} matches with one rule "
                f"changed from the scenario ({players} players, same seed).")
    rep.table(["rule", "match length (hands)", "penalty per player per hand", "plays per hand", "seat 0 win rate"], rows)
    fig, axes = plt.subplots(1, 2, figsize=(12, 3.6))
    errorbar_chart(labels, len_est, "Match length by rule", "hands", ax=axes[0])
    errorbar_chart(labels, pen_est, "Penalty per hand by rule", "penalty", ax=axes[1])
    fig.tight_layout()
    rep.figure(fig, "rule_effects.png", "Effect of single rule changes (95% intervals).")
    return rep.write(out)
