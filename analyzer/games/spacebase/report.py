"""Space Base balance report: is the start-player bonus fair?

Answers, each number with its n and 95% interval: win rate and mean VP by turn position for 2-5 players
with the scenario's turn-order bonus and with none; a sweep of each position's credit bonus; a
searched bonus set that brings the positions closest to a fair share (and how far from fair it still
is, checked with a fresh seed); game length in rounds; safety stops per policy (stalled games) at 2
and 4 players; each ship's value (its buyer's win rate, by cost); the light-speed variant against the
standard game. Sections other than the first come from
comparison runs of `report_runs.compare_n` games each, made here from the results' own scenario and seed.
"""
from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np

from ... import positions, stats, variants
from ... import scenario as scen
from ... import sweep as sw
from ... import tune as tn
from ...charts import errorbar_chart, win_rate_axis
from ...report_runs import COMPARE_JOBS, NOT_RUN, compare_n, compare_run, comparing, run_flags, variant_scenario
from ...reporting import Report, Scope
from ...results import by_position, matrix
from . import layout as L

TUNE_CANDIDATES = 32
NO_BONUS = [{"credits": 0, "income": 0}] * 5
# the sections built from comparison runs (each behind report_runs.comparing, for report --no-compare)
BONUS_VS_NONE, CREDIT_SWEEP = "Printed bonus against no bonus, 2-5 players", "Sweep: credit bonus per position"
EDITED_VS_NONE = "The scenario's bonus against no bonus, 2-5 players"  # BONUS_VS_NONE of an edited bonus
PROPOSED_BONUS, SAFETY_STOPS = "Proposed turn-order bonus", "Safety stops per policy"
LIGHT_SPEED = "Light-speed variant against the standard game"
RULE_READINGS = "Contested rule readings (exchange, red dice abilities, light-speed opening)"


def _position_rows(df):
    """Win rate and mean VP per turn position, and the fairness test on sole wins."""
    return positions.win_estimates(df), positions.mean_estimates(df, "score"), positions.fairness(df)


def _bonus_text(bonus, players):
    return ", ".join(f"{k + 1}: +{b['credits']}cr +{b['income']}inc" for k, b in enumerate(bonus[:players]))


def _end_reasons(df, rules) -> str:
    """Share of each end reason, the labels carrying the scenario's own trigger and safety stop."""
    reasons = df["end_reason"].value_counts().sort("end_reason")
    return (f"End reasons (0 = {rules['trigger_vp']} VP, 1 = you-win card, 2 = tie cap, 3 = safety stop at "
            f"{rules['max_rounds']} rounds): " + ", ".join(
                f"{r}: {stats.proportion(c, df.height).fmt(pct=True)}" for r, c in reasons.iter_rows()))


def bonus_edited(game, meta: dict) -> bool:
    """Whether the run's turn-order bonus differs from the game's default scenario (the printed one): the
    report then names it the scenario's bonus, never "printed" (its labels come from simulation.changed_rules)."""
    from ... import simulation
    return any(c.startswith("rules.turn_order_bonus") for c in simulation.changed_rules(game, variant_scenario(game, meta)))


def _safety_stops(rep, game, meta, n):
    """Games each policy plays to the max_rounds safety stop (a stalled policy), at 2 and 4 players (the runs
    every seat playing one policy, shared with the position section: compare_run plays each once)."""
    rules = meta["scenario"]["rules"]
    rows = []
    for policy in game.playing_policies:  # search plays in a section of its own
        for players in (2, 4):
            d = compare_run(game, meta, n, players=players, policies=[policy])
            stops = int((d["end_reason"] == L.END_MAX_ROUNDS).sum())
            rows.append([policy, players, f"{stops:,}", f"{d.height:,}", stats.proportion(stops, d.height).fmt(pct=True)])
    rep.section(SAFETY_STOPS,
                f"Games that reached the safety stop (rules.max_rounds = {rules['max_rounds']} rounds, end reason 3) "
                f"instead of ending at {rules['trigger_vp']} VP: a stop means the players stalled, so the policies "
                f"must (almost) never reach it. Comparison runs of {n:,} games (same seed, every seat playing the "
                "policy).")
    rep.table(["policy", "players", "safety stops", "games", "rate (95% interval)"], rows)


def write_report(game, df, meta: dict, out: Path) -> Path:
    players = int(df["n_players"][0])
    rules = meta["scenario"]["rules"]
    rep = Report(f"Space Base balance report ({players} players, {rules['variant']})", meta, df.height)
    n_cmp = compare_n(df.height)
    edited = bonus_edited(game, meta)
    _position_section(rep, game, df, meta, players, n_cmp, edited)
    base = variant_scenario(game, meta)
    vs_none = EDITED_VS_NONE if edited else BONUS_VS_NONE
    if comparing(rep, vs_none):
        _bonus_vs_none_section(rep, game, df, meta, players, n_cmp, edited, vs_none)
    if comparing(rep, CREDIT_SWEEP):
        _credit_sweep_section(rep, game, base, meta, players, n_cmp)
    if comparing(rep, PROPOSED_BONUS):
        _proposed_bonus_section(rep, game, base, meta, players, n_cmp)
    _length_section(rep, df, rules)
    if comparing(rep, SAFETY_STOPS):
        _safety_stops(rep, game, meta, n_cmp)
    _ship_value_section(rep, df, meta, players)
    if comparing(rep, LIGHT_SPEED):
        _light_speed_section(rep, game, df, meta, players, n_cmp)
    if comparing(rep, RULE_READINGS):
        rule_readings_section(rep, game, meta, players, n_cmp)
    from ... import player_sections  # the sections about players every report ends with
    player_sections.sections(rep, game, df, meta)
    return rep.write(out)


def _position_section(rep, game, df, meta: dict, players: int, n_cmp: int, edited: bool) -> None:
    """This run's win rate and VP by turn position, the same verdict with every seat playing each policy, and
    the headline."""
    rules = meta["scenario"]["rules"]
    win, mean_vp, _ = _position_rows(df)
    here = positions.Summary.of(df)
    verdicts = {positions.run_label(meta["policies"]): here}
    if comparing():
        for policy in game.playing_policies:  # search plays in a section of its own
            d = compare_run(game, meta, n_cmp, players=players, policies=[policy])
            verdicts.setdefault(f"{policy} (all)", positions.Summary.of(d))
    rep.section("Win rate and VP by turn position (this run)",
                f"Turn-order bonus: {_bonus_text(rules['turn_order_bonus'], players)}. Position 1 moves first (the seat that won the opening). "
                f"Fair share 1/{players} = {100 / players:.1f}%. {here.verdict()}")
    rep.table(["position", "win rate", "mean final VP"],
              [[f"{s + 1}", w.fmt(pct=True), v.fmt()] for s, (w, v) in enumerate(zip(win, mean_vp, strict=True))])
    positions.policy_table(rep, {positions.run_label(meta["policies"]): here})
    rep.table(["policies", *positions.labels(players), "fairness p", "verdict", "n"],
              [[label, *[e.fmt(pct=True) for e in v.win], stats.fmt_p(v.test.p_value), v.label(), f"{v.n:,}"]
               for label, v in verdicts.items()],
              (f"The same question with every seat playing each policy ({n_cmp:,} games each, same seed; verdict at "
               f"the {100 * positions.ALPHA:g}% cut-off):") if comparing() else
              f"This run's verdict (the other policies' runs: {NOT_RUN}):")
    bonus = (f"this scenario's own turn-order bonus, {_bonus_text(rules['turn_order_bonus'], players)}, changed from "
             "the game's default scenario" if edited else "printed turn-order bonus")
    rep.headline(f"The start position ({players} players, {bonus}): {here.sentence()}",
                 Scope(*positions.holds_under(verdicts)), short=here.short())
    rep.headline_figure(positions.chart(here, "Win rate by turn position (this run)"), "position_win_rate.png",
                        "Win rate by turn position (1 = start player), 95% Wilson intervals; dashed: fair share.")


def _bonus_vs_none_section(rep, game, df, meta: dict, players: int, n_cmp: int, edited: bool, title: str) -> None:
    """2..5 players, the scenario's bonus (printed unless edited) against none."""
    own_bonus = "the scenario's bonus" if edited else "printed bonus"
    rows = []
    fig, axes = plt.subplots(2, 2, figsize=(10, 7), sharey=True)
    for ax, p in zip(axes.ravel(), range(2, 6), strict=True):
        for label, sets in ((own_bonus, {}), ("no bonus", {"rules.turn_order_bonus": NO_BONUS})):
            d = df if (p == players and not sets and n_cmp == df.height) else compare_run(game, meta, n_cmp, sets, p)
            w, v, f = _position_rows(d)
            rows.append([p, label, *[x.fmt(pct=True) for x in w], *[""] * (5 - p), stats.fmt_p(f.p_value),
                         stats.bootstrap_mean(d["length"].to_numpy()).fmt()])
            k = 100
            xs = np.arange(p) + (0.1 if sets else -0.1)
            ax.errorbar(xs, [x.value * k for x in w], yerr=[[(x.value - x.lo) * k for x in w],
                                                           [(x.hi - x.value) * k for x in w]],
                        fmt="o" if not sets else "s", capsize=3, label=label)
        ax.axhline(100 / p, ls="--", color="grey", lw=1)
        win_rate_axis(ax, 100 / p)
        ax.set_xticks(range(p), [str(i + 1) for i in range(p)])
        ax.set_title(f"{p} players (n={n_cmp:,} each)")
        ax.set_xlabel("turn position")
    for ax in axes[:, 0]:
        ax.set_ylabel("win rate (%)")
    axes[0, 0].legend()
    fig.tight_layout()
    rep.section(title,
                f"Comparison runs of {n_cmp:,} games each (same seed; per-seat policies collapse to "
                f"{meta['policies'][0]} when the player count changes).")
    rep.table(["players", "bonus", *[f"pos {i + 1} win" for i in range(5)], "fairness p", "rounds"], rows)
    rep.figure(fig, "bonus_vs_none.png", f"Win rate by position with {own_bonus if edited else 'the printed bonus'} "
               "(circles) and none (squares).")


def _credit_sweep_section(rep, game, base, meta: dict, players: int, n_cmp: int) -> None:
    """A sweep of each later position's credit bonus."""
    fig, ax = plt.subplots(figsize=(7, 3.6))
    rows = []
    for pos in range(1, players):
        key = f"rules.turn_order_bonus.{pos}.credits"
        sweep = sw.sweep(game, base, {key: [0, 1, 2, 3, 4]}, n_cmp, meta["seed"], COMPARE_JOBS)
        est = [r.position_estimates()[pos] for r in sweep]
        ax.errorbar(np.arange(5) + 0.06 * pos, [e.value * 100 for e in est],
                    yerr=[[(e.value - e.lo) * 100 for e in est], [(e.hi - e.value) * 100 for e in est]],
                    fmt="o-", capsize=3, label=f"position {pos + 1}")
        rows.append([pos + 1, *[e.fmt(pct=True) for e in est]])
    ax.axhline(100 / players, ls="--", color="grey", lw=1)
    win_rate_axis(ax, 100 / players)
    ax.set_xlabel("credits given to the position at setup (other bonuses as in the scenario)")
    ax.set_ylabel("that position's win rate (%)")
    ax.legend()
    rep.section(CREDIT_SWEEP,
                f"Each point: {n_cmp:,} games with one position's credit bonus changed (common random numbers: "
                "the same seeded games under every value). Same study from the command line: "
                f"`analyzer sweep spacebase --param rules.turn_order_bonus.1.credits --values 0,1,2,3,4 {run_flags(meta, n_cmp)}`.")
    rep.table(["position", *[f"+{c} credits" for c in range(5)]], rows)
    rep.figure(fig, "credit_sweep.png", "A position's win rate against its credit bonus (95% intervals).")


def _proposed_bonus_section(rep, game, base, meta: dict, players: int, n_cmp: int) -> None:
    """The search for the fairest bonus set: the generic tuner over the default scenario's tune: block, its
    best checked against the scenario's own bonus on fresh games."""
    points = tn.candidates(base, scen.load(game).tune, TUNE_CANDIDATES, meta["seed"])
    n_first = max(100, n_cmp // 4)
    res = tn.successive_halving(game, base, points, "position-fairness", n_first, meta["seed"], COMPARE_JOBS)
    tuned = dict(res.best)
    check = variants.play(game, base, [variants.Variant("as given"), variants.Variant("proposed", tuned)],
                          n_cmp * 2, meta["seed"] + 1, COMPARE_JOBS)
    check_given, check_tuned = check["as given"], check["proposed"]
    rows = []
    for label, d in (("as given", check_given), ("search's best", check_tuned)):
        w, _, f = _position_rows(d)
        rows.append([label, *[x.fmt(pct=True) for x in w], f"{100 * positions.unfairness(d):.2f}", stats.fmt_p(f.p_value)])
    proposal = [dict(b) for b in base.rules.model_dump(mode="json")["turn_order_bonus"]]
    for key, value in tuned.items():
        _, _, idx, field = key.split(".")
        proposal[int(idx)][field] = value
    # proposed only when it differs from the scenario's own bonus and its loss is significantly lower on fresh games
    verdict = tn.confirm(game, "position-fairness", check_given, base, check_tuned,
                         variants.scenario_of(game, base, tuned), seed=meta["seed"] + 1)
    own, best = _bonus_text(base.rules.model_dump(mode="json")["turn_order_bonus"], players), _bonus_text(proposal, players)
    if best == own:
        found = f"Nothing better was found: the search kept the scenario's own bonus ({own})."
    elif not verdict.better:
        found = (f"Nothing better was found: the search's best ({best}) is not significantly fairer than the "
                 f"scenario's own ({own}) on the fresh games.")
    else:
        found = f"**Proposal: {best}.**"
    rep.section(PROPOSED_BONUS,
                f"Successive halving (`analyzer tune`) over {len(points)} settings of each later position's credits "
                f"and income (the scenario's own bonus and a seeded sample of the default scenario's `tune:` grid), from "
                f"{n_first:,} games each, the better half playing twice as many games each round ({res.games:,} games "
                "in all, the same seeded games for every setting), for the smallest spread of the positions' win "
                f"rates (sum of squared distances from their mean). {found} Checked below on {2 * n_cmp:,} fresh games (seed "
                f"{meta['seed'] + 1}; the loss's difference {verdict.diff.value:+.3g} [{verdict.diff.lo:+.3g}, "
                f"{verdict.diff.hi:+.3g}], paired bootstrap); the remaining deviation is how far from fair the best found set still is. "
                f"Same search from the command line: `analyzer tune spacebase --target position-fairness {run_flags(meta, n_first)} --check-n {2 * n_cmp}` "
                f"(its proposal depends on every flag, the seed included).")
    rep.table(["bonus", *[f"pos {i + 1} win" for i in range(players)], "max deviation (pts)", "fairness p"], rows)


def _length_section(rep, df, rules: dict) -> None:
    """Game length in rounds, its end reasons and its headline."""
    length = df["length"].to_numpy()
    rep.section("Game length", f"Rounds per game: mean {stats.bootstrap_mean(length).fmt()}, median "
                f"{np.median(length):.0f}, 95% within {np.percentile(length, 95):.0f}. "
                + _end_reasons(df, rules))
    fig, ax = plt.subplots(figsize=(6, 3.2))
    ax.hist(length, bins=np.arange(length.min(), length.max() + 2) - 0.5, color="#228833")
    ax.set_xlabel("rounds")
    ax.set_ylabel("games")
    ax.set_title(f"Game length (n={df.height:,})")
    rep.figure(fig, "length_hist.png", "Game length in rounds.")
    rep.headline(f"A game lasts {stats.bootstrap_mean(length).fmt()} rounds (median {np.median(length):.0f}).")


def _ship_values(df, ships: list) -> tuple[list, list]:
    """(every ship with its buyer's win rate, None where nobody bought it; those bought in 30 games or more,
    best first)."""
    buyer = matrix(df, "card_buyer")
    wins = matrix(df, "is_winner").astype(bool)
    rows_all = []
    for c, card in enumerate(ships):
        bought = buyer[:, c] >= 0
        k = int(bought.sum())
        if k == 0:
            rows_all.append((card, None))
            continue
        won = int(wins[np.nonzero(bought)[0], buyer[bought, c]].sum())
        rows_all.append((card, stats.proportion(won, k)))
    known = [(c, e) for c, e in rows_all if e is not None and e.n >= 30]
    known.sort(key=lambda x: -x[1].value)
    return rows_all, known


def _ship_value_section(rep, df, meta: dict, players: int) -> None:
    """Each ship's value: its buyer's win rate, the best and worst ten, by cost."""
    ships = meta["scenario"]["cards"]["ships"]
    rows_all, known = _ship_values(df, ships)

    def card_row(c, e):
        return [ship_name(c), c.get("level", ""), c["sector"], c["cost"], e.fmt(pct=True)]
    rep.section("Value of each ship", f"Win rate of the player who bought the card (fair share {100 / players:.1f}%), "
                f"over games where it was bought; cards bought in fewer than 30 games are left out "
                f"({len(rows_all) - len(known)} of {len(ships)}). Top and bottom ten:")
    rep.table(["card", "level", "sector", "cost", "buyer win rate"], [card_row(*x) for x in known[:10]])
    rep.table(["card", "level", "sector", "cost", "buyer win rate"], [card_row(*x) for x in known[-10:]])
    rep.figure(_cost_chart(known, players), "card_value.png", "Each ship's buyer win rate against its cost (95% intervals).")
    extremes = known[:10] + known[-10:] if len(known) > 20 else known
    rep.figure(errorbar_chart([ship_name(c) for c, _ in extremes], [e for _, e in extremes],
                              "Buyer win rate, the ten best and ten worst ships", "buyer win rate", pct=True,
                              reference=1 / players), "ship_value.png",
               "The ten best and ten worst ships by their buyer's win rate (95% intervals); dashed: fair share.")
    by_cost = {}
    for c, e in known:
        by_cost.setdefault(c["cost"], []).append(e)
    rep.table(["cost", "cards", "buyer win rate, pooled over purchases"],
              [[cost, len(es), stats.proportion(sum(round(e.value * e.n) for e in es), sum(e.n for e in es)).fmt(pct=True)]
               for cost, es in sorted(by_cost.items())],
              "By cost (all purchases of the cards of that cost pooled; a game can hold several such purchases, "
              "so n counts purchases, not games):")


def _cost_chart(known: list, players: int):
    """Each ship's buyer win rate against its cost, one colour per level."""
    fig, ax = plt.subplots(figsize=(7, 3.6))
    for lvl, color in ((1, "#4477aa"), (2, "#ee6677"), (3, "#228833")):
        pts = [(c["cost"], e) for c, e in known if c.get("level") == lvl]
        if pts:
            ax.errorbar([p[0] + 0.15 * (lvl - 2) for p in pts], [p[1].value * 100 for p in pts],
                        yerr=[[(p[1].value - p[1].lo) * 100 for p in pts], [(p[1].hi - p[1].value) * 100 for p in pts]],
                        fmt="o", ms=3, capsize=2, color=color, label=f"level {lvl}")
    ax.axhline(100 / players, ls="--", color="grey", lw=1)
    win_rate_axis(ax, 100 / players)
    ax.set_xlabel("cost")
    ax.set_ylabel("buyer win rate (%)")
    ax.legend()
    return fig


def _light_speed_section(rep, game, df, meta: dict, players: int, n_cmp: int) -> None:
    """The light-speed variant against the standard game (the other one than this run's)."""
    variant = meta["scenario"]["rules"]["variant"]
    other = "standard" if variant == "lightspeed" else "lightspeed"
    d_other = compare_run(game, meta, n_cmp, {"rules.variant": other})
    rows = []
    for label, d in ((variant + " (this run)", df), (other, d_other)):
        w, v, f = _position_rows(d)
        rows.append([label, *[x.fmt(pct=True) for x in w], stats.bootstrap_mean(d["length"].to_numpy()).fmt(),
                     stats.fmt_p(f.p_value)])
    rep.section(LIGHT_SPEED, f"{other}: {n_cmp:,} games, same seed.")
    rep.table(["variant", *[f"pos {i + 1} win" for i in range(players)], "rounds", "fairness p"], rows)


def ship_name(card: dict) -> str:
    """A ship as its card names it (its id where the card has no name), marked when estimated."""
    name = f"{card['name']} ({card['id']})" if card.get("name") else card["id"]
    return name + (" (estimated)" if card.get("estimated") else "")


# The rule readings on which the help page and the earlier engine disagreed (issue #13): the scenario
# parameter, its default (the help page's reading) and the alternative.
READINGS = (("rules.exchange", "any_station_card", "same_kind"),
            ("rules.red_dice_abilities", "others_rolls", "never"),
            ("rules.lightspeed_one_per_sector", False, True))


def _paired_difference(a, b, position: int) -> stats.Estimate:
    """Win rate of turn `position` (0 = first) under run a minus under run b, games paired by id (same
    seed: the same dealt games under both readings), with a normal 95% interval of the mean difference."""
    wa = by_position(a.sort("game_id"), "is_winner")[:, position].astype(float)
    wb = by_position(b.sort("game_id"), "is_winner")[:, position].astype(float)
    d = wa - wb
    half = stats.Z95 * d.std(ddof=1) / np.sqrt(len(d))
    return stats.Estimate(float(d.mean()), float(d.mean() - half), float(d.mean() + half), len(d))


def _verdict(win, fair) -> str:
    """The start-position verdict of one run: do the positions differ, and which one is clearly best and
    clearly worst (its 95% interval clear of every other position's)."""
    def clear(pick, beats):
        k = pick(range(len(win)), key=lambda s: win[s].value)
        return str(k + 1) if all(beats(win[k], win[s]) for s in range(len(win)) if s != k) else "none"
    best = clear(max, lambda a, b: a.lo > b.hi)
    worst = clear(min, lambda a, b: a.hi < b.lo)
    return (f"positions differ: {'yes' if fair.p_value < positions.ALPHA else 'no'}, clearly best {best}, "
            f"clearly worst {worst}")


def rule_readings_section(rep, game, meta: dict, players: int, n: int) -> None:
    """Does any of the three contested rule readings move the start-position verdict? Each alternative
    against the default reading, in the run's variant (light-speed opening: in the light-speed game,
    where it applies), n games each with the run's seed."""
    variant = meta["scenario"]["rules"]["variant"]
    defaults = {key: default for key, default, _ in READINGS}
    runs: dict = {}

    def run(sets: dict):
        key = tuple(sorted(sets.items()))
        if key not in runs:
            runs[key] = compare_run(game, meta, n, {**defaults, **sets})
        return runs[key]

    rows, moved, shifted = [], [], []
    for key, default, alt in READINGS:
        where = {"rules.variant": "lightspeed" if key == "rules.lightspeed_one_per_sector" else variant}
        base, other = run(where), run({**where, key: alt})
        diffs = [_paired_difference(other, base, s) for s in range(players)]
        largest = max(diffs, key=lambda e: abs(e.value))
        verdicts = []
        for value, d in ((default, base), (alt, other)):
            w, _, f = _position_rows(d)
            verdicts.append(_verdict(w, f))
            name = key.split('.', 1)[1]
            label = (f"{name}: {str(value).lower()}" + (" (default)" if value == default else "")
                     + (" (this scenario's)" if meta["scenario"]["rules"][name] == value else ""))
            rows.append([label, where["rules.variant"], *[x.fmt(pct=True) for x in w], stats.fmt_p(f.p_value),
                         largest.fmt(pct=True) if d is other else ""])
        name = f"{key} = {str(alt).lower()}"
        if verdicts[0] != verdicts[1]:
            moved.append(f"{name} ({verdicts[0]} -> {verdicts[1]})")
        shifted += [f"{name}: position {s + 1} {e.fmt(pct=True)}" for s, e in enumerate(diffs) if e.lo > 0 or e.hi < 0]
    rep.section(RULE_READINGS,
                f"The help page and the earlier engine read three rules differently; each is a scenario parameter "
                f"whose default is the help page's reading. Each alternative is played against the default on "
                f"{n:,} games with the run's seed (the same games under both readings); the last column is the "
                f"largest change of one position's win rate against the default, paired by game, with its 95% "
                f"interval. The light-speed limit applies only to the light-speed opening, so it is compared "
                f"in the light-speed game. "
                + "The start-position verdict is whether the positions differ (fairness test, p < 0.01) and "
                "which position is clearly best and clearly worst (its interval clear of every other's). "
                + ("**Readings that move it: " + "; ".join(moved) + ".**" if moved else
                   "**None of the three moves it.**")
                + " Position win rates changed beyond chance (95% paired interval excludes 0; with "
                f"{3 * players} comparisons about one such change is expected by chance): "
                + ("; ".join(shifted) if shifted else "none") + ".")
    rep.table(["reading", "variant", *[f"pos {i + 1} win" for i in range(players)], "fairness p",
               "largest change of a position's win rate vs default (points)"], rows)
