"""Simple Card scenarios: our own pool as shipped (and listed as estimated), the decks' rules checked with a
one-line error naming file, field and problem, and the three shipped files kept consistent."""
from pathlib import Path

import numpy as np
import pytest
import yaml

import analyzer
from analyzer.errors import UserError
from analyzer.games.simplecard import GAME
from analyzer.games.simplecard.scenario import CT_NAMES, SimpleCardRules

DIR = Path(GAME.scenario_dir)
SPEC_DEFAULTS = dict(deck_size=16, max_copies=4, copy_limit_scope="name", risk_limit=30, risk_limit_inclusive=True,
                     first_player_tie="random", old_balancer="under", loss_check="immediate",
                     deckout_check="continuous", simultaneous_loss="draw", draw_optional=False,
                     stack_needs_opponent_main=True, stack_values="top", balancer_bonus=True,
                     picking_target_risk="opponent", reading_depth="active", moving_destination="owner",
                     recall_can_take_just_cast=False, changing_max_per_contact=2)


def load(name="sample.yaml", **sets):
    return analyzer.load_scenario(GAME, DIR / name, set=sets)


def test_the_defaults_are_the_specs_readings():
    sc = load("default.yaml")
    for k, v in SPEC_DEFAULTS.items():
        assert getattr(sc.rules, k) == v, k
        assert SimpleCardRules.model_fields[k].default == v, k
    assert sc.rules.enabled_cts == ["picking", "reading", "balance_shift", "skipping", "moving", "recall",
                                    "changing", "bounce"]


def test_the_sample_pool_is_ours_and_varied():
    sc = load()
    assert sc.pool_status == "ours" and sc.estimated()[0].startswith("card pool (ours")
    assert len({c.name for c in sc.cards}) >= 40
    ranks = {(c.name, c.rank) for c in sc.cards}
    assert len([n for n, r in ranks if r == 2]) >= 3 and [n for n, r in ranks if r == 3] == ["Little Dragon"]
    strongest = {max("abc", key=lambda f: getattr(c, f)) for c in sc.cards if c.rank == 1 and len({c.a, c.b, c.c}) > 1}
    assert strongest == {"a", "b", "c"}
    assert any(c.a == c.b == c.c for c in sc.cards)  # balanced profiles too


def test_default_is_the_sample_and_no_rank2_swaps_only_the_rank2_and_rank3_cards():
    sample, default, none = (yaml.safe_load((DIR / f).read_text()) for f in ("sample.yaml", "default.yaml", "no_rank2.yaml"))
    assert default["cards"] == sample["cards"] == none["cards"] and default["decks"] == sample["decks"]
    cards = {(c["name"] if c["rank"] == 1 else f"{c['name']}/{c['rank']}"): c for c in sample["cards"]}
    for d, e in zip(sample["decks"], none["decks"], strict=True):
        assert d["name"] == e["name"] and sum(e["cards"].values()) == 16
        assert not any("/" in k for k in e["cards"])
        gone = {k: v for k, v in d["cards"].items() if "/" in k}
        added = {k: v - d["cards"].get(k, 0) for k, v in e["cards"].items() if v != d["cards"].get(k, 0)}
        assert sum(gone.values()) == sum(added.values())
        risk = lambda k: sum(cards[k][f] for f in ("active", "passive", "a", "b", "c"))  # noqa: E731
        for k in added:  # similar cost: within 3 points of a swapped-out card
            assert min(abs(risk(k) - risk(g)) for g in gone) <= 3


def test_every_shipped_scenario_validates_and_names_no_private_files():
    for f in DIR.glob("*.yaml"):
        load(f.name)
        text = f.read_text()
        assert "shared/" not in text and "originals" not in text and "simplecard.md" not in text


@pytest.mark.parametrize("sets,message", [
    ({"decks.0.cards.Ash Wolf": 3}, "decks.0.cards: 'Brawlers' has 17 cards; a deck is 16 (rules.deck_size)"),
    ({"decks.0.cards.Ash Wolf": 1}, "decks.0.cards: 'Brawlers' has 15 cards; a deck is 16 (rules.deck_size)"),
    ({"decks.0.cards.Iron Kite": 4, "decks.0.cards.Ash Wolf": 1},
     "decks.0.cards: 'Brawlers' has 5 copies of 'Iron Kite'; at most 4 (rules.max_copies, counted by name)"),
    ({"decks.0.cards.Nobody": 1}, "decks.0.cards.Nobody: no such card in `cards`"),
    ({"cards.0.name": "Lonely", "cards.0.rank": 2}, "cards.0: rank-2 'Lonely' has no rank-1 card of the same name"),
    ({"seat_decks": ["Nope"]}, "seat_decks.0: no deck named 'Nope'"),
])
def test_a_broken_deck_or_pool_is_one_line_naming_file_field_and_problem(sets, message):
    with pytest.raises(UserError) as e:
        load(**sets)
    text = str(e.value)
    assert "\n" not in text and text.startswith(str(DIR / "sample.yaml")) and message in text


def test_copy_limit_scope_name_and_rank_counts_each_rank_apart():
    sets = {"decks.0.cards.Iron Kite": 4, "decks.0.cards.Ash Wolf": 1}
    assert load(**sets, **{"rules.copy_limit_scope": "name_and_rank"}).decks[0].cards["Iron Kite"] == 4
    load(**{"rules.max_copies": 3, "rules.copy_limit_scope": "name_and_rank", "decks.0.cards.Iron Kite": 3})
    with pytest.raises(UserError, match="4 copies of 'Iron Kite'"):
        load(**{"rules.max_copies": 3, "decks.0.cards.Iron Kite": 3})


def test_the_beginner_preset_allows_small_decks():
    sc = load(**{"rules.enforce_deck_size": False, "rules.risk_limit": 10, "decks.0.cards.Ash Wolf": 1})
    assert sum(sc.decks[0].cards.values()) == 15


def test_describe_lists_every_rule_parameter():
    from typer.testing import CliRunner

    from analyzer.cli import app
    out = CliRunner().invoke(app, ["games", "--describe", "simplecard"]).output
    for k in SPEC_DEFAULTS:
        assert k in out, k


@pytest.mark.parametrize("name,changed", [
    ("beginner.yaml", {"risk_limit": 10, "enforce_deck_size": False}),
    ("three_cts.yaml", {"enabled_cts": ["picking", "changing", "bounce"]}),
])
def test_the_specs_presets_ship_as_scenarios_differing_from_default_only_in_their_rules(name, changed):
    preset, default = load(name), load("default.yaml")
    before, after = default.rules.model_dump(), preset.rules.model_dump()
    assert {k: v for k, v in after.items() if before[k] != v} == changed
    assert preset.cards == default.cards and preset.decks == default.decks


def test_the_presets_play_their_rules():
    """Beginner games end when a Risk total reaches 10; with three techniques the ct player never uses the
    other five, and does use some of the three."""
    b = GAME.run_batch(load("beginner.yaml"), 5, np.arange(60))
    assert (b.score + b.extra["risk"] == 10).all() and (b.extra["risk"][b.extra["lost"] == 1] >= 10).all()
    sc = analyzer.load_scenario(GAME, DIR / "three_cts.yaml", policy=["ct"])
    cts = GAME.run_batch(sc, 5, np.arange(60)).extra["cts"].sum(axis=(0, 1))
    on = [CT_NAMES.index(k) for k in ("picking", "changing", "bounce")]
    assert cts[on].sum() > 0 and cts.sum() == cts[on].sum()


def test_threads_play_the_same_rows_as_worker_processes():
    assert GAME.kernel_releases_gil  # engine.play is compiled with nogil=True: local runs default to threads
    info: dict = {}
    threads = analyzer.sim(GAME, n=200, seed=3, jobs=2, chunk=40, info=info, policy=["ct", "greedy"])
    loky = analyzer.sim(GAME, n=200, seed=3, jobs=2, chunk=50, backend="loky", policy=["ct", "greedy"])
    assert info["backend"] == "threads" and threads.equals(loky)
