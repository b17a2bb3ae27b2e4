"""The four groups of arrays Simple Card's rules and policies pass around, each a pack with named fields
(analyzer/kernel_pack.py: one pointer per call). Their arrays are borrowed views: whoever makes a pack
keeps the arrays alive (engine.play, until it `release`s them; a test, in its position builder).

- st, Zones: both players' zones; n[p, N_...] (table.py) their sizes and single slots
- data, Data: the batch's rules and cards, read-only
- pol, Policy: how the seats decide, and the scratch of a decision
- out, Rows: this game's rows of the result columns (columns.COLUMNS), set before each game
"""
from numba import njit
from numba.experimental import structref

from ...kernel_pack import PackType, field, named

ZONES_FIELDS = (
    "n",     # int64[2, N_FIELDS]: zone sizes, balancer, Main, Risk points (table.N_*)
    "deck",  # int64[2, MAX_CARDS]: deck[p, :n[p, N_DECK]], top = last
    "hand",  # int64[2, MAX_CARDS]: hand[p, :n[p, N_HAND]]
    "risk",  # int64[2, MAX_CARDS]: risk[p, :n[p, N_RISK_N]], a face-down card as -1 - card
    "seen",  # int64[2, 2, cards]: what q's opponent has seen of q's hidden cards (engine.py, `seen_*`):
             # seen[q, IN_HAND, c] copies of card c known in q's hand, seen[q, IN_HAND_OR_SET, c] in its hand or set card
)
DATA_FIELDS = (
    "rules",    # the rule vector: rules[R.NAME]
    "enabled",  # enabled[t]: cast technique t is in play
    "cards",    # the cards table: cards[c, F.NAME]; the last row is the unknown card
    "up",       # up[c]: the card of c's name one rank up (-1: none)
    "mains",    # table.rule_tables: mains[c, h - 1, F...] of a Main of h cards on c
    "bonus",    # table.rule_tables: bonus[b, x] what balancer b adds to contact x
)
POLICY_FIELDS = (
    "policy",    # each seat's policy code
    "weights",   # each seat's weights row (scenario.WEIGHTS)
    "restrict",  # each seat's restrictions (decisions.NO_* bits)
    "script",    # the scripted policy's option indices
    "ctl",       # the game's control row (kernel.A_*): the script's position, and a search's log and branch
    "stream",    # the game's random stream (uint64[1])
    "own_view",  # the deciding seat's view (view.fill_view; `view` would read as numpy's method)
    "options",   # the options of a decision: rows (O_CODE, O_INDEX, O_CARD)
    "ev",        # the trace (kernel.record): a search decision is recorded there (kernel.search_step)
    "tn",
    "cap",
)
ROWS_FIELDS = (
    "g",       # the whole-game columns (G.NAME)
    "s",       # the per-seat columns (s[p, S.NAME])
    "cts",     # cast techniques used: cts[p, t]
    "played",  # the cards placed in the Main, a bitmask (engine.mark_played)
)


class ZonesType(PackType):
    pass


class DataType(PackType):
    pass


class PolicyType(PackType):
    pass


class RowsType(PackType):
    pass


class _Zones(structref.StructRefProxy):
    pass


class _Data(structref.StructRefProxy):
    pass


class _Policy(structref.StructRefProxy):
    pass


class _Rows(structref.StructRefProxy):
    pass


Zones = named(_Zones, ZonesType, ZONES_FIELDS)
Data = named(_Data, DataType, DATA_FIELDS)
Policy = named(_Policy, PolicyType, POLICY_FIELDS)
Rows = named(_Rows, RowsType, ROWS_FIELDS)


@njit(cache=True)
def new_zones(n, deck, hand, risk, seen):
    return Zones(field(n), field(deck), field(hand), field(risk), field(seen))


@njit(cache=True)
def new_data(rules, enabled, cards, up, mains, bonus):
    return Data(field(rules), field(enabled), field(cards), field(up), field(mains), field(bonus))


@njit(cache=True)
def new_policy(policy, weights, restrict, script, ctl, stream, own_view, options, ev, tn, cap):
    return Policy(field(policy), field(weights), field(restrict), field(script), field(ctl), field(stream), field(own_view),
                  field(options), field(ev), field(tn), field(cap))


@njit(cache=True)
def new_rows(g, s, cts, played):
    return Rows(field(g), field(s), field(cts), field(played))
