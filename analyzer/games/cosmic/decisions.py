"""The decisions of a Simply Cosmic player and how their options are written: the vocabulary the rules
(engine.py, cards.py, powers.py, moves.py, which list the legal options) and the policies (policies.py,
which return the index of one) share. Nothing here decides anything.

Decision kinds (D_*) and what their options hold (the view's V_ARG: view.fill_view):
- D_REGROUP, D_SOURCE, D_TARGET, D_HOME, D_LOSE, D_DEAL_PLANET: planet ids
- D_DESTINY_OWN: OPT_REDRAW, a seat (challenge its tokens in your own system) or OPT_REESTABLISH + planet
- D_WILD, D_INSTRUCTION, D_MIND_TARGET: seats
- D_CONE, D_ALLY_COUNT, D_REESTABLISH_COUNT: token counts (D_ALLY_COUNT's V_ARG: the answer, ANSWER_*)
- D_INVITE, D_USE_POWER, D_SECOND, D_ACCEPT: 0 no, 1 yes (V_ARG: the seat invited / the alien / - / the deal)
- D_ANSWER: ANSWER_DECLINE, ANSWER_OFFENSE, ANSWER_DEFENSE
- D_CARD: card kinds (challenge cards of the hand)
- D_PLAY: PLAY_PASS or card kind * PLAY_ARGS + arg (arg: the side it helps or targets, 0 offense, 1 defense;
  Plague: the seat it strikes); V_ARG: the window (W_*)
- D_CARD_ZAP: 0 no, 1 yes (the card being played: the state's PLAYED_BY, PLAYED_KIND, PLAYED_ARG, public)
- D_COSMIC_ZAP: 0 no, 1 yes (V_ARG: the seat whose power is about to act; its alien is public)
- D_DISCARD: card kinds (Plague: one card of one type to discard; V_ARG: the type)
- D_CANCEL_ALLY: 0 no, 1 yes (Force Field; V_ARG: the ally)
- D_REWARD: REWARD_CARD or REWARD_TOKEN
- D_DEAL: DEAL_NONE, DEAL_SWAP, DEAL_OFFENSE_BASE, DEAL_DEFENSE_BASE
"""
(D_REGROUP, D_DESTINY_OWN, D_WILD, D_INSTRUCTION, D_CONE, D_SOURCE, D_TARGET, D_INVITE, D_ANSWER,
 D_ALLY_COUNT, D_CARD, D_USE_POWER, D_MIND_TARGET, D_PLAY, D_REWARD, D_HOME, D_LOSE, D_DEAL, D_ACCEPT,
 D_DEAL_PLANET, D_SECOND, D_REESTABLISH_COUNT, D_CARD_ZAP, D_DISCARD, D_CANCEL_ALLY) = range(25)
D_COSMIC_ZAP = 25  # 0 no, 1 yes: cancel the use of the power about to act (V_ARG: its owner; zaps.cosmic_zapped)

OPT_REDRAW, OPT_REESTABLISH = -1, 100    # D_DESTINY_OWN
ANSWER_DECLINE, ANSWER_OFFENSE, ANSWER_DEFENSE = 0, 1, 2
PLAY_PASS = -1
PLAY_ARGS = 8         # D_PLAY option = kind * PLAY_ARGS + arg
REWARD_CARD, REWARD_TOKEN = 0, 1
DEAL_NONE, DEAL_SWAP, DEAL_OFFENSE_BASE, DEAL_DEFENSE_BASE = 0, 1, 2, 3

# the card windows (cards.py), D_PLAY's V_ARG: start of a challenge, stage 8, after alliances, cards face
# down, a deal just accepted, the challenge over
W_START, W_REVEAL, W_ALLIANCE, W_SWAP, W_DEAL, W_AFTER = range(6)
WINDOWS = 6

# restrictions (CosmicScenario.RESTRICTIONS, in bit order): context.ask filters every decision's listed
# options by them (restrictions.py says which option each forbids)
NO_POWER, NO_ALLIES, NO_DEALS, NO_COMPROMISE = 1 << 0, 1 << 1, 1 << 2, 1 << 3
