"""Simply Cosmic's view test: re-deal what the deciding player cannot know (the other hands, the deck
order, the destiny order) consistently with their view, and no decision may change. And Mind: its
view holds the hand it saw (a snapshot), and its policy uses it."""
import numpy as np
import pytest

from analyzer import rng
from analyzer.games.cosmic import decisions as dec
from analyzer.games.cosmic import policies as P
from analyzer.games.cosmic import state as L
from analyzer.games.cosmic.state import ST, R

POLICIES = (P.HEURISTIC, P.CAUTIOUS)


def dealt_position(Pos, seed, players=4):
    """A table after a few heuristic turns from a random deal."""
    pos = Pos(players, aliens=["Mind", "Warpish", "Loser", "Zombie"], policies=("heuristic",))
    pos.deal_at_random(np.random.default_rng(seed))
    pos.destiny(*[f"reg{q}" for q in range(players)] * 4, "wild", "left", "most", "tenacious")
    for t in range(3):
        if pos.turn(t % players, seed=seed * 10 + t):
            break
    return pos


def redeal(pos, p, seed):
    """Every card p cannot see (other hands, the deck) shuffled and dealt again, hand sizes kept."""
    st = pos.st.copy()
    r = np.random.default_rng(seed)
    hidden = [int(st[ST.DECK + i]) for i in range(int(st[ST.DECKN]))]
    others = [q for q in range(pos.players) if q != p]
    for q in others:
        for k in range(L.KMAX):
            hidden += [k] * int(st[ST.HAND + q * L.KMAX + k])
            st[ST.HAND + q * L.KMAX + k] = 0
    r.shuffle(hidden)
    for q in others:
        for _ in range(int(st[ST.HANDN + q])):
            st[ST.HAND + q * L.KMAX + hidden.pop()] += 1
    st[ST.DECK:ST.DECK + len(hidden)] = hidden
    r.shuffle(st[ST.DDECK:ST.DDECK + int(st[ST.DDECKN])])
    return st


def decision_points(pos, p):
    """(kind, arg, options) a seat may face, with the challenge fields of a plausible challenge."""
    st, d = pos.st, pos.d
    hand = [k for k in range(int(d[R.KINDS])) if st[ST.HAND + p * L.KMAX + k] > 0]
    challenge = [k for k in hand if L.is_challenge_card(d, k)]
    plays = [P.PLAY_PASS] + [k * P.PLAY_ARGS + s for k in hand for s in (0, 1)]
    points = [(dec.D_ANSWER, 0, [0, 1, 2]), (dec.D_CONE, 0, [1, 2, 3, 4]), (dec.D_TARGET, 0, list(range(5, 10))),
              (dec.D_DEAL, 0, [0, 1, 2, 3]), (dec.D_ACCEPT, 1, [0, 1]), (dec.D_REWARD, 0, [0, 1]),
              *[(dec.D_PLAY, w, plays) for w in range(6)], (dec.D_SECOND, 0, [0, 1]), (dec.D_CARD_ZAP, 0, [0, 1]), (dec.D_COSMIC_ZAP, 0, [0, 1]),
              (dec.D_HOME, 0, list(range(0, 20, 3)))]
    if len(challenge) > 1:
        points.append((dec.D_CARD, 0, challenge))
        points.append((dec.D_DISCARD, 0, challenge))
    return points


def set_challenge(pos):
    st = pos.st
    attack = int(np.flatnonzero(pos.types == L.C_ATTACK)[3])
    st[ST.OFF], st[ST.DEF], st[ST.SYSTEM], st[ST.PLANET] = 0, 1, 1, 5
    st[ST.OCONE] = 2
    st[ST.SHOWN_O] = st[ST.SHOWN_D] = attack
    st[ST.PLAYED_BY], st[ST.PLAYED_KIND], st[ST.PLAYED_ARG] = 2, int(np.flatnonzero(pos.types == L.C_FLARE)[0]), 1


@pytest.mark.parametrize("seed", range(4))
def test_a_decision_depends_only_on_the_players_view(Pos, seed):
    pos = dealt_position(Pos, seed)
    set_challenge(pos)
    view = np.zeros(P.VIEW_SIZE, np.int64)
    checked = 0
    for p in range(pos.players):
        for kind, arg, options in decision_points(pos, p):
            opts = np.array(options, np.int64)
            for code in POLICIES:
                picks = set()
                for k in range(6):
                    st = pos.st if k == 0 else redeal(pos, p, seed * 100 + k)
                    P.fill_view(view, st, pos.d, p, kind, arg)
                    picks.add(int(P.decide(code, st[:L.PUB_END], view, P.own_hand(st, p), opts, len(opts),
                                           rng.new_stream(k, 0), np.zeros(0, np.int64), np.zeros(1, np.int64),
                                           pos.d, pos.judgement("heuristic" if code == P.HEURISTIC else "cautious"))))
                assert len(picks) == 1, (p, kind, code)
                checked += 1
    assert checked > 60


def mind_defends(Pos, seen_card):
    """Mind (seat 1) defends planet 5 (4 tokens) against one token, holding A8 and A15; it saw the
    offense's hand holding `seen_card` (None: it saw nothing)."""
    pos = Pos(2, aliens=["Filch", "Mind"]).hand(1, "A8", "A15")
    st = pos.st
    st[ST.OFF], st[ST.DEF], st[ST.SYSTEM], st[ST.PLANET], st[ST.OCONE] = 0, 1, 1, 5, 1
    if seen_card:
        pos.hand(0, seen_card)
        st[ST.SEEN:ST.SEEN + L.KMAX] = st[ST.HAND:ST.HAND + L.KMAX]
        st[ST.SEEN_WHO] = 0
        st[ST.SEEN_BY] = 1
    view = np.zeros(P.VIEW_SIZE, np.int64)
    P.fill_view(view, st, pos.d, 1, dec.D_CARD, 0)
    opts = np.array([pos.kind("A8"), pos.kind("A15")], np.int64)
    k = P.decide(P.HEURISTIC, st[:L.PUB_END], view, P.own_hand(st, 1), opts, 2, rng.new_stream(0, 0),
                 np.zeros(0, np.int64), np.zeros(1, np.int64), pos.d, pos.judgement())
    return opts[k], pos


def test_minds_policy_uses_the_hand_it_saw(Pos):
    unseen, pos = mind_defends(Pos, None)
    low, _ = mind_defends(Pos, "A1")
    high, _ = mind_defends(Pos, "A14")  # needs 1 - 4 + 14 = 11: only the 15 holds
    assert unseen == pos.kind("A8") and low == pos.kind("A8") and high == pos.kind("A15")
