"""Simply Cosmic's search player (analyzer/search.py): at a rollout's branch the engine deals again what the
deciding seat cannot see (hidden.redeal_hidden: the other hands, a face-down card not its own, the challenge
deck's and the destiny deck's order), which depends only on what the seat can know and keeps the hand Mind
showed it; a plain decision deals nothing; search takes the option that wins on the spot where the tuned
heuristic does not; a chunk of games plays each as alone; `sim --policy search` plays."""
import copy
from collections import Counter

import numpy as np
import pytest

import analyzer
from analyzer import cli, kernel
from analyzer.games.cosmic import GAME, views
from analyzer.games.cosmic import context as C
from analyzer.games.cosmic import decisions as D
from analyzer.games.cosmic import state as L
from analyzer.games.cosmic.hidden import redeal_hidden
from analyzer.games.cosmic.scenario import card_table
from analyzer.games.cosmic.state import ST, R

BRANCH = 0x5EED5EED  # a rollout's stream at its branch (kernel.search_step swapped it in)


def _position(players, seed, face_down=False):
    """A real table (views.Position: a seeded deal played 3 turns on, a challenge laid over it), nobody's hand
    seen, two cards of the defense's hand set aside (Laser, ffg); with face_down, both challenge cards chosen
    and not yet shown (the offense's from its hand)."""
    sc = analyzer.load_scenario(GAME, players=players)
    pos = views.position(sc, seed)
    st = pos.st
    st[ST.SEEN_WHO] = st[ST.SEEN_BY] = -1
    if face_down:
        st[ST.SHOWN_O] = st[ST.SHOWN_D] = -1
        for slot, q in ((ST.OCARD, st[ST.OFF]), (ST.DCARD, st[ST.DEF])):
            k = next(k for k in range(int(pos.d[R.CHALLENGE_KINDS])) if pos.hand_of(q)[k] > 0)
            pos.hand_of(q)[k] -= 1
            st[ST.HANDN + q] -= 1
            st[slot] = k
    de = st[ST.DEF]
    for k in np.flatnonzero(pos.hand_of(de))[-2:]:
        pos.hand_of(de)[k] -= 1
        st[ST.HANDN + de] -= 1
        L.STATE.field(st, "aside")[de, k] += 1
    return pos


def _hidden_slots(st, seat):
    return [slot for slot, q in ((ST.OCARD, st[ST.OFF]), (ST.DCARD, st[ST.DEF]))
            if st[slot] >= 0 and st[ST.SHOWN_O] < 0 and q != seat]


def _shuffle_hidden(pos, rng):
    """What pos.seat cannot see dealt again by another hand (numpy's): the other hands and their set-aside
    cards, each its size, a face-down card not its own (a challenge card), the challenge deck; the destiny
    deck reshuffled."""
    st, d, aside = pos.st, pos.d, L.STATE.field(pos.st, "aside")
    pool = [int(k) for k in st[ST.DECK:ST.DECK + int(st[ST.DECKN])]]
    sizes = {q: int(aside[q].sum()) for q in pos.others()}
    for q in pos.others():
        pool += [k for k in range(L.KMAX) for _ in range(int(pos.hand_of(q)[k] + aside[q, k]))]
        pos.hand_of(q)[:] = aside[q] = 0
    slots = _hidden_slots(st, pos.seat)
    pool += [int(st[slot]) for slot in slots]
    rng.shuffle(pool)
    for slot in slots:
        st[slot] = pool.pop(next(i for i, k in enumerate(pool) if L.is_challenge_card(d, k)))
    for q in pos.others():
        for _ in range(sizes[q]):
            aside[q, pool.pop()] += 1
        for _ in range(int(st[ST.HANDN + q])):
            pos.hand_of(q)[pool.pop()] += 1
    st[ST.DECK:ST.DECK + len(pool)] = pool
    rng.shuffle(st[ST.DDECK:ST.DDECK + int(st[ST.DDECKN])])


def _cards(pos):
    """Every challenge-deck card and destiny card of the position, wherever it is."""
    st = pos.st
    cards = Counter([int(k) for k in st[ST.DECK:ST.DECK + int(st[ST.DECKN])]]
                    + [int(k) for k in st[ST.DISC:ST.DISC + int(st[ST.DISCN])]]
                    + [int(st[s]) for s in (ST.OCARD, ST.DCARD) if st[s] >= 0])
    for q in range(pos.P):
        cards.update({k: int(n) for k, n in enumerate(pos.hand_of(q) + L.STATE.field(st, "aside")[q]) if n})
    destiny = Counter(int(c) for c in st[ST.DDECK:ST.DDECK + int(st[ST.DDECKN])])
    return cards, destiny


def _redeal(pos, stream=BRANCH):
    redeal_hidden(pos.st, pos.d, np.int64(pos.seat), np.array([stream], np.uint64))


def _copy(pos):
    twin = copy.copy(pos)
    twin.st = pos.st.copy()
    return twin


@pytest.mark.parametrize("face_down", [False, True])
@pytest.mark.parametrize("players,seed", [(2, 0), (3, 1), (4, 2), (4, 7)])
def test_the_branch_redeal_depends_only_on_what_the_seat_can_see(players, seed, face_down):
    """Two real states that differ only in what the seat cannot see are one state after the branch's re-deal
    with the same stream; the public block (tokens, the challenge, every hand's size), the seat's own hand and
    card, the discards and every count (the set-aside cards' too) stay, the cards are conserved, and another
    stream deals another world."""
    pos = _position(players, seed, face_down)
    before, twin = _copy(pos), _copy(pos)
    _shuffle_hidden(twin, np.random.default_rng(seed))
    assert not np.array_equal(views.hidden(twin), views.hidden(pos))
    _redeal(pos)
    _redeal(twin)
    a, b, was = pos.st, twin.st, before.st
    assert (a == b).all()
    assert (a[:L.PUB_END] == was[:L.PUB_END]).all()
    assert (pos.hand_of(pos.seat) == before.hand_of(pos.seat)).all()
    assert (a[ST.DISC:ST.DISCN + 1] == was[ST.DISC:ST.DISCN + 1]).all() and a[ST.DECKN] == was[ST.DECKN]
    assert a[ST.DDECKN] == was[ST.DDECKN] and (a[ST.DDISC:ST.DDISCN + 1] == was[ST.DDISC:ST.DDISCN + 1]).all()
    assert _cards(pos) == _cards(before)
    sizes = L.STATE.field(a, "aside").sum(axis=1)
    assert (sizes == L.STATE.field(was, "aside").sum(axis=1)).all() and sizes[was[ST.DEF]] > 0
    for slot in _hidden_slots(was, pos.seat):
        assert L.is_challenge_card(pos.d, a[slot])
    for slot in {ST.OCARD, ST.DCARD} - set(_hidden_slots(was, pos.seat)):
        assert a[slot] == was[slot]  # its own card, or none
    assert not np.array_equal(views.hidden(pos), views.hidden(before))  # re-dealt
    other = _copy(before)
    _redeal(other, 7)
    assert not np.array_equal(views.hidden(other), views.hidden(pos))  # a draw from the stream, not a sort


def _worlds(pos, n=12):
    out = []
    for k in range(n):
        w = _copy(pos)
        _redeal(w, 1000 + k)
        assert _cards(w) == _cards(pos)
        out.append(w)
    return out


def test_the_hand_mind_showed_the_seat_stays_where_it_saw_it():
    """Seat p saw seat q's hand (Mind): every world keeps q's hand as it is, less a card q has played since,
    which is dealt anew; the other hands are re-dealt. A hand another seat saw is, in that seat's eyes, the
    hand now dealt (p cannot see what it saw)."""
    pos = _position(3, 4)
    st, p = pos.st, pos.seat
    q, r = (p + 1) % 3, (p + 2) % 3
    st[ST.SEEN:ST.SEEN + L.KMAX] = pos.hand_of(q)
    st[ST.SEEN_WHO], st[ST.SEEN_BY] = q, p
    worlds = _worlds(pos)
    assert all((w.hand_of(q) == pos.hand_of(q)).all() for w in worlds)
    assert len({tuple(w.hand_of(r)) for w in worlds}) > 1
    k = int(np.flatnonzero(pos.hand_of(q))[0])
    pos.hand_of(q)[k] -= 1  # q plays a card of the hand p saw, and draws an unseen one
    pos.hand_of(q)[int(st[ST.DECK + st[ST.DECKN] - 1])] += 1
    st[ST.DECKN] -= 1
    kept = np.minimum(st[ST.SEEN:ST.SEEN + L.KMAX], pos.hand_of(q))
    worlds = _worlds(pos)
    assert all((w.hand_of(q) >= kept).all() and w.hand_of(q).sum() == pos.hand_of(q).sum() for w in worlds)
    assert len({tuple(w.hand_of(q)) for w in worlds}) > 1  # its drawn card is unseen
    st[ST.SEEN_BY] = r  # another seat saw q's hand: p cannot see it, and r's view follows the world
    for w in _worlds(pos):
        assert (w.st[ST.SEEN:ST.SEEN + L.KMAX] == w.hand_of(q)).all()


def _ask(pos, seat, ctl, n=2):
    """seat's D_SECOND decision (yes or no) through the engine's own ask, under the control row ctl."""
    P = pos.P
    pol = np.full(P, GAME.Scenario.POLICIES.index("heuristic"), np.int64)
    pol[seat] = kernel.SEARCH + seat
    view, opts, allowed = C.new_scratch()
    opts[:n] = np.arange(n)
    ev, tn = kernel.new_trace(0)
    g, s = (a[0] for a in C.COLUMNS.allocate(1, P))
    stream = np.array([99], np.uint64)
    X = C.new_context(stream, pol, pos.weights, np.zeros(P, np.int64), allowed, np.zeros(0, np.int64), ctl, view, opts,
                      ev, tn, np.int64(0), g, s)
    return C.ask(pos.st, pos.d, X, np.int64(seat), D.D_SECOND, 0, np.int64(n))


def test_a_rollouts_branch_redeals_through_the_engines_ask_and_a_plain_decision_deals_nothing():
    pos = _position(4, 3, face_down=True)
    before = pos.st.copy()
    ctl = kernel.new_ctl(1)[0]
    _ask(pos, pos.seat, ctl)  # a plain game: the search seat plays its rollout code (0: random)
    assert (pos.st == before).all() and ctl[kernel.A_SCRIPT] == 0 and not ctl[1:].any()
    ctl[kernel.A_MODE], ctl[kernel.A_OPTION], ctl[kernel.A_WORLD] = kernel.ROLLOUT, 1, BRANCH
    assert _ask(pos, pos.seat, ctl) == 1  # the branch's option
    assert ctl[kernel.A_REDEAL] == 0 and ctl[kernel.A_STOP] == pos.seat + 1  # done, and noted
    direct = _copy(pos)
    direct.st[:] = before
    _redeal(direct)
    assert (pos.st == direct.st).all() and not (pos.st == before).all()


# ---- search in games ----------------------------------------------------------------------------------
SHORT = {"rules.wins_needed": 2, "weights": {"search": {"rollouts": 1}}}  # short games, the least budget


def test_a_search_seats_decisions_do_not_depend_on_the_games_beside_it():
    """Each game's control row is its own (the context's ctl, set per game): a chunk plays each as alone."""
    sc = analyzer.load_scenario(GAME, policy=["search", "heuristic", "cautious"], players=3, set=SHORT)
    ids = np.arange(3, dtype=np.int64)
    whole = GAME.run_batch(sc, 3, ids)
    for i in ids:
        one = GAME.run_batch(sc, 3, ids[i: i + 1])
        assert one.score.tolist() == whole.score[i: i + 1].tolist()
        assert one.is_winner.tolist() == whole.is_winner[i: i + 1].tolist()


def test_sim_plays_search(tmp_path, capsys):
    out = tmp_path / "r.parquet"
    code = cli.main(["sim", "cosmic", "--n", "2", "--players", "2", "--policy", "search,heuristic", "--out", str(out),
                     "-q", "--set", "rules.wins_needed=2", "--set", "weights.search.rollouts=1"])
    assert code == 0, capsys.readouterr().err
    assert out.exists()


# Two players, 2 foreign bases win. Seat 1 (heuristic) holds one foreign base and attacks seat 0's home planet
# 0 with 4 tokens; seat 0 (Mind, defense) has seen its hand and holds the Loser flare, whose wild side sends
# every token in the challenge to the Warp: both sides lose, so seat 1 does not take its second base.
WIN_AT_2 = {"rules.wins_needed": 2}
SEED, GAME_ID = 1, 15  # found by scanning games 0-99 (8 rollouts, alpha 0.01) for a decision worth a whole game


def _records(b):
    return [tuple(int(x) for x in r) for r in b.events if r[0] != 0]


def test_search_plays_the_flare_that_saves_the_game_where_the_tuned_heuristic_passes_and_loses():
    sc = analyzer.load_scenario(GAME, players=2, policy=["search", "heuristic"],
                                set={**WIN_AT_2, "weights": {"search": {"rollouts": 8, "alpha": 0.01}}})
    tuned = analyzer.load_scenario(GAME, GAME.scenario_dir / "tuned.yaml")
    assert sc.rollout_policy == "heuristic" and sc.rollout_weights == tuned.weights["heuristic"]
    types, values, _ = card_table(sc.deck)
    loser_flare = int(np.flatnonzero((types == L.C_FLARE) & (values == L.LOSER))[0])
    b = GAME.run_batch(sc, SEED, np.array([GAME_ID]), trace=True)
    ev = _records(b)
    i = next(i for i, r in enumerate(ev) if r[0] == kernel.E_SEARCHED and ev[i + 1][:3] == (C.E_PLAY, 0, loser_flare))
    d = ev[i][2]
    at = b.searched[d]
    passing, flare = 0, 1  # cards.card_window: pass first, then the cards it may play
    assert at.seat == 0 and at.default == passing  # the tuned heuristic's own choice here
    assert at.chosen == flare and at.means[flare] == 1 and at.means[passing] <= 0.125 and at.counts.min() >= 8
    assert b.is_winner[0].tolist() == [True, False]

    # the tuned heuristic's choice, played in the same game (seat 0 scripted with search's log, but there)
    log = [s.chosen for s in b.searched[:d]] + [at.default]
    played = analyzer.load_scenario(GAME, players=2, policy=["scripted", "heuristic"], set={**WIN_AT_2, "script": log})
    g = GAME.run_batch(played, SEED, np.array([GAME_ID]), trace=True)
    rows = _records(g)
    assert not any(r[:3] == (C.E_PLAY, 0, loser_flare) for r in rows)
    turns = [r for r in rows if r[0] == C.E_TURN]
    assert turns == [(C.E_TURN, 1, 1, 0, 0)]  # seat 1 wins in the turn the flare would have saved
    assert (C.E_RESULT, 1, 1, 0, 0) in rows and rows[-1][:2] == (C.E_WIN, 1)
    assert g.is_winner[0].tolist() == [False, True]
