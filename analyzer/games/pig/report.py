"""Pig's balance report: does moving first pay, under more than one policy, and how long games run."""
from __future__ import annotations

from pathlib import Path

from ... import player_sections, positions, stats
from ...report_runs import compare_n, compare_run, comparing, is_the_run
from ...reporting import Report, Scope

POLICY_MIXES = (("hold_at 20 (all)", ["hold_at"], {"weights.hold_at.hold_at": 20}),
                ("hold_at 25 (all)", ["hold_at"], {"weights.hold_at.hold_at": 25}),
                ("random (all)", ["random"], {}))


def write_report(game, df, meta: dict, out: Path) -> Path:
    players = meta["scenario"]["players"]
    rep = Report(f"Pig balance report ({players} players)", meta, df.height)
    here = positions.Summary.of(df)
    rep.section("Does moving first pay?",
                f"Win rate by turn position (position 1 moves first) over {here.n:,} games; fair share "
                f"{100 / players:.1f}%. {here.verdict()}")
    rep.table(["position", "win rate"], [[lab, e.fmt(pct=True)] for lab, e in zip(positions.labels(players), here.win, strict=True)])
    positions.policy_table(rep, {positions.run_label(meta["policies"]): here})

    verdicts = {positions.run_label(meta["policies"]): here}
    if comparing(rep, "The verdict under other policies"):
        n_cmp, rows, same = compare_n(df.height), [], []
        for label, policy, sets in POLICY_MIXES:
            if is_the_run(game, meta, sets, policies=policy):  # the run's own setting: not another policy
                same.append(label)
                continue
            d = compare_run(game, meta, n_cmp, sets=sets, policies=policy)
            s = verdicts[label] = positions.Summary.of(d)
            rows.append([label, *[e.fmt(pct=True) for e in s.win], stats.fmt_p(s.test.p_value), s.label(), f"{d.height:,}"])
        rep.section("The verdict under other policies",
                    "The same question with every seat playing another policy (comparison runs on the same seed); "
                    f"verdict at the {100 * positions.ALPHA:g}% cut-off."
                    + (f" Not repeated: {', '.join(same)}, this run's own setting (a smaller sample of the same "
                       "games is not another policy)." if same else ""))
        rep.table(["policies", *positions.labels(players), "fairness p", "verdict", "n"], rows)

    length = stats.bootstrap_mean(df["length"].to_numpy())
    rep.section("Game length", f"Mean {length.fmt(digits=1)} turns; draws at the turn cap: "
                f"{int(df['capped'].sum()):,}.")
    rep.headline(f"Moving first ({players} players): {here.sentence()}", Scope(*positions.holds_under(verdicts)),
                 short=here.short())
    rep.headline_figure(positions.chart(here), "position_win_rate.png",
                        "Win rate by turn position (by policy when the two are confounded), 95% intervals")
    rep.headline(f"A game lasts {length.fmt(digits=1)} turns.")
    player_sections.sections(rep, game, df, meta)
    return rep.write(out)
