"""Betrayal at the Neibolt House (seed 000): an edition of Betrayal at House on the Hill.

Played with `/game new game:betrayal expansion:neibolt`. The Betrayal core knows nothing
of it: `edition.py` registers the edition (bot/games/betrayal/loading.py finds it by its module
name), its content folder (data/neibolt/: the four rooms, the Pennywise Encounter deck,
the five scenarios) and its rules: encounters.py (the encounter deck and its haunt
roll), rooms.py (the four rooms), scenarios/ (one haunt plugin per scenario, beside its
data in data/neibolt/haunts/).
"""
