"""Simple Card's rules, each driven through the game's own ACT (engine.play_act) on a built position
(tests/simplecard/conftest.py: a test pool with round numbers, the scripted policy choosing), asserting
the outcome at the rule's boundary. Zero balancers (bonus 0) unless a test sets one.

Contact A totals used below: Atk attacking = 3 + 2 = 5; Def defending = 2 + 2 = 4, D5 = 5, D6 = 6."""
import numpy as np
import pytest

import analyzer
from analyzer import rng
from analyzer.games.simplecard import GAME
from analyzer.games.simplecard import engine as E
from analyzer.games.simplecard import table as T

A, B = 0, 1  # the seats (the table fixture's players)

CT_A, CT_B, CT_C = 0, 1, 2


# ---- ACT steps 1-2: return and draw ----------------------------------------------------------------
@pytest.mark.parametrize("deck,drawn", [(["Cheap", "Two", "Atk"], 2), (["Cheap"], 1), ([], 0)])
def test_the_active_main_returns_to_hand_and_the_hand_fills_to_four(table, deck, drawn):
    t = table().hand(A, "Def").main(A, "Atk").deck(A, *deck)
    t.hand(B, "Def")
    lines = t.act(A)
    assert lines[0] == "  seat 0's Main Atk (1 cards) returns to hand"
    assert lines[1] == f"  seat 0 draws {drawn}: hand {2 + drawn}, deck {len(deck) - drawn}"
    assert t.hand_of(A) == ["Atk", *deck[:drawn]]  # Def (first in hand) was placed
    assert t.main_of(A) == ("Def", 1, False)


def test_a_full_hand_draws_nothing(table):
    t = table().hand(A, "Atk", "Def", "Cheap", "Two").deck(A, "Big")
    assert t.act(A)[0] == "  seat 0 draws 0: hand 4, deck 1"


@pytest.mark.parametrize("choice", [0, 1, 2])
def test_draw_optional_lets_the_player_draw_fewer(table, choice):
    t = table(script=[choice], draw_optional=True).hand(A, "Atk", "Def").deck(A, "Cheap", "Two", "Big")
    assert t.act(A)[0] == f"  seat 0 draws {choice}: hand {2 + choice}, deck {3 - choice}"


# ---- the SCENE: placement ----------------------------------------------------------------------------
def test_a_card_is_set_face_down_when_neither_main_holds_a_card(table):
    t = table().hand(A, "Atk", "Def").deck(A, "Cheap")
    lines = t.act(A)
    assert "  seat 0 places Atk (1 cards) set face down" in lines
    assert t.main_of(A) == ("Atk", 1, False) and not any("contact" in line for line in lines)


def test_a_card_is_placed_face_up_and_contacts_when_the_passive_main_holds_a_card(table):
    t = table().hand(A, "Atk", "Def").deck(A, "Cheap").main(B, "Def", face_up=False)
    lines = t.act(A)
    assert lines[1:6] == ["  seat 0 places Atk (1 cards) face up", "  seat 0 chooses contact A",
                          "  seat 1's set card opens: Def", "  A: active seat 0 5 against 4",
                          "  seat 1's Main Def is destroyed: +9 Risk, total 9"]


def test_a_player_with_no_rank1_card_cannot_place_and_loses(table):
    t = table().hand(A, "Hero/2", "Hero/3").main(B, "Def")
    lines = t.act(A)
    assert t.over and t.gs[E.GS_REASON] == E.END_CANNOT_PLACE and t.finish(A)[0] == [0, 1]
    assert not any("places" in line for line in lines)


# ---- stacks ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("choice,height,total", [(0, 1, 2 + 1), (1, 2, 5 + 2), (2, 3, 6 + 3)])
def test_a_stack_is_played_together_from_hand_face_up_with_its_top_cards_numbers(table, choice, height, total):
    t = table(script=[choice]).hand(A, "Hero", "Hero/2", "Hero/3", "Cheap").main(B, "Two").deck(A, "Two")
    lines = t.act(A)  # placement options: Hero alone, Hero + Hero/2, Hero + Hero/2 + Hero/3, Cheap
    top = ["Hero", "Hero/2", "Hero/3"][height - 1]
    assert f"  seat 0 places {top} ({height} cards) face up" in lines
    assert f"  A: active seat 0 {total} against 2" in lines
    assert t.main_of(A) == ("Hero", height, True)
    assert len(t.hand_of(A)) == 4 - height
    assert t.s[A, E.S.STACKS_PLAYED] == (height > 1)


def test_stack_values_sum_adds_every_card_of_the_stack(table):
    t = table(script=[1], stack_values="sum").hand(A, "Hero", "Hero/2", "Cheap", "Two").main(B, "Def")
    assert "  A: active seat 0 10 against 4" in t.act(A)  # (2 + 5) + (1 + 2)


def test_a_rank3_card_stacks_only_on_the_rank2_card_of_its_name(table):
    """Hero and Hero/3 without Hero/2: a rank-3 card goes only on "such a rank-2", so the placements are Hero
    alone, Cheap alone and Two alone, and the script's 1 places Cheap."""
    t = table(script=[1]).hand(A, "Hero", "Hero/3", "Cheap").deck(A, "Two").main(B, "Def")
    lines = t.act(A)
    assert "  seat 0 places Cheap (1 cards) face up" in lines
    assert t.hand_of(A) == ["Hero", "Hero/3", "Two"] and t.s[A, E.S.STACKS_PLAYED] == 0


@pytest.mark.parametrize("needs,asked", [(True, False), (False, True)])
def test_a_stack_needs_the_opponents_main_to_hold_a_card(table, needs, asked):
    t = table(script=[1], stack_needs_opponent_main=needs).hand(A, "Hero", "Hero/2", "Hero/3")
    lines = t.act(A)
    if asked:  # offered on an empty table: face up (a stack is never set), no contact
        assert "  seat 0 places Hero/2 (2 cards) face up" in lines and t.main_of(A) == ("Hero", 2, True)
    else:      # only the rank-1 card alone is offered (not asked: one option)
        assert "  seat 0 places Hero (1 cards) set face down" in lines and t.at[0] == 0


def test_a_destroyed_stack_puts_both_cards_risk_in_its_owners_risk(table):
    t = table(script=[0, CT_B]).hand(A, "Big", "Cheap").deck(A, "Two").main(B, "Hero", height=2)
    lines = t.act(A)
    assert "  B: active seat 0 10 against 7" in lines  # Big 5 + 5 against Hero/2 5 + 2
    assert "  seat 1's Main Hero/2 is destroyed: +27 Risk, total 27" in lines  # Hero 8 + Hero/2 19
    assert t.risk_of(B) == ["Hero", "Hero/2"] and t.main_of(B) is None
    assert t.s[B, E.S.STACKS_DESTROYED] == 1 and t.s[B, E.S.STACK_RISK] == 27 and t.s[B, E.S.STACK_ENDED] == 0


@pytest.mark.parametrize("before,ended", [(2, False), (3, True)])
def test_a_destroyed_stack_that_reaches_the_limit_ends_its_owners_game(table, before, ended):
    t = table(script=[0, CT_B]).hand(A, "Big", "Cheap").deck(A, "Two").main(B, "Hero", height=2).risk(B, points=before)
    t.act(A)
    assert t.s[B, E.S.STACK_ENDED] == ended and t.over == ended


def test_a_rank3_stack_destroyed_adds_all_three_cards(table):
    t = table(script=[0, CT_B]).hand(A, "Big", "Cheap").deck(A, "Two").main(B, "Hero", height=3)
    lines = t.act(A)
    assert "  B: active seat 0 10 against 9" in lines  # Hero/3: 6 + 3
    assert t.points(B) == 8 + 19 + 24 and t.over  # 51 >= 30


# ---- contact: totals and balancers -------------------------------------------------------------------
@pytest.mark.parametrize("balancer,contact,total", [
    ("Bal321", CT_A, 5), ("Bal321", CT_B, 3), ("Bal321", CT_C, 1 + 2 + 1),        # the original: C +1
    ("Bal343", CT_A, 3 + 2 + 3), ("Bal343", CT_B, 3), ("Bal343", CT_C, 1 + 2 + 3),  # A and C +3, B not
    ("Zero", CT_C, 3)])
def test_the_balancer_raises_each_contact_value_tied_for_its_lowest(table, balancer, contact, total):
    t = table(script=[0, contact]).hand(A, "Atk", "Cheap").deck(A, "Two").main(B, "Def").balancer(A, balancer)
    assert f"  {'ABC'[contact]}: active seat 0 {total} against 4" in t.act(A)


@pytest.mark.parametrize("contact,total", [(CT_A, 2 + 2 + 3), (CT_B, 2 + 2), (CT_C, 2 + 2 + 3)])
def test_the_passive_players_balancer_raises_its_own_main(table, contact, total):
    t = table(script=[0, contact]).hand(A, "Atk", "Cheap").deck(A, "Two").main(B, "Def").balancer(B, "Bal343")
    assert f"  {'ABC'[contact]}: active seat 0 {[5, 3, 3][contact]} against {total}" in t.act(A)


def test_balancer_bonus_false_is_the_plain_game(table):
    t = table(script=[0, CT_C], balancer_bonus=False).hand(A, "Atk", "Cheap").deck(A, "Two").main(B, "Def")
    t.balancer(A, "Bal321")
    assert "  C: active seat 0 3 against 4" in t.act(A)


@pytest.mark.parametrize("defender,winner", [("Def", A), ("D5", None), ("D6", B)])
def test_the_higher_total_wins_the_winner_stays_and_a_tie_sends_both_to_risk(table, defender, winner):
    t = table().hand(A, "Atk", "Cheap").deck(A, "Two").main(B, defender)
    t.act(A)
    risk = {"Def": 9, "D5": 5, "D6": 6}[defender]
    assert t.main_of(A) == (None if winner != A else ("Atk", 1, True))
    assert t.main_of(B) == (None if winner != B else (defender, 1, True))
    assert t.points(A) == (0 if winner == A else 8)
    assert t.points(B) == (0 if winner == B else risk)
    assert t.s[:, E.S.CONTACTS_WON].tolist() == [winner == A, winner == B]


# ---- losing -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("inclusive,before,lost", [(True, 20, False), (True, 21, True), (False, 21, False), (False, 22, True)])
def test_a_risk_total_at_the_limit_loses(table, inclusive, before, lost):
    t = table(risk_limit_inclusive=inclusive).hand(A, "Atk", "Cheap").deck(A, "Two").main(B, "Def").risk(B, points=before)
    t.act(A)  # B's Def (9) is destroyed: before + 9
    assert t.over == lost
    if lost:
        assert t.gs[E.GS_REASON] == E.END_RISK and t.finish(A) == ([1, 0], [0, 1], 0)


@pytest.mark.parametrize("limit,lost", [(29, True), (30, False)])
def test_risk_limit_is_the_scenarios(table, limit, lost):
    t = table(risk_limit=limit).hand(A, "Atk", "Cheap").deck(A, "Two").main(B, "Def").risk(B, points=20)
    t.act(A)  # B: 20 + 9 = 29
    assert t.over == lost


@pytest.mark.parametrize("hand,lost", [(["Atk"], True), (["Atk", "Cheap"], False)])
def test_deck_and_hand_both_empty_loses_at_once(table, hand, lost):
    t = table().hand(A, *hand).hand(B, "Def")
    lines = t.act(A)
    assert t.over == lost and "  seat 0 places Atk (1 cards) set face down" in lines
    if lost:
        assert t.gs[E.GS_REASON] == E.END_DECKOUT and t.finish(A)[0] == [0, 1]


def test_placing_the_last_card_with_an_empty_deck_loses_before_the_contact(table):
    """Continuous: A places its last card with no deck and loses at once, before the CONTACT; played, the
    contact would destroy Def (9) and take B to 21 + 9 = 30, a simultaneous loss (a draw)."""
    t = table().hand(A, "Atk").main(B, "Def").risk(B, points=21)
    lines = t.act(A)
    assert "  seat 0 places Atk (1 cards) face up" in lines and not any("contact" in line for line in lines)
    assert t.gs[E.GS_REASON] == E.END_DECKOUT and t.points(B) == 21 and t.main_of(B) == ("Def", 1, True)
    assert t.finish(A) == ([0, 1], [1, 0], 0)


@pytest.mark.parametrize("hand,lost", [([], True), (["Atk"], False)])
def test_deckout_check_act_start_looks_after_the_return_and_draw(table, hand, lost):
    t = table(deckout_check="act_start").hand(A, *hand).hand(B, "Def")
    lines = t.act(A)
    assert t.over == lost
    if lost:
        assert t.gs[E.GS_REASON] == E.END_DECKOUT and not any("places" in line for line in lines)


def test_with_act_start_a_player_survives_emptying_its_hand_until_its_next_act(table):
    t = table(deckout_check="act_start").hand(A, "Atk").hand(B, "Def")
    t.act(A)
    assert not t.over and t.main_of(A) == ("Atk", 1, False)
    t.act(B)  # B attacks the set Atk with Def on A: 2 + 1 = 3 against 3 + 1 = 4, B's Def is destroyed
    assert not t.over and t.main_of(A) == ("Atk", 1, True)
    t.act(A)  # Atk returns to hand: not empty, no loss
    assert not t.over


@pytest.mark.parametrize("rule,winners", [("draw", [0, 0]), ("active_loses", [0, 1]), ("passive_loses", [1, 0])])
def test_a_tie_reaching_both_limits_is_a_simultaneous_loss(table, rule, winners):
    t = table(simultaneous_loss=rule).hand(A, "Atk", "Cheap").deck(A, "Two").main(B, "D5").risk(A, points=22)
    t.risk(B, points=25)
    lines = t.act(A)
    assert "  a tie at 5: both Mains are destroyed" in lines
    assert t.finish(A) == (winners, [1, 1], 1)


def test_a_tie_reaching_one_limit_is_not_simultaneous(table):
    t = table().hand(A, "Atk", "Cheap").deck(A, "Two").main(B, "D5").risk(A, points=21).risk(B, points=25)
    t.act(A)
    assert t.finish(A) == ([1, 0], [0, 1], 0)


# ---- setup and the first player ------------------------------------------------------------------------
def shuffled_deck(seed, gid, sc):
    """Both seats' decks as the kernel shuffles them (seat 0 first), from analyzer.rng."""
    from analyzer.games.simplecard.scenario import card_arrays
    _, _, decks = card_arrays(sc)
    s = rng.new_stream(seed, gid)
    out = []
    for _ in range(2):
        arr = decks[0, 1: 1 + decks[0, 0]].copy()
        rng.shuffle(s, arr, len(arr))
        out.append(arr)
    return out, s


@pytest.mark.parametrize("second", [0, 1])
def test_setup_deals_four_then_the_balancer_and_the_higher_balancer_chooses(table, second):
    sc = table(script=[second], first_player_tie="seat0", act_cap=1).sc
    keys = [c.key for c in sc.cards]
    seen = set()
    for gid in range(40):
        batch = GAME.run_batch(sc, 3, np.array([gid]), trace=True)
        lines = GAME.describe(sc, batch.events)
        decks, _ = shuffled_deck(3, gid, sc)
        bal = [keys[d[len(d) - 5]] for d in decks]  # the top 4 are the hand, the next the balancer
        assert lines[0].startswith(f"seat 0 plays deck Test; balancer {bal[0]} (")
        assert lines[1].startswith(f"seat 1 plays deck Test; balancer {bal[1]} (")
        r = [sc.cards[keys.index(b)].risk for b in bal]
        chooser = 0 if r[0] >= r[1] else 1
        first = 1 - chooser if second else chooser
        assert lines[2] == f"seat {chooser} chooses: seat {first} goes first"
        assert lines[4] == f"  seat {first} draws 0: hand 4, deck 11"  # 16 less the 4 dealt and the balancer
        assert batch.first_player[0] == first and batch.extra["chooser"][0] == (chooser if r[0] != r[1] else -1)
        seen.add((r[0] > r[1]) - (r[0] < r[1]))
    assert seen == {-1, 0, 1}


def test_a_balancer_tie_lets_a_random_seat_choose(table):
    sc = table(act_cap=1).sc
    choosers = set()
    for gid in range(300):
        batch = GAME.run_batch(sc, 3, np.array([gid]), trace=True)
        lines = GAME.describe(sc, batch.events)
        if batch.extra["chooser"][0] == -1:
            choosers.add(lines[2].split()[1])
    assert choosers == {"0", "1"}


# ---- cast techniques -------------------------------------------------------------------------------------
PRE = ["proceed", "picking", "reading", "balance_shift", "skipping"]  # with both hands and decks non-empty


PRE_CTS = ["picking", "reading", "balance_shift", "skipping", "moving", "recall"]


def ct_table(table, script, **rules):
    """The pre-scene techniques on; A: hand Atk Cheap Def Two (full), deck Hero Big; B: hand Def Big, deck Big
    Atk; no Mains."""
    rules.setdefault("enabled_cts", PRE_CTS)
    t = table(script=script, **rules).hand(A, "Atk", "Cheap", "Def", "Two").deck(A, "Hero", "Big")
    return t.hand(B, "Def", "Big").deck(B, "Big", "Atk")


@pytest.mark.parametrize("target,to", [("opponent", B), ("caster", A)])
def test_picking_casts_one_and_puts_an_opponents_hand_card_face_down_into_risk(table, target, to):
    t = ct_table(table, [PRE.index("picking"), 1, 1], picking_target_risk=target)  # cast Cheap, pick Big
    lines = t.act(A)
    assert lines[1:3] == ["  seat 0 casts Cheap for picking: Risk 1", f"  seat 0 picks Big: face down into seat {to}'s Risk"]
    assert t.hand_of(B) == ["Def"] and t.risk_of(to)[-1] == "down:Big"
    assert (t.points(A), t.points(B)) == (1, 0)  # a face-down card is worth 0
    assert t.cts[A].tolist() == [1, 0, 0, 0, 0, 0, 0, 0]


@pytest.mark.parametrize("depth,cast,seen", [("active", 0, 2), ("passive", 0, 1), ("a", 0, 3), ("rank", 0, 1)])
def test_reading_reorders_the_top_n_of_your_deck(table, depth, cast, seen):
    t = ct_table(table, [PRE.index("reading"), cast, 1, 1], reading_depth=depth).deck(A, "Hero", "Big", "D5", "D6")
    lines = t.act(A)  # cast Atk: active 2, passive 1, a 3, rank 1; each decision puts the 2nd listed on top
    assert f"  seat 0 reads the top {seen} cards (cast Atk)" in lines
    order = {1: ["Hero", "Big", "D5", "D6"], 2: ["Big", "Hero", "D5", "D6"], 3: ["Big", "Hero", "D5", "D6"]}[seen]
    if seen == 3:  # first pick: the 2nd of (Hero, Big, D5) = Big on top; then the 2nd of (Hero, D5) = D5
        order = ["Big", "D5", "Hero", "D6"]
    assert t.deck_of(A) == order


def test_reading_deeper_than_the_deck_reads_the_whole_deck(table):
    """Atk's A value (3) asks for 3 cards of a 2-card deck: A reads the 2 there and puts Big on top."""
    t = ct_table(table, [PRE.index("reading"), 0, 1], reading_depth="a")  # cast Atk; put the 2nd listed on top
    lines = t.act(A)
    assert "  seat 0 reads the top 2 cards (cast Atk)" in lines and t.deck_of(A) == ["Big", "Hero"]


@pytest.mark.parametrize("old,risk", [("under", 0), ("risk", 6), ("removed", 0)])
def test_balance_shift_puts_a_hand_card_on_the_balance_without_a_cast(table, old, risk):
    t = ct_table(table, [PRE.index("balance_shift"), 2], old_balancer=old).balancer(A, "Bal321")  # shift Def
    lines = t.act(A)
    assert lines[1] == "  seat 0 shifts Def onto its Balance (was Bal321)" and t.balancer_of(A) == "Def"
    assert t.points(A) == risk and t.hand_of(A) == ["Cheap", "Two"]  # Atk placed, no cast
    assert t.risk_of(A) == (["Bal321"] if old == "risk" else []) and t.cts[A, 2] == 1
    assert t.n[A, 8:10].tolist() == [old == "under", old == "removed"]


def test_balance_shift_is_offered_once_per_act(table):
    t = ct_table(table, [PRE.index("balance_shift"), 2, 3])  # shift Def; then index 3 of the menu again
    lines = t.act(A)
    assert lines[2] == "  seat 0 casts Atk for skipping: Risk 8"  # [proceed, picking, reading, skipping]


def test_skipping_puts_the_opponents_top_deck_card_onto_its_balance(table):
    t = ct_table(table, [PRE.index("skipping"), 1])  # cast Cheap
    lines = t.act(A)
    assert lines[2] == "  seat 0 skips: Big onto seat 1's Balance (was Zero)"
    assert t.balancer_of(B) == "Big" and t.deck_of(B) == ["Atk"] and t.points(A) == 1


@pytest.mark.parametrize("face_up", [True, False])
@pytest.mark.parametrize("dest,to", [("owner", B), ("caster", A)])
def test_moving_returns_a_main_to_its_owners_hand(table, dest, to, face_up):
    """A set (face-down) Main may be moved like a face-up one."""
    t = ct_table(table, [5, 1], moving_destination=dest).main(B, "D6", face_up=face_up)  # menu: PRE + moving; cast Cheap
    lines = t.act(A)
    assert "  seat 0 moves seat 1's Main D6 to seat %d's hand" % to in lines
    assert t.main_of(B) is None and "D6" in t.hand_of(to)
    assert "  seat 0 places Atk (1 cards) set face down" in lines  # the table is empty now: set


@pytest.mark.parametrize("just_cast,taken", [(False, "Big"), (True, "Two")])
def test_recall_casts_two_and_takes_a_face_up_risk_card_back(table, just_cast, taken):
    t = ct_table(table, [5, 1, 2, 99], recall_can_take_just_cast=just_cast).risk(A, "Big")
    lines = t.act(A)  # menu: PRE + recall; cast Cheap then Two (index 2 of Atk Def Two); take the last offered:
    # Big alone (not asked), or the last of Big, Cheap, Two when the cards just cast may come back
    assert lines[1:3] == ["  seat 0 casts Cheap for recall: Risk 26", "  seat 0 casts Two for recall: Risk 28"]
    assert lines[3] == f"  seat 0 recalls {taken}: Risk {28 - {'Big': 25, 'Cheap': 1, 'Two': 2}[taken]}"
    assert taken in t.hand_of(A) or t.main_of(A)[0] == taken


@pytest.mark.parametrize("pick", [0, 1, 2])
def test_picking_takes_the_card_the_caster_chooses(table, pick):
    t = ct_table(table, [PRE.index("picking"), 1, pick]).hand(B, "Def", "Big", "D5")  # cast Cheap, pick one of three
    lines = t.act(A)
    chosen = ["Def", "Big", "D5"][pick]
    assert lines[2] == f"  seat 0 picks {chosen}: face down into seat 1's Risk"
    assert t.risk_of(B) == [f"down:{chosen}"] and t.hand_of(B) == [c for c in ["Def", "Big", "D5"] if c != chosen]


@pytest.mark.parametrize("old,risk", [("under", 0), ("risk", 6), ("removed", 0)])
def test_skipping_sends_the_opponents_old_balancer_where_old_balancer_says(table, old, risk):
    t = ct_table(table, [PRE.index("skipping"), 1], old_balancer=old).balancer(B, "Bal321")  # cast Cheap
    lines = t.act(A)
    assert lines[2] == "  seat 0 skips: Big onto seat 1's Balance (was Bal321)" and t.balancer_of(B) == "Big"
    assert t.points(B) == risk and t.risk_of(B) == (["Bal321"] if old == "risk" else [])
    assert t.n[B, T.N_UNDER] == (old == "under") and t.n[B, T.N_REMOVED] == (old == "removed")
    assert t.points(A) == 1 and t.n[A, T.N_UNDER] == 0


@pytest.mark.parametrize("before,lost", [(26, False), (27, True)])
def test_recall_checks_the_loss_right_after_its_two_casts(table, before, lost):
    """Casting Cheap (1) and Two (2) takes 27 to the limit of 30: the game is lost before Big (25) could
    come back out of the Risk; from 26 (29) the Recall goes on and takes Big back."""
    t = ct_table(table, [5, 1, 2]).risk(A, "Big", points=before)
    lines = t.act(A)
    assert t.over == lost and any("recalls Big" in line for line in lines) != lost
    if lost:
        assert t.gs[E.GS_REASON] == E.END_RISK and t.points(A) == 30 and t.finish(A)[0] == [0, 1]
    else:
        assert t.points(A) == 29 - 25 and "Big" in t.hand_of(A) + [t.main_of(A)[0]]


@pytest.mark.parametrize("face_up", [True, False])
def test_recall_takes_face_down_false_cannot_take_a_face_down_risk_card(table, face_up):
    t = ct_table(table, [5, 0, 0], recall_takes_face_down=False).risk(A, "Big", points=25 if face_up else 0)
    if not face_up:
        t.risk_[A, 0] = -1 - t.id("Big")  # face down: worth 0
    lines = t.act(A)  # menu [PRE..., recall] only with a face-up Risk card; else index 5 clamps to skipping
    assert any("for recall" in line for line in lines) == face_up


def test_recall_takes_a_face_down_risk_card_back_by_default(table):
    # Risk: Def face up (9) and Big face down (0, picked); cast Cheap and Two (3); options Def, then Big
    t = ct_table(table, [5, 1, 2, 1]).risk(A, "Def", "Big", points=9)
    t.risk_[A, 1] = -1 - t.id("Big")
    lines = t.act(A)
    assert lines[3] == "  seat 0 recalls Big: Risk 12"  # its 0 points leave the total as the casts made it
    assert t.risk_of(A) == ["Def", "Cheap", "Two"] and ("Big" in t.hand_of(A) or t.main_of(A)[0] == "Big")


def test_a_cast_reaching_the_limit_loses_at_once_or_at_the_acts_end(table):
    t = ct_table(table, [PRE.index("picking"), 1, 1]).risk(A, points=29)
    lines = t.act(A)
    assert t.over and not any("places" in line for line in lines)
    t = ct_table(table, [PRE.index("picking"), 1, 1], loss_check="act_end").risk(A, points=29)
    lines = t.act(A)
    assert t.over and any("places" in line for line in lines)


@pytest.mark.parametrize("loss_check,lost_before_the_scene", [("immediate", True), ("act_end", False)])
def test_an_old_balancer_sent_to_risk_at_the_limit_loses_at_once(table, loss_check, lost_before_the_scene):
    t = ct_table(table, [PRE.index("balance_shift"), 2], old_balancer="risk", loss_check=loss_check)  # shift Def
    t.balancer(A, "Big").risk(A, points=5)  # Big (25) goes to A's Risk: 30, no cast
    lines = t.act(A)
    assert t.over and t.points(A) == 30 and t.cts[A, 2] == 1
    assert any("places" in line for line in lines) != lost_before_the_scene


@pytest.mark.parametrize("technique,effect", [("picking", "picks"), ("reading", "reads"), ("skipping", "skips"),
                                               ("moving", "moves"), ("bounce", "bounces")])
def test_a_cast_reaching_the_limit_loses_before_its_technique_resolves(table, technique, effect):
    # the replay `--seed 77 --game 8 --policy random,random --set rules.old_balancer=risk`: a cast for skipping
    # reached the limit, then the skip sent the opponent's old balancer to its Risk and both lost (a draw);
    # losing is a state, so the caster lost at its cast and the skip never happened
    if technique == "bounce":  # contact A wins (Atk 5 against Def 4); post-scene [proceed, bounce]; cast Cheap
        t = table(script=[0, 0, 1, 0], enabled_cts=["bounce"]).hand(A, "Atk", "Cheap").deck(A, "Two").main(B, "Def")
    else:  # cast Cheap (index 1 of Atk Cheap Def Two); moving's menu is PRE + moving once a Main holds a card
        menu = 5 if technique == "moving" else PRE.index(technique)
        t = ct_table(table, [menu, 1, 1], old_balancer="risk").main(B, "D6").balancer(B, "Big")  # a skip: B +25 Risk
    t.risk(A, points=29).risk(B, points=5)
    lines = t.act(A)
    assert f"  seat 0 casts Cheap for {technique}: Risk 30" in lines
    assert t.over and not any(effect in line for line in lines)
    assert t.finish(A) == ([0, 1], [1, 0], 0)  # B wins alone


def test_a_disabled_cast_technique_is_not_offered(table):
    t = ct_table(table, [1, 1, 1], enabled_cts=["reading"])  # menu [proceed, reading]: 1 = reading
    lines = t.act(A)
    assert any("reads" in line for line in lines) and not any("picks" in line for line in lines)


@pytest.mark.parametrize("technique,script", [("picking", [1, 1]), ("skipping", [4, 1]), ("reading", [2, 1])])
def test_a_technique_is_offered_only_with_the_card_it_acts_on(table, technique, script):
    """Picking needs a card in the opponent's hand, Skipping one in the opponent's deck, Reading one in your own
    deck. Emptied, the menu loses that technique: index 1 is reading ([proceed, reading, shift, skipping]), index 4
    clamps to balance_shift ([proceed, picking, reading, shift]), index 2 is balance_shift ([proceed, picking,
    shift, skipping])."""
    t = ct_table(table, script)
    if technique == "picking":
        t.hand(B)
    elif technique == "skipping":
        t.deck(B)
    else:
        t.deck(A)
    lines = t.act(A)
    assert not any(f"for {technique}" in line for line in lines)
    shift = "  seat 0 shifts Cheap onto its Balance (was Zero)"
    assert ("  seat 0 casts Cheap for reading: Risk 1" if technique == "picking" else shift) in lines


def test_recall_needs_two_hand_cards_and_two_are_enough(table):
    """Picking (cast Cheap, pick B's Def) and Balance shift (Atk) leave A Def and Two, with its deck not empty:
    Recall is still offered (menu [proceed, picking, recall]: 2) and casts both, taking D6 back:
    Risk 6 + 1 (Cheap) + 9 (Def) + 2 (Two) - 6 (D6) = 12; D6, the only card left, is set."""
    t = ct_table(table, [1, 1, 0, 2, 0, 2, 0], enabled_cts=["picking", "balance_shift", "recall"]).risk(A, "D6")
    lines = t.act(A)
    assert lines[4:7] == ["  seat 0 casts Def for recall: Risk 16", "  seat 0 casts Two for recall: Risk 18",
                          "  seat 0 recalls D6: Risk 12"]
    assert t.main_of(A) == ("D6", 1, False) and t.hand_of(A) == [] and t.points(A) == 12 and not t.over


def test_recall_that_empties_hand_and_deck_loses_before_it_takes_a_card(table):
    """A holds Def and Two with an empty deck: Recall's two casts leave no card to place, and the deck-out
    check (loss_check: immediate) ends the game at once, before Recall takes D6 back (docs/rule-readings.md:
    the spec's "checked at once" read as holding inside a technique too). Risk 6 + 9 + 2 = 17."""
    t = table(script=[1], enabled_cts=["recall"]).hand(A, "Def", "Two").deck(A).risk(A, "D6")
    lines = t.act(A)
    assert lines[-2:] == ["  seat 0 casts Def for recall: Risk 15", "  seat 0 casts Two for recall: Risk 17"]
    assert t.over and t.hand_of(A) == [] and t.risk_of(A) == ["D6", "Def", "Two"] and t.points(A) == 17
    assert t.finish(A)[:2] == ([0, 1], [1, 0])


# ---- Changing and Bounce ------------------------------------------------------------------------------------
def test_the_inferior_side_may_change_and_the_contact_is_judged_again(table):
    t = table(script=[0, 0, 1], enabled_cts=["changing"]).hand(A, "Atk", "Cheap", "Big").deck(A, "Two").main(B, "D6")
    lines = t.act(A)  # place Atk, contact A (5 against 6): A is inferior; cast Cheap; place Big (the first offered)
    assert lines[4:8] == ["  seat 0 casts Cheap for changing: Risk 1", "  seat 0 changes its Main Atk for Big",
                          "  A: active seat 0 10 against 6", "  seat 1's Main D6 is destroyed: +6 Risk, total 6"]
    assert t.main_of(A) == ("Big", 1, True) and "Atk" in t.hand_of(A) and t.cts[A, 6] == 1


def test_changing_may_cast_a_rank2_card_but_never_places_one_and_keeps_a_rank1_card_to_place(table):
    """After placing Atk, A holds Hero/2 and Big: casting Big would leave only the rank-2 card, which cannot be
    a Main alone, so the only cast is Hero/2 (the script's 9 clamps to the last option) and Big comes in."""
    t = table(script=[0, 0, 9], enabled_cts=["changing"]).hand(A, "Atk", "Hero/2", "Big").main(B, "D6")
    lines = t.act(A)
    assert lines[3:7] == ["  A: active seat 0 5 against 6", "  seat 0 casts Hero/2 for changing: Risk 19",
                          "  seat 0 changes its Main Atk for Big", "  A: active seat 0 10 against 6"]
    assert t.main_of(A) == ("Big", 1, True) and t.hand_of(A) == ["Atk"] and t.risk_of(A) == ["Hero/2"]


def test_changing_never_places_the_rank2_card_it_holds(table):
    """Casting Cheap leaves Hero/2 and Big: only Big may become the new Main (one card, face up, rank 1), so
    the placement is not asked and the script's 0 is not used on it."""
    t = table(script=[0, 0, 2, 0], enabled_cts=["changing"]).hand(A, "Atk", "Hero/2", "Cheap", "Big").main(B, "D6")
    lines = t.act(A)
    assert "  seat 0 casts Cheap for changing: Risk 1" in lines and "  seat 0 changes its Main Atk for Big" in lines
    assert t.main_of(A) == ("Big", 1, True) and t.hand_of(A) == ["Hero/2", "Atk"] and t.at[0] == 3


def test_changing_a_stack_places_a_card_other_than_the_stacks_own(table):
    """A's Hero + Hero/2 (5 + 2 = 7) is inferior to Big (10); A casts Cheap, the whole stack returns to hand and
    only Atk may come in: Hero, back from the stack, is not offered (the script's last 1 is left unused). Atk
    (5) still loses, so A's Risk is Cheap 1 + Atk 8."""
    t = table(script=[1, 0, 1, 1], enabled_cts=["changing"]).hand(A, "Hero", "Hero/2", "Cheap", "Atk").main(B, "Big")
    lines = t.act(A)
    assert "  seat 0 changes its Main Hero for Atk" in lines and "  A: active seat 0 5 against 10" in lines
    assert t.hand_of(A) == ["Hero", "Hero/2"] and t.points(A) == 9 and t.at[0] == 3


def test_changing_is_never_offered_on_a_tie(table):
    t = table(script=[0, 0, 1, 1], enabled_cts=["changing"]).hand(A, "Atk", "Cheap", "Big").deck(A, "Two").main(B, "D5")
    t.hand(B, "Cheap", "Big")
    lines = t.act(A)
    assert "  a tie at 5: both Mains are destroyed" in lines and t.at[0] == 2  # only placement and contact asked


def test_changing_is_never_offered_when_disabled(table):
    """The position of the Change above (Atk 5 inferior to D6 6, Cheap and Big in hand) with Bounce on but
    Changing off: only placement and contact are asked, and Atk is destroyed."""
    t = table(script=[0, 0, 1], enabled_cts=["bounce"]).hand(A, "Atk", "Cheap", "Big").deck(A, "Two").main(B, "D6")
    lines = t.act(A)
    assert "  seat 0's Main Atk is destroyed: +8 Risk, total 8" in lines and t.at[0] == 2
    assert t.main_of(B) == ("D6", 1, True) and t.cts[A, 6] == 0


@pytest.mark.parametrize("before,lost", [(28, False), (29, True)])
def test_a_changing_cast_reaching_the_limit_loses_before_the_change_and_the_destruction(table, before, lost):
    """A's Atk (5) is inferior to D6 (6); casting Cheap (1) for Changing takes 29 to the limit of 30: A loses at
    the cast, no Change and no Main destroyed, B wins. From 28 (29) the Change goes on: Big 10 destroys D6."""
    t = table(script=[0, 0, 1], enabled_cts=["changing"]).hand(A, "Atk", "Cheap", "Big").deck(A, "Two").main(B, "D6")
    t.risk(A, points=before)
    lines = t.act(A)
    assert "  seat 0 casts Cheap for changing: Risk %d" % (before + 1) in lines
    assert ("  seat 0 changes its Main Atk for Big" in lines) != lost and t.over == lost
    if lost:
        assert not any("destroyed" in line for line in lines) and t.points(A) == 30
        assert t.main_of(A) == ("Atk", 1, True) and t.main_of(B) == ("D6", 1, True)
        assert t.gs[E.GS_REASON] == E.END_RISK and t.finish(A) == ([0, 1], [1, 0], 0)
    else:
        assert t.points(B) == 6 and t.main_of(A) == ("Big", 1, True)


@pytest.mark.parametrize("max_changes,b_changes_back", [(1, False), (2, True)])
def test_each_side_may_change_in_turn_up_to_changing_max_per_contact(table, max_changes, b_changes_back):
    # A attacks Atk (5) against Def (4): B is inferior and changes to D6 (6); then A is inferior
    t = table(script=[0, 0, 1, 1, 0], changing_max_per_contact=max_changes, enabled_cts=["changing"]).hand(A, "Atk", "Cheap", "Big")
    t.deck(A, "Two").main(B, "Def").hand(B, "Cheap", "D6")
    lines = t.act(A)
    assert "  seat 1 changes its Main Def for D6" in lines
    assert ("  seat 0 changes its Main Atk for Big" in lines) == b_changes_back
    assert t.main_of(A) == (("Big", 1, True) if b_changes_back else None)


@pytest.mark.parametrize("order,changes_again", [("alternate", False), ("while_inferior", True)])
def test_after_a_change_only_the_other_side_may_change_in_turn(table, order, changes_again):
    # A places Atk (5 against D6's 6), casts Cheap and changes to Two (2 against 6): still inferior; a second
    # Change of its own (cast Atk, place Big: 10) only when the same side may Change again
    t = table(script=[0, 0, 1, 0, 2], changing_order=order, enabled_cts=["changing"])
    t.hand(A, "Atk", "Cheap", "Two", "Big").deck(A, "Hero").main(B, "D6")
    lines = t.act(A)
    assert "  seat 0 changes its Main Atk for Two" in lines and "  A: active seat 0 2 against 6" in lines
    assert ("  seat 0 changes its Main Two for Big" in lines) == changes_again
    assert t.main_of(A) == (("Big", 1, True) if changes_again else None) and t.cts[A, 6] == 1 + changes_again


def test_bounce_returns_your_own_main_to_hand_after_the_scene(table):
    t = table(script=[0, 0, 1, 0], enabled_cts=["bounce"]).hand(A, "Atk", "Cheap").deck(A, "Two").main(B, "Def")
    lines = t.act(A)  # contact A wins; post-scene [proceed, bounce]: 1; cast Cheap (index 0 of Cheap Two)
    assert lines[-2:] == ["  seat 0 casts Cheap for bounce: Risk 1", "  seat 0 bounces its Main Atk (1 cards) to hand"]
    assert t.main_of(A) is None and "Atk" in t.hand_of(A) and t.cts[A, 7] == 1


def test_bounce_returns_a_set_main_too(table):
    t = table(script=[0, 1, 0], enabled_cts=["bounce"]).hand(A, "Atk", "Cheap").deck(A, "Two")
    lines = t.act(A)  # nothing in B's Main: Atk is set face down, no contact; then Bounce, cast Cheap
    assert "  seat 0 places Atk (1 cards) set face down" in lines
    assert lines[-2:] == ["  seat 0 casts Cheap for bounce: Risk 1", "  seat 0 bounces its Main Atk (1 cards) to hand"]
    assert t.main_of(A) is None and t.hand_of(A) == ["Two", "Atk"]


def test_bounce_is_not_offered_when_disabled(table):
    t = table(script=[0, 0, 1, 0], enabled_cts=["changing"]).hand(A, "Atk", "Cheap").deck(A, "Two").main(B, "Def")
    t.act(A)
    assert t.main_of(A) == ("Atk", 1, True)


def test_a_contact_that_decides_the_game_ends_it_before_the_post_scene(table):
    """Atk destroys Def: B reaches 21 + 9 = 30 and loses at once. A, at 29, is never offered Bounce (whose cast,
    Cheap, would take it to the limit too and make the game a draw): A wins alone."""
    t = table(script=[0, 0, 1, 0], enabled_cts=["bounce"]).hand(A, "Atk", "Cheap").deck(A, "Two").main(B, "Def")
    t.risk(A, points=29).risk(B, points=21)
    lines = t.act(A)
    assert "  seat 1's Main Def is destroyed: +9 Risk, total 30" in lines and not any("bounce" in line for line in lines)
    assert t.points(A) == 29 and t.finish(A) == ([1, 0], [0, 1], 0)


# ---- whole games ---------------------------------------------------------------------------------------------
def test_whole_games_keep_the_books():
    """Invariants over many games of every policy: exactly the non-losing seat wins (a simultaneous loss is a
    draw), score + risk = the limit, the end reason matches the losing Risk, stacks destroyed <= played."""
    for pol in ("greedy", "cautious", "ct", "random"):
        sc = analyzer.load_scenario(GAME, policy=[pol])
        b = GAME.run_batch(sc, 11, np.arange(400))
        x = b.extra
        lost = x["lost"].astype(bool)
        assert (b.score + x["risk"] == 30).all()
        assert (b.is_winner == (~lost & lost[:, ::-1])).all()
        assert ((x["simultaneous"] == 1) == lost.all(axis=1)).all()
        at_risk = (x["end"] == E.END_RISK)
        assert ((x["risk"] >= 30) | ~lost)[at_risk].all()
        assert (x["stacks_destroyed"] <= x["stacks_played"]).all()
        assert (x["stack_wins"] + x["stacks_destroyed"] == x["stack_contacts"]).all()
        assert x["capped"].sum() == 0


# ---- a returned stack: every card back to hand -------------------------------------------------------------
@pytest.mark.parametrize("how", ["act start", "moving", "bounce"])
def test_a_returned_stack_brings_every_card_back_to_hand(table, how):
    """A stack shares its fate: returned at the ACT's start, by Moving or by Bounce, all its cards go to
    the hand (not the rank-1 card alone)."""
    stack = ["Hero", "Hero/2", "Hero/3"]
    if how == "act start":  # A's stack returns; A draws Atk, sets Hero face down (B's Main is empty)
        t = table().main(A, "Hero", height=3).deck(A, "Atk")
        lines = t.act(A)
        assert "  seat 0's Main Hero (3 cards) returns to hand" in lines
        assert t.hand_of(A) == ["Hero/2", "Hero/3", "Atk"] and t.main_of(A) == ("Hero", 1, False)
    elif how == "moving":  # A moves B's stack (menu: PRE + moving; cast Cheap) to B's hand
        t = ct_table(table, [5, 1]).main(B, "Hero", height=3)
        lines = t.act(A)
        assert "  seat 0 moves seat 1's Main Hero to seat 1's hand" in lines
        assert t.hand_of(B) == ["Def", "Big", *stack] and t.main_of(B) is None
    else:  # A places the whole stack (option 2), wins contact A (9 against 4), bounces it casting Cheap
        t = table(script=[2, 0, 1, 0], enabled_cts=["bounce"]).hand(A, *stack, "Cheap").deck(A, "Two").main(B, "Def")
        lines = t.act(A)
        assert "  seat 0 bounces its Main Hero (3 cards) to hand" in lines
        assert t.hand_of(A) == stack and t.main_of(A) is None
