"""Simple Card's policies. A policy sees only its player's view (`view`, built by the rules in `view.fill_view`: its own
hand, both balancers, both Risk totals, deck and hand sizes, its own Main and the opponent's Main
when face up; a face-down card is the "unknown card", the pool's mean), the printed cards and rules,
and the legal options the engine listed (Picking lists the opponent's hand: what the player was shown).
It returns the index of one option. The deciding functions receive the printed cards and rules, read by
name (packs.py: data.cards, data.rules...), the seat's view and the listed options. A seat's weights
(scenario.WEIGHTS: greedy's first, then cautious's or ct's own) come as `w`, read by W_ name.

- greedy: the best margin of this contact from what it can see; places a set card that defends best;
  no cast techniques. It goes second when its hand attacks the opponent's first (unknown) card better
  than it defends a set card against it (cautious and ct too). With `exposure` above 0 it also weighs
  the defence: a winning Main stays face up and is attacked next; one that would lose that defence
  against the unknown card costs `exposure` times its risk points (0, the default: it ignores it).
- cautious: greedy, but never places a Main whose destruction would end its game (Risk to the limit,
  or within `limit_margin` of it)
  unless the win is sure (the opponent's Main is face up, this contact wins, and the opponent cannot
  Change); no cast techniques.
- ct: greedy's play plus cast techniques by thresholds, each only while its Risk stays `ct_margin`
  below the limit after the cast: Changing when a Change wins the re-judged contact, Picking the
  opponent's riskiest card when it holds 3+ cards, Moving a face-up opponent Main nothing in hand
  beats, Balance shift to a card with a higher lowest value, Skipping an opponent balancer whose
  bonus is `skip_bonus`+, Bounce a Main worth
  `bounce_risk`+ points. It never uses Reading or Recall.
- search (analyzer/search.py): plans each decision by playing it out; `decide`'s head (kernel.ask_policy)
  makes its choices, and past its branch it plays the rollout policy (the tuned greedy by default). Its
  rollouts see only what its seat sees: at the branch the engine re-deals the rest (engine.redeal).
"""
from numba import njit

from ...kernel import ask_policy, asked
from .decisions import (
    CT_BOUNCE,
    CT_MOVING,
    CT_PICKING,
    CT_SHIFT,
    CT_SKIPPING,
    D_CAST,
    D_CHANGE,
    D_CHANGE_PLACE,
    D_CONTACT,
    D_DRAW,
    D_FIRST,
    D_MOVE,
    D_PICK,
    D_PLACE,
    D_POST,
    D_PRE,
    D_READ,
    D_RECALL,
    D_SHIFT,
    GO_FIRST,
    GO_SECOND,
    O_CARD,
    O_CODE,
    O_INDEX,
    PROCEED,
)
from .scenario import F, R
from .table import (
    contact_total,
    main_risk,
)
from .view import (
    V_ACTIVE,
    V_CHANGES_LEFT,
    V_CONTACT,
    V_HAND,
    V_HAND_N,
    V_KIND,
    V_MY_BAL,
    V_MY_BASE,
    V_MY_H,
    V_MY_RISK,
    V_OPP_BAL,
    V_OPP_BASE,
    V_OPP_H,
    V_OPP_HAND,
)

GREEDY, CAUTIOUS, CT = 2, 3, 4  # policy codes after the shared random 0 and scripted 1

# a seat's weights row (scenario.WEIGHTS order): greedy's, shared by all three; then cautious's or ct's own
W_WIN_VALUE, W_MARGIN_VALUE, W_DEFENCE_VALUE, W_SECOND_EDGE, W_EXPOSURE = range(5)
W_LIMIT_MARGIN = 5  # cautious
W_CT_MARGIN, W_BOUNCE_RISK, W_SKIP_BONUS = 5, 6, 7  # ct

@njit(cache=True)
def margin(data, view, base, height, attacking):
    """Best margin over the three contacts of a Main (base, height) of the deciding player against the
    opponent's Main as seen, the deciding player attacking (it picks the contact) or defending (the
    attacker picks the contact worst for it)."""
    return margin_against(data, view, base, height, attacking, view[V_OPP_BASE], view[V_OPP_H])


@njit(cache=True)
def margin_against(data, view, base, height, attacking, opp_base, opp_h):
    """`margin` against the opponent Main (opp_base, opp_h)."""
    best = -1 << 30 if attacking else 1 << 30
    for x in range(3):
        if attacking:
            m = (contact_total(data, base, height, x, F.ACTIVE, view[V_MY_BAL])
                 - contact_total(data, opp_base, opp_h, x, F.PASSIVE, view[V_OPP_BAL]))
            best = max(best, m)
        else:
            m = (contact_total(data, base, height, x, F.PASSIVE, view[V_MY_BAL])
                 - contact_total(data, opp_base, opp_h, x, F.ACTIVE, view[V_OPP_BAL]))
            best = min(best, m)
    return best


@njit(cache=True)
def first_contact_edge(data, view, attacking):
    """The best rank-1 hand card's margin in the first contact against the opponent's first card, unknown
    at setup (the pool's mean card): attacking it (going second) or defending a set card (going first)."""
    cards = data.cards
    best = -1 << 30
    for i in range(view[V_HAND_N]):
        c = view[V_HAND + i]
        if cards[c, F.RANK] == 1:
            best = max(best, margin_against(data, view, c, 1, attacking, cards.shape[0] - 1, 1))
    return best


@njit(cache=True)
def choose_turn_order(data, view, options, n_options, w):
    """greedy, cautious and ct: go second when their hand attacks the opponent's first card better than it
    defends its own set card against it, by more than `second_edge` (going first, the first card is set
    and attacked)."""
    second = first_contact_edge(data, view, True) - first_contact_edge(data, view, False) > w[W_SECOND_EDGE]
    return find_code(options, n_options, GO_SECOND if second else GO_FIRST)


@njit(cache=True)
def defence(data, view, base, height):
    """A set card's worth: its weakest defence total over the three contacts (the attacker is unknown)."""
    worst = 1 << 30
    for x in range(3):
        worst = min(worst, contact_total(data, base, height, x, F.PASSIVE, view[V_MY_BAL]))
    return worst


@njit(cache=True)
def place_score(data, view, options, k, w):
    """How greedy rates a placement: the contact margin when the opponent's Main holds a card (a losing
    placement is rated by how little it risks; a winning one, with `exposure`, by the defence it must
    then make), else the set card's defence."""
    cards = data.cards
    base, h = options[k, O_INDEX], options[k, O_CODE]
    base = view[V_HAND + base]
    risk = main_risk(data, base, h)
    if view[V_OPP_H] > 0:
        m = margin(data, view, base, h, True)
        if m <= 0:
            return -risk
        score = w[W_WIN_VALUE] + m * w[W_MARGIN_VALUE] - risk
        # the winner stays face up: the opponent attacks it next, with a card this player cannot see
        if w[W_EXPOSURE] != 0 and margin_against(data, view, base, h, False, cards.shape[0] - 1, 1) <= 0:
            score -= w[W_EXPOSURE] * risk
        return score
    return defence(data, view, base, h) * w[W_DEFENCE_VALUE] - risk


@njit(cache=True)
def best_place(data, view, options, n_options, cautious, w):
    best, score = 0, -(1 << 40)
    for k in range(n_options):
        s = place_score(data, view, options, k, w)
        if cautious and exposes(data, view, options, k, w[W_LIMIT_MARGIN]):
            s -= 1 << 30  # only if nothing else is left
        if s > score:
            best, score = k, s
    return best


@njit(cache=True)
def ends_game(view, rules, risk):
    """Would `risk` more points in the deciding player's Risk reach the losing limit?"""
    total = view[V_MY_RISK] + risk
    return total >= rules[R.RISK_LIMIT] if rules[R.RISK_INCLUSIVE] else total > rules[R.RISK_LIMIT]


@njit(cache=True)
def exposes(data, view, options, k, limit_margin):
    """cautious: the placement's destruction would end the game (or bring the Risk within `limit_margin`
    of the limit) and its win is not sure."""
    rules, cards = data.rules, data.cards
    base, h = view[V_HAND + options[k, O_INDEX]], options[k, O_CODE]
    if not ends_game(view, rules, main_risk(data, base, h) + limit_margin):
        return False
    face_up_opponent = view[V_OPP_H] > 0 and view[V_OPP_BASE] != cards.shape[0] - 1
    sure = (face_up_opponent and margin(data, view, base, h, True) > 0
            and (view[V_CHANGES_LEFT] == 0 or view[V_OPP_HAND] < 2))
    return not sure


@njit(cache=True)
def best_contact(data, view, options, n_options):
    best, score = 0, -(1 << 30)
    for k in range(n_options):
        x = options[k, O_CODE]
        m = (contact_total(data, view[V_MY_BASE], view[V_MY_H], x, F.ACTIVE, view[V_MY_BAL])
             - contact_total(data, view[V_OPP_BASE], view[V_OPP_H], x, F.PASSIVE, view[V_OPP_BAL]))
        if m > score:
            best, score = k, m
    return best


@njit(cache=True)
def find_code(options, n_options, code):
    for k in range(n_options):
        if options[k, O_CODE] == code:
            return k
    return -1


@njit(cache=True)
def hand_risks_lowest(view, cards, count):
    """Sum of the `count` lowest risk points in the hand (what casting them costs at best)."""
    # the hand in (risk, index) order, one step at a time: no scratch array to allocate
    total, last_risk, last_i = 0, -1, -1
    for _ in range(min(count, view[V_HAND_N])):
        j, rj = -1, 0
        for i in range(view[V_HAND_N]):
            r = cards[view[V_HAND + i], F.RISK]
            after_last = r > last_risk or (r == last_risk and i > last_i)
            if after_last and (j < 0 or r < rj):
                j, rj = i, r
        total += rj
        last_risk, last_i = rj, j
    return total


@njit(cache=True)
def can_afford(view, cards, rules, casts, margin_pts):
    """ct: casting the `casts` cheapest hand cards keeps Risk `margin_pts` below the limit."""
    return view[V_HAND_N] > casts and view[V_MY_RISK] + hand_risks_lowest(view, cards, casts) + margin_pts < rules[R.RISK_LIMIT]


@njit(cache=True)
def changing_wins(data, view):
    """ct: some other rank-1 hand card would win the re-judged contact (view[V_CONTACT] is fixed)."""
    cards = data.cards
    x, attacking = view[V_CONTACT], view[V_ACTIVE]
    for i in range(view[V_HAND_N]):
        c = view[V_HAND + i]
        if cards[c, F.RANK] != 1:
            continue
        mine = contact_total(data, c, 1, x, F.ACTIVE if attacking else F.PASSIVE, view[V_MY_BAL])
        theirs = contact_total(data, view[V_OPP_BASE], view[V_OPP_H], x, F.PASSIVE if attacking else F.ACTIVE,
                               view[V_OPP_BAL])
        if mine > theirs:
            return True
    return False


@njit(cache=True)
def best_change_place(data, view, options, n_options):
    x, attacking = view[V_CONTACT], view[V_ACTIVE]
    best, score = 0, -(1 << 30)
    for k in range(n_options):
        c = options[k, O_CARD]
        m = contact_total(data, c, 1, x, F.ACTIVE if attacking else F.PASSIVE, view[V_MY_BAL])
        if m > score:
            best, score = k, m
    return best


@njit(cache=True)
def lowest_card(options, n_options, cards):
    best = 0
    for k in range(1, n_options):
        if cards[options[k, O_CARD], F.RISK] < cards[options[best, O_CARD], F.RISK]:
            best = k
    return best


@njit(cache=True)
def highest_card(options, n_options, cards):
    best = 0
    for k in range(1, n_options):
        if cards[options[k, O_CARD], F.RISK] > cards[options[best, O_CARD], F.RISK]:
            best = k
    return best


@njit(cache=True)
def low_value(cards, c):
    return min(cards[c, F.A], min(cards[c, F.B], cards[c, F.C]))


@njit(cache=True)
def ct_pre_scene(data, view, options, n_options, w):
    """ct: which pre-scene technique to use now (PROCEED when none pays)."""
    rules, cards = data.rules, data.cards
    margin_pts = w[W_CT_MARGIN]
    k = find_code(options, n_options, CT_SHIFT)
    if k >= 0 and view[V_HAND_N] >= 3:
        for i in range(view[V_HAND_N]):
            if low_value(cards, view[V_HAND + i]) > low_value(cards, view[V_MY_BAL]):
                return k
    k = find_code(options, n_options, CT_PICKING)
    if k >= 0 and view[V_OPP_HAND] >= 3 and view[V_HAND_N] >= 3 and can_afford(view, cards, rules, 1, margin_pts):
        return k
    k = find_code(options, n_options, CT_MOVING)
    if k >= 0 and view[V_OPP_H] > 0 and view[V_OPP_BASE] != cards.shape[0] - 1 and can_afford(view, cards, rules, 1, margin_pts):
        beaten = True
        for i in range(view[V_HAND_N]):
            c = view[V_HAND + i]
            if cards[c, F.RANK] == 1 and margin(data, view, c, 1, True) > 0:
                beaten = False
        if beaten:
            return k
    k = find_code(options, n_options, CT_SKIPPING)
    if k >= 0 and low_value(cards, view[V_OPP_BAL]) >= w[W_SKIP_BONUS] and view[V_HAND_N] >= 3 and can_afford(view, cards, rules, 1, margin_pts):
        return k
    return find_code(options, n_options, PROCEED)


@njit(cache=True)
def ct_policy(data, view, options, n_options, w):
    rules, cards = data.rules, data.cards
    margin_pts, bounce_at = w[W_CT_MARGIN], w[W_BOUNCE_RISK]
    kind = view[V_KIND]
    if kind == D_PRE:
        return ct_pre_scene(data, view, options, n_options, w)
    if kind == D_CHANGE:
        if n_options > 1 and can_afford(view, cards, rules, 1, margin_pts) and changing_wins(data, view):
            return 1 + lowest_card(options[1:], n_options - 1, cards)
        return 0
    if kind == D_POST:
        k = find_code(options, n_options, CT_BOUNCE)
        if k >= 0 and main_risk(data, view[V_MY_BASE], view[V_MY_H]) >= bounce_at and can_afford(view, cards, rules, 1, margin_pts):
            return k
        return find_code(options, n_options, PROCEED)
    if kind == D_CHANGE_PLACE:
        return best_change_place(data, view, options, n_options)
    if kind == D_PICK or kind == D_RECALL:
        return highest_card(options, n_options, cards)
    if kind == D_SHIFT:
        best = 0
        for k in range(1, n_options):
            if low_value(cards, options[k, O_CARD]) > low_value(cards, options[best, O_CARD]):
                best = k
        return best
    return greedy(data, view, options, n_options, False, w)


@njit(cache=True)
def greedy(data, view, options, n_options, cautious, w):
    cards = data.cards
    kind = view[V_KIND]
    if kind == D_PLACE:
        return best_place(data, view, options, n_options, cautious, w)
    if kind == D_CONTACT:
        return best_contact(data, view, options, n_options)
    if kind == D_DRAW:
        return n_options - 1  # draw as many as allowed
    if kind == D_FIRST:
        return choose_turn_order(data, view, options, n_options, w)
    if kind == D_CAST or kind == D_MOVE:
        return lowest_card(options, n_options, cards) if kind == D_CAST else 0
    if kind == D_READ:
        return highest_card(options, n_options, cards)
    if kind == D_CHANGE_PLACE:
        return best_change_place(data, view, options, n_options)
    if kind == D_PRE or kind == D_POST or kind == D_CHANGE:
        k = find_code(options, n_options, PROCEED)
        return k if k >= 0 else 0
    return 0  # D_PICK, D_SHIFT, D_RECALL: the first listed


@njit(cache=True)
def decide(code, view, options, n_options, stream, script, ask, weights, data):
    """The one dispatch from a seat's policy code to its decision function, in the common shape: the seat's
    view, the options, its weights row, then the printed cards and rules (`data`, public). random, scripted
    and search are the framework's (kernel.ask_policy); past its branch a search seat's `code` comes back as
    its rollout policy's."""
    k, code = ask_policy(code, stream, script, ask, n_options)
    if k < 0:
        if code == CT:
            k = ct_policy(data, view, options, n_options, weights)
        else:
            k = greedy(data, view, options, n_options, code == CAUTIOUS, weights)
    return asked(ask, k)
