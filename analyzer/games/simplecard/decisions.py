"""The decisions of a Simple Card player and how their options are written: the vocabulary the rules
(engine.py, which lists the legal options of each decision into the options array) and the policies
(policies.py, which return the index of one) share. Nothing here decides anything.

An option is a row of the options array: options[k, O_CODE] what, options[k, O_INDEX] which hand /
deck / Risk slot, options[k, O_CARD] the card it concerns.

  kind            asked of       options
  D_FIRST         the chooser    GO_FIRST, GO_SECOND
  D_DRAW          the active     how many cards to draw (0..k), when draw_optional
  D_PRE           the active     PROCEED, or one enabled pre-scene cast technique (CT_*)
  D_CAST          the caster     the hand cards it may cast (discard) for the technique
  D_PICK          the caster     the opponent's hand cards (Picking)
  D_READ          the caster     the cards read from the top of its deck (Reading)
  D_SHIFT         the caster     the hand cards it may shift onto its Balance
  D_MOVE          the caster     the Mains it may move to a hand (Moving)
  D_RECALL        the caster     the Risk cards it may take back (Recall)
  D_PLACE         the active     the hand cards it may place as its Main
  D_CONTACT       the active     contact A, B or C (code 0, 1, 2)
  D_CHANGE        the inferior   PROCEED, or CT_CHANGING
  D_CHANGE_PLACE  the inferior   the rank-1 hand cards it may change its Main for
  D_POST          the active     PROCEED, or CT_BOUNCE
A decision with a single legal option is not asked.

A seat's restrictions (SimpleCardScenario.RESTRICTIONS, bit i = the i-th) forbid options by their row:
NO_RANK2_STACKS a placement of height 2 or 3; NO_CT << t the cast technique t at D_PRE, D_CHANGE and
D_POST; NO_GO_SECOND the option GO_SECOND. PROCEED, a rank-1 card alone and GO_FIRST stay allowed.
"""
# cast techniques (ids = scenario.CT_NAMES order)
CT_PICKING, CT_READING, CT_SHIFT, CT_SKIPPING, CT_MOVING, CT_RECALL, CT_CHANGING, CT_BOUNCE = range(8)
PROCEED = -1  # option code: no (more) cast techniques / no Change
(D_FIRST, D_DRAW, D_PRE, D_CAST, D_PICK, D_READ, D_SHIFT, D_MOVE, D_RECALL, D_PLACE, D_CONTACT, D_CHANGE,
 D_CHANGE_PLACE, D_POST) = range(14)
GO_FIRST, GO_SECOND = 0, 1
O_CODE, O_INDEX, O_CARD = 0, 1, 2
MAX_CARDS = 128   # cards one zone may hold
MAX_OPTIONS = MAX_CARDS + 2

# restrictions, in SimpleCardScenario.RESTRICTIONS order: no_rank2_stacks, no_ct_<name> per CT id, no_go_second
NO_RANK2_STACKS = 1 << 0
NO_CT = 1 << 1  # no_ct_<name> of cast technique t is NO_CT << t
NO_GO_SECOND = 1 << 9
