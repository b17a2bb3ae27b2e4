"""Simply Cosmic's own view tests. The contract (tests/test_contract.py) runs the view check of
analyzer/games/cosmic/views.py for every policy; here: that check catches a policy reading another hand,
and Mind's view holds the hand it saw (a snapshot), which its policy uses."""
import numpy as np

import analyzer
from analyzer import rng
from analyzer.games.base import view_redeals
from analyzer.games.cosmic import GAME, views
from analyzer.games.cosmic import decisions as dec
from analyzer.games.cosmic import policies as P
from analyzer.games.cosmic import state as L
from analyzer.games.cosmic import view as V
from analyzer.games.cosmic.state import ST
from analyzer.kernel import plain_ask


def test_the_view_check_catches_a_policy_that_reads_another_hand(monkeypatch):
    """The contract's check (analyzer/games/cosmic/views.py) is felt: a policy handed the next seat's hand
    as its own decides differently once the hidden cards are re-dealt."""
    sc = analyzer.load_scenario(GAME, policy="heuristic")
    own_hand = V.own_hand
    monkeypatch.setattr(V, "own_hand", lambda st, p: own_hand(st, (p + 1) % sc.players))
    assert any(changed for _, changed in view_redeals(views, sc, range(4), np.random.default_rng(0)))


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
    view = np.zeros(V.VIEW_SIZE, np.int64)
    V.fill_view(view, st, pos.d, 1, dec.D_CARD, 0)
    opts = np.array([pos.kind("A8"), pos.kind("A15")], np.int64)
    k = P.decide(P.HEURISTIC, st[:L.PUB_END], view, V.own_hand(st, 1), opts, 2, rng.new_stream(0, 0),
                 np.zeros(0, np.int64), plain_ask(), pos.d, pos.judgement())
    return opts[k], pos


def test_minds_policy_uses_the_hand_it_saw(Pos):
    unseen, pos = mind_defends(Pos, None)
    low, _ = mind_defends(Pos, "A1")
    high, _ = mind_defends(Pos, "A14")  # needs 1 - 4 + 14 = 11: only the 15 holds
    assert unseen == pos.kind("A8") and low == pos.kind("A8") and high == pos.kind("A15")


def _pairs_by_hand(ctype, cval, copies_o, copies_d):
    """The pair table counted card by card from two decks of copies: an independent oracle for odds.py."""
    odds = np.zeros(L.ODDS_SIZE, np.int64)
    for i in np.flatnonzero(copies_o):
        for j in np.flatnonzero(copies_d):
            w = copies_o[i] * copies_d[j]
            if ctype[i] == L.C_ATTACK and ctype[j] == L.C_ATTACK:
                odds[L.ODDS_CUM + L.DIFF + cval[i] - cval[j]] += w
            elif ctype[i] == L.C_ATTACK:
                odds[1] += w
            elif ctype[j] == L.C_ATTACK:
                odds[2] += w
            odds[0] += w
    odds[L.ODDS_CUM:] = np.cumsum(odds[L.ODDS_CUM:])
    return odds


def test_the_alliance_odds_tables_hold_the_decks_card_pairs():
    """kernel_inputs fills d with the pair tables policies.card_odds reads: neither card known (both from
    the deck's challenge cards by copies), the offense's known, the defense's known."""
    from analyzer.games.cosmic.scenario import kernel_inputs
    from analyzer.games.cosmic.state import R
    d = kernel_inputs(analyzer.load_scenario(GAME))[0]
    k = int(d[R.CHALLENGE_KINDS])
    ctype, cval, copies = d[R.CTYPE:R.CTYPE + k], d[R.CVAL:R.CVAL + k], d[R.COPIES:R.COPIES + k]
    table = d[R.CARD_ODDS:R.CARD_ODDS + L.ODDS_TABLES * L.ODDS_SIZE].reshape(L.ODDS_TABLES, L.ODDS_SIZE)
    assert table[0].tolist() == _pairs_by_hand(ctype, cval, copies, copies).tolist()
    assert table[0, 0] == copies.sum() ** 2
    for known in (0, k - 1):
        one = np.eye(k, dtype=np.int64)[known]
        assert table[1 + known].tolist() == _pairs_by_hand(ctype, cval, one, copies).tolist()
        assert table[1 + L.KMAX + known].tolist() == _pairs_by_hand(ctype, cval, copies, one).tolist()
