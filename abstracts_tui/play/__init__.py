"""The play model: a game being played or studied at one screen, without any user interface.

Seats (a person here, the computer at a level, a remote player), turns and the questions
before the first move, the computer's moves and hints, analysis, review and set-up, and
the sentences that say each of these. The full-screen app and line mode both draw from
it, so that a feature is written once.
"""
