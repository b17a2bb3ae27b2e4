"""Simple Card's `search` player (analyzer/search.py): what each seat has seen of the other's hidden cards
(engine.seen_*), the re-deal at a rollout's branch (engine.redeal, reached through the engine's own ask
as kernel.search_step asks it), and a position where one option wins on the spot, which search finds and
the tuned greedy does not."""
from collections import Counter

import numpy as np
import pytest
from test_simplecard_rules import PRE, ct_table

import analyzer
from analyzer import kernel
from analyzer.games.simplecard import GAME, views
from analyzer.games.simplecard import decisions as D
from analyzer.games.simplecard import engine as E
from analyzer.games.simplecard import policies as P
from analyzer.games.simplecard import table as T
from analyzer.games.simplecard.scenario import CT_NAMES, F

A, B = 0, 1  # the seats (the table fixture's players)
IN_HAND, IN_HAND_OR_SET = E.IN_HAND, E.IN_HAND_OR_SET


def known(t, q, where):
    """What q's opponent has seen of q's hand (IN_HAND) or of its hand and set card (IN_HAND_OR_SET)."""
    return {t.keys[c]: int(k) for c, k in enumerate(t.seen[q, where]) if k}


# ---- what a seat has seen ----------------------------------------------------------------------------------
def test_a_main_seen_back_into_its_owners_hand_stays_known_there_through_a_set_card(table):
    t = table().main(B, "Def").hand(A, "Atk", "Def")  # B: hand Cheap, deck Two
    t.act(B)  # Def returns (seen), Two is drawn (unseen), Cheap is set face down: Def may be the set card
    assert t.hand_of(B) == ["Def", "Two"] and t.main_of(B) == ("Cheap", 1, False)
    assert known(t, B, IN_HAND) == {} and known(t, B, IN_HAND_OR_SET) == {"Def": 1}
    t.act(A)  # Atk attacks the set card, which opens: Cheap; so Def is in B's hand
    assert "  seat 1's set card opens: Cheap" in GAME.describe(t.sc, t.events)
    assert known(t, B, IN_HAND) == {"Def": 1} and known(t, B, IN_HAND_OR_SET) == {}
    assert known(t, A, IN_HAND) == {} and known(t, A, IN_HAND_OR_SET) == {}  # nothing went into A's hand in view


@pytest.mark.parametrize("placed,left", [("Cheap", {"Def": 1}), ("Def", {})])
def test_a_card_seen_leaving_the_hand_is_known_there_no_more(table, placed, left):
    t = table(script=[["Cheap", "Def", "Two"].index(placed)]).main(B, "Def").main(A, "Big")
    lines = t.act(B)  # Def returns to B's hand (seen), Two is drawn; B places one face up against Big
    assert f"  seat 1 places {placed} (1 cards) face up" in lines
    assert known(t, B, IN_HAND) == left


def test_picking_shows_the_whole_hand_and_reading_the_top_of_ones_own_deck(table):
    t = ct_table(table, [PRE.index("picking"), 1, 1])  # cast Cheap, pick Big of B's Def, Big
    t.act(A)
    assert t.hand_of(B) == ["Def"] and known(t, B, IN_HAND) == {"Def": 1}
    t = ct_table(table, [PRE.index("reading"), 0, 1, 1], reading_depth="a").deck(A, "Hero", "Big", "D5", "D6")
    t.act(A)  # cast Atk (a 3): the top 3 read
    assert t.n[A, T.N_TOP_SEEN] == 3 and t.n[B, T.N_TOP_SEEN] == 0


def test_a_redeal_keeps_a_hand_seen_whole_as_it_was_and_the_seats_seen_deck_top(table):
    t = ct_table(table, [PRE.index("picking"), 1, 1]).hand(B, "Def", "Big", "D5", "Two").deck(B, "Big", "Atk", "D6")
    t.deck(A, "Hero", "Big", "D5", "D6", "Atk", "Def")
    t.act(A)  # B's hand seen whole: Def, D5, Two (Big picked)
    hand_b, deck_a, deck_b = t.hand_of(B), t.deck_of(A), t.deck_of(B)
    t.n[A, T.N_TOP_SEEN] = 2  # as after a Reading of 2
    moved = set()
    for world in range(8):
        E.redeal(t.zones, t.data, A, np.array([world], np.uint64))
        assert t.hand_of(B) == hand_b and t.deck_of(A)[:2] == deck_a[:2]
        assert Counter(t.deck_of(A)) == Counter(deck_a) and Counter(t.deck_of(B)) == Counter(deck_b)
        moved.add((tuple(t.deck_of(A)), tuple(t.deck_of(B))))
    assert len(moved) > 4


# ---- the re-deal at a rollout's branch, from real game states ------------------------------------------
SEEDS = range(12)


def scramble(pos, gen):
    """What the position's seat cannot see dealt anew, by this test's own hand (numpy's generator): its deck
    under the top it has seen shuffled; the opponent's hand, deck and set card dealt among them (views.redeal's
    deal), again until the deal keeps the cards the seat has seen go into that hand (or set card) there and
    the set card is a rank-1 card; a hand the seat has seen whole stays as it is."""
    p, q, n = pos.seat, 1 - pos.seat, pos.n
    m = n[p, T.N_DECK] - n[p, T.N_TOP_SEEN]
    pos.deck[p, :m] = gen.permutation(pos.deck[p, :m])
    hn, dn = int(n[q, T.N_HAND]), int(n[q, T.N_DECK])
    has_set = n[q, T.N_MAIN_H] > 0 and not n[q, T.N_MAIN_UP]
    in_hand = Counter({c: int(k) for c, k in enumerate(pos.seen[q, IN_HAND]) if k})
    in_either = in_hand + Counter({c: int(k) for c, k in enumerate(pos.seen[q, IN_HAND_OR_SET]) if k})
    whole = sum(in_hand.values()) == hn
    hand = list(pos.hand[q, :hn])
    pool = ([] if whole else hand) + list(pos.deck[q, :dn]) + ([int(n[q, T.N_MAIN_BASE])] if has_set else [])
    for _ in range(100_000):
        dealt = list(gen.permutation(pool))
        new_hand, rest = (hand, dealt) if whole else (dealt[:hn], dealt[hn:])
        set_card = rest[:1] if has_set else []
        if (not in_hand - Counter(new_hand) and not in_either - Counter(new_hand + set_card)
                and all(pos.cards[c, F.RANK] == 1 for c in set_card)):
            break
    else:
        raise AssertionError("no deal keeps what the seat has seen")
    pos.hand[q, :hn] = new_hand
    if has_set:
        n[q, T.N_MAIN_BASE] = set_card[0]
    pos.deck[q, :dn] = rest[len(set_card):]


def branch(pos, world):
    """The position's seat makes a search decision in a rollout that branches here (its contact choice, three
    options; kernel.search_step) through the engine's own ask: the game's stream is swapped for the world's
    and the engine re-deals what the seat cannot see. Returns the option taken."""
    p = pos.seat
    ctl = pos.ctl
    ctl[:] = 0
    ctl[kernel.A_MODE], ctl[kernel.A_OPTION], ctl[kernel.A_WORLD], ctl[kernel.A_ROLLOUT] = kernel.ROLLOUT, 2, world, P.GREEDY
    pos.policy[p] = kernel.SEARCH + p
    for x in range(3):
        pos.options[x] = (x, 0, 0)
    k = E.ask(D.D_CONTACT, p, p, pos.zones, pos.data, pos.pol, 3, -1, 0, -1)
    assert ctl[kernel.A_STOP] == p + 1 and ctl[kernel.A_REDEAL] == 0  # branched, and the re-deal done
    return k


def state(pos):
    return [x.copy() for x in (pos.n, pos.deck, pos.hand, pos.risk, pos.seen)]


def cards_of(pos, q):
    """Player q's cards in hand, deck and a set Main, as a multiset (a face-up Main is seen)."""
    n = pos.n
    out = Counter(pos.hand[q, :n[q, T.N_HAND]].tolist()) + Counter(pos.deck[q, :n[q, T.N_DECK]].tolist())
    return out + (Counter([int(n[q, T.N_MAIN_BASE])]) if n[q, T.N_MAIN_H] and not n[q, T.N_MAIN_UP] else Counter())


@pytest.fixture(scope="module")
def ct_scenario():
    return analyzer.load_scenario(GAME, policy="ct")  # ct: Picking, Reading and the rest shape what is seen


def test_states_that_differ_only_in_what_the_seat_cannot_see_are_the_same_after_the_branch(ct_scenario):
    gen, differed, with_seen = np.random.default_rng(5), 0, 0
    for seed in SEEDS:
        one, other = views.position(ct_scenario, seed), views.position(ct_scenario, seed)
        scramble(other, gen)
        differed += any((a != b).any() for a, b in zip(state(one), state(other), strict=True))
        with_seen += bool(one.seen[1 - one.seat].any())
        assert branch(one, 99 + seed) == branch(other, 99 + seed) == 2
        for a, b in zip(state(one), state(other), strict=True):
            assert (a == b).all(), f"seed {seed}"
    assert differed == len(SEEDS) and with_seen >= 3  # the scramble reached every state; some seat had seen cards


def test_the_branch_leaves_what_the_seat_sees_and_conserves_each_players_cards(ct_scenario):
    moved = 0
    for seed in SEEDS:
        pos = views.position(ct_scenario, seed)
        p, q = pos.seat, 1 - pos.seat
        n0, deck0, hand0, risk0, seen0 = state(pos)
        mine, theirs = cards_of(pos, p), cards_of(pos, q)
        branch(pos, 7 + seed)
        n, top = pos.n, int(n0[p, T.N_TOP_SEEN])
        same = np.ones_like(n0, bool)
        same[q, T.N_MAIN_BASE] = n0[q, T.N_MAIN_UP] or not n0[q, T.N_MAIN_H]  # a set card is re-dealt
        same[q, T.N_TOP_SEEN] = False  # the opponent's own view of its deck goes with it
        assert (n[same] == n0[same]).all() and (pos.risk == risk0).all() and (pos.seen == seen0).all()
        assert (pos.hand[p] == hand0[p]).all()  # its own hand, in its order
        assert (pos.deck[p, n[p, T.N_DECK] - top: n[p, T.N_DECK]] == deck0[p, n[p, T.N_DECK] - top: n[p, T.N_DECK]]).all()
        assert cards_of(pos, p) == mine and cards_of(pos, q) == theirs  # each player's cards stay its own
        in_hand = Counter({c: int(k) for c, k in enumerate(seen0[q, IN_HAND]) if k})
        either = in_hand + Counter({c: int(k) for c, k in enumerate(seen0[q, IN_HAND_OR_SET]) if k})
        hand_q = Counter(pos.hand[q, :n[q, T.N_HAND]].tolist())
        assert not in_hand - hand_q and not either - (cards_of(pos, q) - Counter(pos.deck[q, :n[q, T.N_DECK]].tolist()))
        if n[q, T.N_MAIN_H] and not n[q, T.N_MAIN_UP]:
            assert pos.cards[n[q, T.N_MAIN_BASE], F.RANK] == 1
        moved += not ((pos.deck == deck0).all() and (pos.hand == hand0).all())
    assert moved == len(SEEDS)


# ---- search finds the win on the spot --------------------------------------------------------------------------
def _card(name, active, passive, a, b, c):
    return {"name": name, "rank": 1, "active": active, "passive": passive, "a": a, "b": b, "c": c}


def skipping_wins(seat0, **sets):
    """Seat 0 (Pebbles: a dozen 1-point cards) against scripted seat 1 (Boulders: 25-point cards, Risk limit 20).
    Seat 1's balancer outweighs: it chooses, and goes first (the script's option 0), setting a Boulder. At seat
    0's first pre-scene Skipping (the one technique on) puts seat 1's next Boulder on its Balance, and the old
    balancer goes to its Risk (old_balancer: risk): 25 points, seat 1 loses on the spot. Proceeding, seat 0
    loses every contact and decks out."""
    return analyzer.load_scenario(GAME, policy=[seat0, "scripted"], set={
        "cards": [_card("Pebble", 0, 0, 1, 0, 0), _card("Boulder", 5, 5, 5, 5, 5)],
        "decks": [{"name": "Pebbles", "cards": {"Pebble": 12}}, {"name": "Boulders", "cards": {"Boulder": 6}}],
        "seat_decks": ["Pebbles", "Boulders"], "rules.enforce_deck_size": False, "rules.max_copies": 12,
        "rules.risk_limit": 20, "rules.old_balancer": "risk", "rules.enabled_cts": ["skipping"], "script": [], **sets})


SKIP = CT_NAMES.index("skipping")


def test_search_skips_to_win_on_the_spot_where_the_tuned_greedy_proceeds_and_loses():
    sc = skipping_wins("search", **{"weights": {"search": {"rollouts": 8}}})
    assert sc.rollout_policy == "greedy" and sc.rollout_weights  # the tuned player of scenarios/simplecard/tuned.yaml
    for seed in range(3):
        b = GAME.run_batch(sc, seed, np.array([0]), trace=True)
        first = b.searched[0]  # seat 0's first decision: its pre-scene menu [proceed, skipping]
        assert (first.seat, len(first.means), first.default, first.chosen) == (0, 2, 0, 1)
        assert first.means.tolist() == [0.0, 1.0]
        events = [tuple(int(x) for x in r) for r in b.events]
        assert any(r[0] == E.E_SKIP and r[1] == B for r in events)
        assert b.is_winner[0].tolist() == [True, False] and b.length[0] == 2 and b.extra["end"][0] == E.END_RISK
    tuned = skipping_wins("greedy", weights={"greedy": sc.rollout_weights})
    b = GAME.run_batch(tuned, 0, np.arange(3))
    assert not b.is_winner[:, 0].any() and b.extra["cts"][:, 0, SKIP].sum() == 0  # it never skips, and loses


def test_a_search_game_plays_the_same_in_any_chunk():
    sc = analyzer.load_scenario(GAME, policy=["search", "ct"], set={"weights": {"search": {"rollouts": 2}}})
    ids = np.arange(3, dtype=np.int64)
    whole = GAME.run_batch(sc, 4, ids)
    parts = [GAME.run_batch(sc, 4, ids[i:i + 1]) for i in range(3)]
    assert (whole.score == np.concatenate([b.score for b in parts])).all()
    assert (whole.length == np.concatenate([b.length for b in parts])).all()
