#!/usr/bin/env python3
"""Maintainer script: turn the Space Base research CSV (one row per physical card) into the
designer-editable scenario files scenarios/spacebase/default.yaml and lightspeed.yaml.

    python scripts/convert_spacebase_cards.py path/to/cards.csv scenarios/spacebase

Not used at run time: the simulator reads only the YAML. Run it again only to regenerate the card
list from a newer CSV (designers' edits to the YAML are then lost, so diff before committing).

Decisions taken here (all visible in the YAML, each card keeps its source and status):
- The 9 Level III cards of sectors 10-12 are missing from the CSV (MISSING_placeholder). They are
  filled with estimates modelled on the known Level III cards of sectors 7-9 (one VP card and two
  ability cards per sector, costs 13-14) using abilities that pipluppers/SpaceBase lists but no
  catalogued card has (claim 1 L3, claim 1 L3 + 1 L1, buy + credits, set die + 4 credits,
  buy + 4 VP, "You Win"). Each is marked `estimated: true` with a note.
- Swap cards whose pair is not recorded get the four pipluppers pairs that no catalogued card uses
  (1<->12, 4<->10, 6<->7, 2<->11), matched by the card's own sector where possible; marked estimated.
- l2-9 keeps its transcribed cost 6 (outside the L2 range 7-9 of pipluppers) and is flagged in `note`.
- l2-39's red side lists `set_die` as a printed icon without charge squares: kept as `ignored`.
"""
from __future__ import annotations

import csv
import re
import sys
from pathlib import Path

SOURCE_KHOI = "github:khoi-h-tran/spacebase-frontend@061b5a6 src/lib/cards.ts"

# Swap pairs: recorded in the source doc (notes column) or estimated from pipluppers' unused pairs.
SWAP_RECORDED = {"l2-24": (5, 8), "l2-27": (4, 9)}
SWAP_ESTIMATED = {"l2-3": (1, 12), "l2-39": (4, 10), "l3-14": (6, 7), "l3-26": (2, 11)}

# The 9 missing Level III cards (sectors 10-12), estimated. Pattern of sectors 7-9: a VP card at
# cost 14 (blue VP rising 6, 6, 7 -> 7, 8, 9; red about half) and two ability cards at 13-14.
ESTIMATED_L3 = {
    "l3-28": dict(cost=14, blue={"vp": 7}, red={"vp": 4},
                  note="estimated: VP card continuing the L3 sector 7-9 pattern (6/3, 6/3, 7/4)"),
    "l3-29": dict(cost=13, blue={"claim": {"L3": 1}},
                  red={"charge": {"slots": ["A"], "linked": False, "effect": {"claim": {"L2": 1}}}},
                  note="estimated: pipluppers 'claim 1 L3', laid out like Tereshkova/Bykovsky (claim reward "
                       "on blue, claim-1-L2 charge on red)"),
    "l3-30": dict(cost=13,
                  blue={"charge": {"slots": ["A"], "linked": False, "effect": {"buy": 1, "credits": 4}}},
                  red={"charge": {"slots": ["A"], "linked": False, "effect": {"buy": 1, "credits": 3}}},
                  note="estimated: pipluppers 'buy a card + 3 or 4 credits'"),
    "l3-31": dict(cost=14, blue={"vp": 8}, red={"vp": 5},
                  note="estimated: VP card continuing the L3 sector 7-9 pattern"),
    "l3-32": dict(cost=13, blue={"claim": {"L3": 1, "L1": 1}},
                  red={"charge": {"slots": ["A"], "linked": False, "effect": {"claim": {"L2": 1}}}},
                  note="estimated: pipluppers 'claim 1 L3 + 1 L1', laid out like Bykovsky"),
    "l3-33": dict(cost=13,
                  blue={"charge": {"slots": ["A", "A"], "linked": False, "effect": {"set_die": 1, "credits": 4}}},
                  red={"charge": {"slots": ["A"], "linked": False, "effect": {"set_die": 1, "credits": 4}}},
                  note="estimated: pipluppers 'set a die + 4 credits', laid out like Gagarin/Titov"),
    "l3-34": dict(cost=14, blue={"vp": 9}, red={"vp": 5},
                  note="estimated: VP card continuing the L3 sector 7-9 pattern"),
    "l3-35": dict(cost=14,
                  blue={"charge": {"slots": ["A", "A", "A", "A"], "linked": True, "effect": {"you_win": True}}},
                  note="estimated: pipluppers 'instant victory (You Win)'; 4 linked squares is a guess"),
    "l3-36": dict(cost=13,
                  blue={"charge": {"slots": ["A"], "linked": False, "effect": {"buy": 1, "vp": 4}}},
                  red={"charge": {"slots": ["A"], "linked": False, "effect": {"buy": 1, "vp": 2}}},
                  note="estimated: pipluppers 'buy a card + 4 VP' (red side halved like Zholodov)"),
}


def _int(v: str) -> int:
    v = (v or "").strip()
    return int(v) if v else 0


def _claim(text: str) -> dict:
    """'claim(1xL2,1xL1)' -> {'L2': 1, 'L1': 1}"""
    out: dict[str, int] = {}
    for k, lvl in re.findall(r"(\d+)xL(\d)", text):
        out[f"L{lvl}"] = out.get(f"L{lvl}", 0) + int(k)
    return out


def _effect(text: str) -> dict:
    """'opponents_lose_vp4+buy_card2' -> {'opponents_lose_vp': 4, 'buy': 2}"""
    eff: dict = {}
    for part in text.split("+"):
        part = part.strip()
        if part.startswith("claim("):
            eff["claim"] = _claim(part)
        elif m := re.fullmatch(r"shift_die_up_to(\d)", part):
            eff["shift_up"] = int(m[1])
        elif m := re.fullmatch(r"buy_card(\d)", part):
            eff["buy"] = int(m[1])
        elif m := re.fullmatch(r"opponents_lose_vp(\d+)", part):
            eff["opponents_lose_vp"] = int(m[1])
        elif m := re.fullmatch(r"credits(\d+)", part):
            eff["credits"] = int(m[1])
        elif m := re.fullmatch(r"vp(\d+)", part):
            eff["vp"] = int(m[1])
        elif part in ("set_die", "reroll_die", "exchange_card", "double", "place_charge", "move_charge",
                      "swap_sectors"):
            key = {"reroll_die": "reroll", "exchange_card": "exchange", "swap_sectors": "swap"}.get(part, part)
            eff[key] = 1
        else:
            raise ValueError(f"unknown effect {part!r}")
    return eff


def _charge(text: str) -> dict | None:
    """'slots=3[A A <=3p];linked=yes;effect=swap_sectors;on_place=credits1' -> dict"""
    if not text.strip():
        return None
    fields = dict(kv.split("=", 1) for kv in text.split(";"))
    slots = re.fullmatch(r"(\d+)\[(.*)\]", fields["slots"])
    squares = slots[2].split()
    assert len(squares) == int(slots[1]), text
    ch = {"slots": squares, "linked": fields.get("linked") == "yes", "effect": _effect(fields["effect"])}
    if "on_place" in fields:
        m = re.fullmatch(r"credits(\d+)", fields["on_place"])
        ch["on_place_credits"] = int(m[1])
    return ch


def _side(row: dict, colour: str) -> dict:
    side: dict = {}
    for k in ("credits", "income", "vp"):
        if _int(row[f"{colour}_{k}"]):
            side[k] = _int(row[f"{colour}_{k}"])
    if row[f"{colour}_arrows"].strip():
        side["arrows"] = row[f"{colour}_arrows"].strip()
    other = row[f"{colour}_other"].strip()
    if other.startswith("claim("):
        side["claim"] = _claim(other)
    elif other:
        side["ignored"] = other
    ch = _charge(row[f"{colour}_charge"])
    if ch:
        side["charge"] = ch
    return side


def _flow(v) -> str:
    """Compact YAML flow style, readable in one line."""
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {_flow(x)}" for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(_flow(x) for x in v) + "]"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    s = str(v)
    if s == "" or re.search(r"[:#{}\[\],&*!|>'\"%@`<=]|^\s|\s$|^(true|false|null|yes|no|on|off|[-+.\d].*)$", s,
                                re.I):
        return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return s


def convert(rows: list[dict]) -> tuple[list[dict], list[dict], list[dict]]:
    starters, ships, colonies = [], [], []
    for r in rows:
        kind, cid = r["kind"], r["card_id"]
        src = r["source"].strip() or SOURCE_KHOI
        if kind == "colony":
            colonies.append({"id": cid, "sector": _int(r["sector"]), "cost": _int(r["cost"]),
                             "vp": _int(r["colony_vp"]), "status": r["status"], "source": src})
            continue
        if kind == "starter":
            starters.append({"id": cid, "sector": _int(r["sector"]), "blue": _side(r, "blue"),
                             "red": _side(r, "red"), "status": r["status"], "source": src})
            continue
        card = {"id": cid, "level": _int(r["level"]), "sector": _int(r["sector"])}
        notes = [r["notes"].strip()] if r["notes"].strip() else []
        if r["status"] == "MISSING_placeholder":
            est = ESTIMATED_L3[cid]
            card.update(cost=est["cost"], blue=est.get("blue", {}), red=est.get("red", {}),
                        status="estimated", source="estimate (no published data; see note)", estimated=True)
            notes = [est["note"]]
        else:
            card.update(cost=_int(r["cost"]))
            if r["name"].strip():
                card["name"] = r["name"].strip()
            card.update(blue=_side(r, "blue"), red=_side(r, "red"), status=r["status"], source=src)
        for colour in ("blue", "red"):
            eff = card[colour].get("charge", {}).get("effect", {})
            if "swap" in eff:
                if cid in SWAP_RECORDED:
                    eff["swap"] = list(SWAP_RECORDED[cid])
                else:
                    eff["swap"] = list(SWAP_ESTIMATED[cid])
                    card["estimated"] = True
                    notes.append(f"swap pair {eff['swap'][0]}<->{eff['swap'][1]} estimated (pipluppers' unused "
                                 "pairs); the card's values are data")
        if cid == "l2-9":
            notes.append("FLAG: cost 6 kept as transcribed; pipluppers gives L2 costs 7-9")
        if card["blue"].get("ignored") or card["red"].get("ignored"):
            notes.append("the `ignored` icon is printed without charge squares; the simulator does not play it")
        if notes:
            card["note"] = "; ".join(notes)
        ships.append(card)
    return starters, ships, colonies


HEADER = """\
# Space Base (AEG 2018) -- {title}
# Sources: the rules follow the publisher's rulebook as summarised by a Japanese board-game help page;
# the cards were transcribed from card photos in the public GitHub project khoi-h-tran/spacebase-frontend
# (each card's `source` and `status` say where it comes from and how sure it is); the 9 Level III cards
# of sectors 10-12 are not published anywhere and are estimated (`estimated: true`, with a note).
# Generated by scripts/convert_spacebase_cards.py from the project's research notes (not part of the
# repository).
# Designers may edit this file freely: add, remove or change cards and rules; the next run plays it
# (deck sizes follow the card lists). Re-running the script overwrites it.
# Cards marked `estimated: true` are not published data (see each card's note); every report lists them.
"""

RULES = """\
rules:
  variant: {variant}             # standard | lightspeed
  start_credits: 5               # standard opening: pay the drawn L1 card from these
  start_income: 0
  turn_order_bonus:              # per turn position (1st, 2nd, ...): THE balance question, sweep it
    - {{credits: 0, income: 0}}
    - {{credits: 1, income: 0}}
    - {{credits: 2, income: 0}}
    - {{credits: 0, income: 1}}
    - {{credits: 0, income: 1}}
  trigger_vp: 40                 # reaching it ends the game after the round (equal turns)
  tie_rounds_cap: 10             # extra rounds among tied players, then the win is shared
  display_size: 6                # face-up ships per level
  colony_deploys_station: true   # the ship stationed where a colony arrives is deployed (else covered, dead)
  pip_squares: at_most           # "<=Np" charge squares count when players <= N (at_most) or == N (exactly)
  arrows_charge: true            # a reward arrow also takes the neighbour's charge (charge is a reward)
  dice_arrow_down: false         # dice-arrow (shift_up) ability may also move the sum down
  ability_buy_colonies: false    # "buy a card" abilities may also buy colonies
  max_rounds: 200                # safety stop (end_reason 3); 0 of 100,000 games per policy reach it at 2-5 players (report: "Safety stops per policy")
  lightspeed: {{credits: 15, income: 1, draw_l1: 4, draw_l2: 2}}
  exchange: any_station_card     # exchange ability: swap with any stationed card (help page) | same_kind
  lightspeed_one_per_sector: false  # light-speed opening: at most one ship per sector (not on the help page)
  red_dice_abilities: others_rolls  # red set-die / reroll act on others' rolls | never
"""

WEIGHTS_NOTE = """\
# The heuristics' weights, defaults in analyzer/games/spacebase/scenario.py (WEIGHTS); set any of them
# for a policy's every seat (or seat_weights for one seat), e.g.:
# weights:
#   weighted: {credits: 1.0, income: 3.0, vp: 2.5, sector_prob: 1.0, waste: 0.25, horizon_max: 12, vp_per_round: 3.0}
#   engine: {switch_production: 14.0, switch_leader_vp: 24, waste: 0.25, horizon_max: 12, vp_per_round: 3.0}
"""


TUNE = """\
tune:                            # what `analyzer tune spacebase` may change: each later position's setup bonus
  rules.turn_order_bonus.1.credits: [0, 1, 2, 3, 4, 5]
  rules.turn_order_bonus.1.income: [0, 1, 2]
  rules.turn_order_bonus.2.credits: [0, 1, 2, 3, 4, 5]
  rules.turn_order_bonus.2.income: [0, 1, 2]
  rules.turn_order_bonus.3.credits: [0, 1, 2, 3, 4, 5]
  rules.turn_order_bonus.3.income: [0, 1, 2]
"""
BALANCE = {  # the game as shipped, measured with seed 0 (`make check` tests these bounds; rates as fractions)
    "standard": """\
balance:                         # the game as shipped (seed 0); `make check` tests these bounds, rates as fractions
  position_win_rate: {max_spread: 0.3}     # 18.6% (position 1) .. 36.9% (position 4) (n=2,000)
  length: {min: 11, max: 18}               # 14.5 rounds
  draw_rate: {max: 0.01}
  safety_stop_rate: {max: 0.01}
""",
    "lightspeed": """\
balance:                         # the game as shipped (seed 0); `make check` tests these bounds, rates as fractions
  position_win_rate: {max_spread: 0.25}    # 18.8% (position 1) .. 31.3% (position 4) (n=2,000)
  length: {min: 8, max: 15}                # 11.3 rounds
  draw_rate: {max: 0.01}
  safety_stop_rate: {max: 0.01}
""",
}


def render(title: str, name: str, variant: str, starters, ships, colonies) -> str:
    out = [HEADER.format(title=title)]
    out.append(f"game: spacebase\nname: {name}\n")
    desc = ("Published Space Base rules, light-speed variant" if variant == "lightspeed"
            else "Published Space Base rules and cards (9 Level III cards of sectors 10-12 estimated)")
    out.append(f"description: {_flow(desc)}\n")
    out.append('source: "Space Base rulebook (AEG 2018) via a Japanese help page; cards transcribed from photos (github khoi-h-tran/spacebase-frontend)"\n')
    out.append("players: 4\npolicies: [weighted]\n\n")
    out.append(RULES.format(variant=variant) + "\n" + WEIGHTS_NOTE + "\n" + TUNE + "\n" + BALANCE[variant] + "\n")
    out.append("cards:\n  starters:     # every player's 12 starting ships (identical sets)\n")
    for s in starters:
        out.append(f"    - {_flow(s)}\n")
    out.append("  ships:        # shipyard: one entry per physical card; level decks follow this list\n")
    last = None
    for c in ships:
        if c["level"] != last:
            out.append(f"    # ---- Level {c['level']} ----\n")
            last = c["level"]
        first = True
        for k, v in c.items():
            out.append(f"    {'- ' if first else '  '}{k}: {_flow(v)}\n")
            first = False
    out.append("  colonies:     # on display from the start, never refilled\n")
    for c in colonies:
        out.append(f"    - {_flow(c)}\n")
    return "".join(out)


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print(__doc__.splitlines()[3].strip())
        return 2
    csv_path, out_dir = Path(argv[1]), Path(argv[2])
    with csv_path.open(newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    starters, ships, colonies = convert(rows)
    counts = {lvl: sum(1 for c in ships if c["level"] == lvl) for lvl in (1, 2, 3)}
    assert len(starters) == 12 and len(colonies) == 12 and counts == {1: 48, 2: 48, 3: 36}, counts
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "default.yaml").write_text(
        render("default scenario (standard rules)", "default", "standard", starters, ships, colonies))
    (out_dir / "lightspeed.yaml").write_text(
        render("light-speed variant", "lightspeed", "lightspeed", starters, ships, colonies))
    print(f"wrote {out_dir}/default.yaml and lightspeed.yaml: {len(starters)} starters, "
          f"{len(ships)} ships {counts}, {len(colonies)} colonies, "
          f"{sum(1 for c in ships if c.get('estimated'))} estimated")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
