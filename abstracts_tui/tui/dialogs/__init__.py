"""Modal dialogs: the pie rule, komi, choosing sides, file paths and yes/no questions.

Each is a `ModalScreen` in a module of its own (import it from there, so that starting
the app loads only what it shows); push it with a callback to get the answer.
"""
