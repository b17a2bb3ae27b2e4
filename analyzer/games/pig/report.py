"""Pig's balance report: does moving first pay, under more than one policy, and how long games run."""
from __future__ import annotations

from pathlib import Path

from ... import positions, stats
from ...reporting import Report, compare_n, compare_run, errorbar_chart

POLICY_MIXES = (("hold_at 20 (all)", ["hold_at"], {"hold_at": [20]}),
                ("hold_at 25 (all)", ["hold_at"], {"hold_at": [25]}),
                ("random (all)", ["random"], {}))


def write_report(game, df, meta: dict, out: Path) -> Path:
    players = meta["scenario"]["players"]
    rep = Report(f"Pig balance report ({players} players)", meta, df.height)
    here = positions.Summary.of(df)
    rep.section("Does moving first pay?",
                f"Win rate by turn position (position 1 moves first) over {here.n:,} games; fair share "
                f"{100 / players:.1f}%. {here.test.fmt()}.")
    rep.table(["position", "win rate"], [[lab, e.fmt(pct=True)] for lab, e in zip(positions.labels(players), here.win, strict=True)])
    rep.figure(errorbar_chart(positions.labels(players), here.win, "Win rate by position", "win rate", pct=True,
                              reference=1 / players), "position_win_rate.png", "Win rate by turn position, 95% intervals")

    n_cmp = compare_n(df.height)
    rows = []
    for label, policy, sets in POLICY_MIXES:
        d = compare_run(game, meta, n_cmp, sets=sets, policies=policy)
        s = positions.Summary.of(d)
        rows.append([label, *[e.fmt(pct=True) for e in s.win], stats.fmt_p(s.test.p_value), f"{d.height:,}"])
    rep.section("The verdict under other policies",
                "The same question with every seat playing another policy (comparison runs on the same seed).")
    rep.table(["policies", *positions.labels(players), "fairness p", "n"], rows)

    length = stats.bootstrap_mean(df["length"].to_numpy())
    rep.section("Game length", f"Mean {length.fmt(digits=1)} turns; draws at the turn cap: "
                f"{int(df['capped'].sum()):,}.")
    return rep.write(out)
