"""`python -m abstracts_tui` is the `abstracts-tui` command."""

from .cli import main

if __name__ == "__main__":
    main()
