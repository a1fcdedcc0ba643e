"""Widgets of the abstracts-tui app."""
