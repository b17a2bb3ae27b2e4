"""Byte-identity of results and traces against another commit: the proof a refactor owes.

    python bench/identical.py GAME [GAME ...] [--base COMMIT] [--n 60] [--traces 2]

For every configuration of a game below (every player count, every policy on all seats, mixed
seats, scripted seats, the main rule variants) both trees play the same fixed-seed games; every
result column (name, type, values) and the trace records of some games must be equal. The replay
text is compared too and its differences are listed, but they do not fail the check: a replay may
change words on purpose (say so in the commit). Each side runs in its own process with its own source
tree (BASE exported by `git archive` into a temporary folder, with its own numba cache).
"""
from __future__ import annotations

import argparse
import pickle
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SEED = 11

# game -> rule variants (lists of --set overrides, or a function of the player count giving one) played at
# every player count
VARIANTS = {
    "pig": [[], ["rules.target=30"], ["rules.first_player=seat0"], ["rules.turn_cap=3"]],
    "stop": [[], ["rules.jumped_two_plus=move"], ["rules.out_player_scores=zero"], ["rules.two_plus_drawer=plays"],
             ["rules.xplus_card_effects=false", "rules.xplus_zero_cancels=false"],
             ["rules.play_drawn_card=true", "rules.must_play_if_able=false"],
             ["rules.starter_effects=true", "rules.starter_redraw_wild=false"],
             ["rules.achtung_forget_rate=0.3", "rules.match_limit=150"],
             ["rules.hand_turn_cap=15", "rules.match_hand_cap=3"],
             # strong play (#25; needs a base from after it): weights off their defaults, every restriction
             ["weights.greedy.attack_bonus=15", "weights.greedy.unseen_card_value=1.5",
              "weights.defender.hoard=3", "weights.defender.attack_lead=50"],
             ["restrict={0: [no_jump_in, never_play_wild], 1: [never_cancel_with_zero, never_stack]}"]],
    "simplecard": [[], ["rules.draw_optional=true"], ["rules.balancer_bonus=false"], ["rules.risk_limit_inclusive=false"],
                   ["rules.risk_limit=15", "rules.changing_max_per_contact=0"], ["rules.act_cap=5"],
                   ["rules.loss_check=act_end", "rules.old_balancer=risk"], ["rules.changing_order=while_inferior"],
                   ["rules.recall_takes_face_down=false"], ["rules.first_player_tie=seat0"]],
    "mlem": [[], ["rules.planet_ranks_paid=1"], ["rules.crash_track=4"], ["rules.expedition_cap=3"],
             ["rules.one_die_alone=true", "rules.end_check=immediate", "rules.planet_double=count_twice"],
             ["weights.expected_value.risk=2", "weights.expected_value.keep=1", "weights.expected_value.mean_move=2"],
             ["weights.expected_value.risk=0.3", "weights.expected_value.future_reach=6"],
             ["restrict.0=[never_send_moon_x2,land_at_first_chance]", "restrict.1=[never_send_satellite]"]],
    "cosmic": [[], ["rules.laser_reading=ffg"], ["rules.grief_model=none"], ["rules.play_order=clockwise"],
               ["rules.reinforce_any_side=false"], ["rules.first_player=seat0"],
               lambda players: ["aliens.assignment=fixed",  # one alien per seat: the list follows the seats
                                "aliens.fixed=[{}]".format(",".join(["Laser", "Grief", "Zombie", "Loser"][:players]))],
               ["rules.laser_reading=ffg", "rules.play_order=clockwise", "rules.first_player=seat0"],
               ["rules.cosmic_zap_window=reveal"], ["rules.unowned_system=absent"], ["rules.unowned_defense=tokens_only"],
               ["rules.wild_destiny_own_colour=false", "rules.reestablish_max_tokens=4", "rules.deal_base_from=home_system",
                "rules.zapped_owner_flare=wild"]],
    "spacebase": [[], ["rules.variant=lightspeed"], ["rules.exchange=same_kind"], ["rules.red_dice_abilities=never"],
                  ["rules.colony_deploys_station=false", "rules.arrows_charge=false"],
                  ["rules.dice_arrow_down=true", "rules.ability_buy_colonies=true"],
                  ["rules.variant=lightspeed", "rules.lightspeed_one_per_sector=true", "rules.pip_squares=exactly"],
                  ["rules.trigger_vp=20", "rules.tie_rounds_cap=0"]],
}


def configs(game) -> list[tuple[str, list[str], int, list[str]]]:
    """(label, sets, players, policies) of every configuration of `game`."""
    sc = game.Scenario
    own = list(game.playing_policies)  # search is left out: it plays thousands of games per game
    out = []
    for players in range(sc.MIN_PLAYERS, sc.MAX_PLAYERS + 1):
        seatings = [[p] for p in own]
        seatings.append([own[(k + players) % len(own)] for k in range(players)])  # mixed
        seatings.append([own[-1] if k else "scripted" for k in range(players)])  # a scripted seat
        seatings.append(["scripted"])
        for policies in seatings:
            out.append((f"P{players} {','.join(policies)}", [], players, policies))
        for variant in VARIANTS.get(game.name, [[]])[1:]:
            sets = variant(players) if callable(variant) else variant
            mixed = [own[(k + 1) % len(own)] for k in range(players)]
            out.append((f"P{players} {','.join(mixed)} {' '.join(sets)}", sets, players, mixed))
    return out


SCRIPT = "script=[{}]".format(",".join(str(k) for k in (3, 0, 1, 2, 5, 1, 0, 4, 2, 1, 7, 0, 3, 1) * 8))


def dump(game_name: str, n: int, traces: int) -> dict:
    """This tree's results and traces of every configuration (run inside the tree's own process)."""
    import numpy as np

    import analyzer
    from analyzer import games, results
    game = games.get(game_name)
    out = {}
    for label, sets, players, policies in configs(game):
        sc = analyzer.load_scenario(game, set=[*sets, SCRIPT], players=players, policy=policies)
        ids = np.arange(n, dtype=np.int64)
        df = results.to_frame(game.run_batch(sc, SEED, ids), ids, SEED, sc)
        runs = []
        for gid in range(traces):
            b = game.run_batch(sc, SEED, np.array([gid], np.int64), trace=True)
            ev = np.asarray(b.events)
            searched = [b.searched] if getattr(b, "searched", None) else []  # (older trees have none)
            runs.append((ev[ev[:, 0] != 0] if len(ev) else ev, game.describe(sc, b.events, *searched)))
        out[label] = ({c: (str(df[c].dtype), df[c].to_list()) for c in df.columns}, runs)
    return out


def _side(tree: Path, game: str, n: int, traces: int, tmp: Path) -> dict:
    target = tmp / f"{tree.name}-{game}.pickle"
    subprocess.run([sys.executable, __file__, "--dump", game, "--n", str(n), "--traces", str(traces),
                    "--to", str(target)], cwd=tree, check=True, env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"})
    return pickle.loads(target.read_bytes())


def compare(base: dict, now: dict) -> tuple[list[str], list[str]]:
    """(differences in results or trace records, differences in replay text)."""
    bad, text = [], []
    for label in base:
        if label not in now:
            bad.append(f"{label}: missing")
            continue
        (cols0, runs0), (cols1, runs1) = base[label], now[label]
        if list(cols0) != list(cols1):
            bad.append(f"{label}: columns {list(cols0)} != {list(cols1)}")
        for c in cols0:
            if c in cols1 and cols0[c] != cols1[c]:
                bad.append(f"{label}: column {c} differs ({cols0[c][0]} vs {cols1[c][0]})")
        for gid, ((ev0, lines0), (ev1, lines1)) in enumerate(zip(runs0, runs1, strict=True)):
            if ev0.shape != ev1.shape or (ev0 != ev1).any():
                bad.append(f"{label}: game {gid}: trace records differ")
            changed = [(a, b) for a, b in zip(lines0, lines1, strict=False) if a != b]
            if changed or len(lines0) != len(lines1):
                text.append(f"{label}: game {gid}: {len(changed)} replay lines differ, {len(lines0)} -> {len(lines1)} "
                            f"lines; first: {changed[0] if changed else '(length)'}")
    return bad, text


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="+")
    ap.add_argument("--base", default="489045b")
    ap.add_argument("--n", type=int, default=60)
    ap.add_argument("--traces", type=int, default=2)
    ap.add_argument("--dump", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--to", help=argparse.SUPPRESS)
    ap.add_argument("--keep", help="export BASE into this folder and keep it (its compile cache too)")
    a = ap.parse_args()
    if a.dump:
        Path(a.to).write_bytes(pickle.dumps(dump(a.games[0], a.n, a.traces)))
        return 0
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(a.keep) if a.keep else Path(tmp) / "base"
        if not (tree / "analyzer").is_dir():
            tree.mkdir(parents=True, exist_ok=True)
            archive = subprocess.run(["git", "archive", a.base], cwd=ROOT, check=True, capture_output=True).stdout
            subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
        for game in a.games:
            bad, text = compare(_side(tree, game, a.n, a.traces, Path(tmp)), _side(ROOT, game, a.n, a.traces, Path(tmp)))
            n_cfg = len(pickle.loads((Path(tmp) / f"{ROOT.name}-{game}.pickle").read_bytes()))
            print(f"{game}: {n_cfg} configurations x {a.n} games: "
                  f"{'IDENTICAL' if not bad else f'{len(bad)} DIFFERENCES'} (results and trace records); "
                  f"replay text: {len(text)} traces changed")
            for line in bad[:20] + text[:10]:
                print("  " + line)
            failed |= bool(bad)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
