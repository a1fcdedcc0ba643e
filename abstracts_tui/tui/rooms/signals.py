"""Your-move signals: the bell, and a desktop notification where the terminal shows one.

A notification is an OSC sequence: `OSC 9 ; text` (iTerm2's, also read by WezTerm,
kitty and Ghostty) or `OSC 777 ; notify ; title ; text` (rxvt-unicode's, read by foot
and by VTE terminals that show notifications). A terminal that does not know a sequence
may print it as text (the Linux console prints most of it), so a notification goes only
to the terminals known to read it, chosen from the TERM the client sent and from
TERM_PROGRAM or VTE_VERSION when its ssh passes them (SendEnv); every other terminal
gets the bell alone, which any terminal takes.
"""

from __future__ import annotations

from collections.abc import Mapping

from ...printable import plain

BELL = "\a"
OSC9_TERMS = ("xterm-kitty", "xterm-ghostty", "wezterm")
OSC9_PROGRAMS = ("iTerm.app", "WezTerm", "ghostty")
OSC777_TERMS = ("foot", "rxvt-unicode")


def notice_kind(term: str, env: Mapping[str, str]) -> str | None:
    """`osc9`, `osc777`, or None (the bell only) for a client's terminal."""
    program = env.get("TERM_PROGRAM", "")
    if program == "tmux" or term.startswith(("screen", "tmux")):
        return None  # a multiplexer: what the terminal around it reads is not known
    if term.startswith(OSC9_TERMS) or program in OSC9_PROGRAMS:
        return "osc9"
    if term.startswith(OSC777_TERMS) or "VTE_VERSION" in env:
        return "osc777"
    return None


def signal(kind: str | None, title: str, text: str) -> str:
    """What to send for a your-move signal: the bell, and the notification of `kind`
    (its text `printable.plain`: a control character would end or break the sequence)."""
    if kind == "osc9":
        return f"{BELL}\x1b]9;{plain(f'{title}: {text}')}\x1b\\"
    if kind == "osc777":
        return f"{BELL}\x1b]777;notify;{plain(title).replace(';', ',')};{plain(text)}\x1b\\"
    return BELL
