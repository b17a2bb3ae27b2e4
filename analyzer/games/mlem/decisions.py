"""The decisions of an MLEM player and how their options are written: the vocabulary the rules
(engine.py, which lists the legal options) and the policies (policies.py, which return the index of
one) share, with the pieces and places the options name. Nothing here decides anything.

  kind          asked of            options
  D_TAKEOFF     every player        which astronaut to send: the types at home (one boards)
  D_TRAVEL      the commander       the usable combinations of dice groups and One-dies: bit s-1 set = the
                                    group of symbol s (1..4, AB_SYMBOL) is used; the One-dies used from
                                    ONE_DIE_SHIFT up
  D_LAND        each astronaut      STAY, LEAVE_HERE, LEAVE_BEFORE, LEAVE_AFTER (+/-1: one space off)
  D_PARACHUTE   the Parachute       on a crash: STAY (go home) or LEAVE_HERE (land here)
"""
D_TAKEOFF, D_TRAVEL, D_LAND, D_PARACHUTE = 0, 1, 2, 3

# astronaut types, one of each per player (the spec's order)
SATELLITE, PLUS_MINUS, PARACHUTE, MOON2, PLANET2, DEEP2, DIE_REMOVER, ONE_DIE = range(8)
TYPES = 8
TYPE_NAMES = ("Satellite", "+/-1", "Parachute", "Moon x2", "Planet x2", "Comet/Galaxy x2", "Die-remover", "One-die")
TYPE_KEYS = ("satellite", "plus_minus", "parachute", "moon_x2", "planet_x2", "comet_galaxy_x2", "die_remover", "one_die")
# where an astronaut is
HOME, ABOARD, ON_MOON, ON_PLANET, ON_COMET, ON_GALAXY = range(6)
# landing options (also the parachute's on a crash: STAY = go home)
STAY, LEAVE_HERE, LEAVE_BEFORE, LEAVE_AFTER = 0, 1, 2, 3
# a travel option: bit s-1 set = the group of symbol s (1..4, AB = 5) is used; ONE_DIE_SHIFT up: One-dies used
ONE_DIE_SHIFT = 5
AB_SYMBOL = 5
NO_ARRIVAL = 1 << 40  # an arrival stamp: nobody has arrived

# restrictions (MlemScenario.RESTRICTIONS, in bit order): the engine filters the listed options by them
NEVER_SEND = 1  # NEVER_SEND << t: never send astronaut type t at take-off (bits 0..7)
LAND_AT_FIRST_CHANCE = 1 << TYPES  # never STAY when leaving is offered (landing phase and the parachute)
