"""`python -m abstracts_tui` is the `abstracts-tui` command."""

from .cli import main

main()
