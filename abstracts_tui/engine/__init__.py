"""The engine: Monte Carlo tree search (`search`), the computer's decisions in a game
(`decide`), its strength levels (`levels`), the reproducibility settings (`settings`)
and the text protocol (`protocol`).

Nothing is imported here, so that naming the levels on the command line loads no search
code; import the modules themselves.
"""
