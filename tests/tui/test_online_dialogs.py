"""The questions of online play answer with the right value for their keys and buttons,
in the app `abstracts-tui` builds."""

from __future__ import annotations

from textual.pilot import Pilot
from textual.widgets import Button

from abstracts_tui.tui.dialogs.online import AbortDialog, OfferDialog, ResignDialog
from tests.tui.test_dialogs import Shown, answers, answers_each, click, keys, text


def test_only_y_resigns_and_enter_plays_on() -> None:
    cases = [(ResignDialog("bob", rated=True), keys(key)) for key in ("y", "n", "escape", "enter")]
    assert answers_each(*cases) == [[True], [False], [False], [False]]
    assert answers(ResignDialog("bob", rated=False), click("#yes")) == [True]
    assert answers(ResignDialog("bob", rated=False), click("#no")) == [False]


def test_the_resign_question_names_the_winner_and_the_rating() -> None:
    seen: list[str] = []

    async def look(host: Shown, pilot: Pilot[None]) -> None:
        seen.append(text(host, ".dialog-text"))
        seen.extend(str(button.label) for button in host.screen.query(Button))
        await pilot.press("n")

    answers(ResignDialog("bob", rated=True), look)
    answers(ResignDialog("bob", rated=False), look)
    assert seen[0] == "Resign this game? bob wins. The game is rated: it counts as a loss."
    assert seen[1:3] == ["Resign (y)", "Play on (n)"]
    assert seen[3] == "Resign this game? bob wins."


def test_an_abort_is_asked_the_same_way() -> None:
    seen: list[str] = []

    async def look(host: Shown, pilot: Pilot[None]) -> None:
        seen.append(text(host, ".dialog-text"))
        await pilot.press("enter")

    assert answers(AbortDialog("bob", rated=True), look) == [False]
    assert answers(AbortDialog("bob", rated=True), keys("y")) == [True]
    assert seen == ["Abort this game? It ends with no result and changes no rating."]


def test_an_offer_is_accepted_declined_or_put_off() -> None:
    def offer() -> OfferDialog:
        return OfferDialog.takeback("ann", ["e5", "d4"])

    cases = [(offer(), keys(key)) for key in ("y", "n", "escape", "enter")]
    # Enter answers nothing: a key meant for the board does not answer for the player.
    assert answers_each(*cases) == [[True], [False], [None], []]
    assert answers(offer(), click("#accept")) == [True]
    assert answers(offer(), click("#decline")) == [False]
    assert answers(offer(), click("#later")) == [None]


def test_the_offers_say_what_an_accept_does() -> None:
    seen: list[str] = []

    async def look(host: Shown, pilot: Pilot[None]) -> None:
        seen.append(
            f"{host.screen.query_one('.dialog-box').border_title}: {text(host, '.dialog-text')}"
        )
        await pilot.press("escape")

    answers(OfferDialog.takeback("ann", ["e5", "d4"]), look)
    answers(OfferDialog.takeback("ann", ["e5"]), look)
    answers(OfferDialog.rematch("bob", "Pilo 8x8"), look)
    assert seen == [
        "Take-back asked: ann asks to take back their last move and your reply (e5 and d4). "
        "Accept to play from before e5; decline to play on.",
        "Take-back asked: ann asks to take back their last move (e5). "
        "Accept to play from before e5; decline to play on.",
        "Rematch offered: bob offers a rematch: Pilo 8x8 again, the colours reversed, in a "
        "new room. Accept to go there now.",
    ]
