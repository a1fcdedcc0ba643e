"""The Textual user interface of abstracts-tui."""
