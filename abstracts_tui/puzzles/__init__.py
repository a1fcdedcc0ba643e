"""Puzzles the solver proves: positions mined from self-play where exactly one move
wins, with the line that wins, graded by its depth (`mine`, `puzzle`), the set that
ships with the package (`shipped`) and one try at a puzzle for any front end (`trial`).
Free of any user interface."""
