"""Game options, the registry and the framing of position strings."""

from __future__ import annotations

import pytest

from abstracts_tui.rules import (
    GAMES,
    Egotzi,
    Linage,
    OptionError,
    PositionError,
    load_position,
    new_game,
)


def test_registry_sizes_and_defaults() -> None:
    table = {
        name: (cls.info.sizes.start, cls.info.sizes.stop - 1, cls.info.default_size)
        for name, cls in GAMES.items()
    }
    assert table == {
        "petrify": (6, 10, 8),
        "pilo": (6, 10, 8),
        "egotzi": (5, 9, 7),
        "linage": (5, 19, 11),
        "partitions": (5, 10, 6),
    }


def test_pie_rule_and_komi_by_variant() -> None:
    assert GAMES["petrify"].info.has_pie_rule("")
    assert GAMES["pilo"].info.has_pie_rule("")
    assert Egotzi.info.has_pie_rule("standard") and not Egotzi.info.takes_komi("standard")
    assert Egotzi.info.takes_komi("squared") and not Egotzi.info.has_pie_rule("squared")
    assert Linage.info.takes_komi("") and not Linage.info.has_pie_rule("")
    assert not GAMES["partitions"].info.has_pie_rule("")


@pytest.mark.parametrize(
    ("name", "size", "message"),
    [
        ("petrify", 5, "sizes 6 to 10, not 5"),
        ("pilo", 11, "sizes 6 to 10, not 11"),
        ("egotzi", 10, "sizes 5 to 9, not 10"),
        ("linage", 20, "sizes 5 to 19, not 20"),
        ("partitions", 4, "sizes 5 to 10, not 4"),
    ],
)
def test_sizes_out_of_range_are_refused(name: str, size: int, message: str) -> None:
    with pytest.raises(OptionError, match=message):
        new_game(name, size)


def test_unknown_game() -> None:
    with pytest.raises(OptionError, match="unknown game 'chess'; the games are petrify"):
        new_game("chess")


def test_egotzi_komi_is_an_even_integer_of_the_squared_variant() -> None:
    assert new_game("egotzi", variant="squared", komi=-4).options.komi == -4
    with pytest.raises(OptionError, match="even whole number, not 3"):
        new_game("egotzi", variant="squared", komi=3)
    with pytest.raises(OptionError, match="even whole number"):
        new_game("egotzi", variant="squared", komi=2.5)
    with pytest.raises(OptionError, match="Egotzi standard is played without komi"):
        new_game("egotzi", komi=2)
    with pytest.raises(OptionError, match="variants standard, squared, not 'round'"):
        new_game("egotzi", variant="round")


def test_linage_komi_takes_halves_and_negatives() -> None:
    assert new_game("linage", komi=-2.5).options.komi == -2.5
    assert new_game("linage", komi=7).options.komi == 7
    for bad in (0.25, float("nan"), float("inf")):
        with pytest.raises(OptionError, match="whole or half number"):
            new_game("linage", komi=bad)


def test_games_without_options_refuse_them() -> None:
    with pytest.raises(OptionError, match="Petrify is played without komi"):
        new_game("petrify", komi=0.5)
    with pytest.raises(OptionError, match="Partitions has no variants"):
        new_game("partitions", variant="squared")


def test_position_string_fields() -> None:
    text = new_game("egotzi", size=5, variant="squared", komi=4).position()
    game, options, board, side, counters = text.split(" ")
    assert (game, options, side) == ("egotzi", "size=5,variant=squared,komi=4", "black")
    assert board == "...../...../...../...../....."
    assert counters == "swap=no"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "starts with the game's name"),
        ("chess size=8 x white -", "starts with the game's name"),
        ("petrify size=8", "5 fields"),
        ("petrify size=8 a b c d", "5 fields"),
        ("petrify size=five ... blue passes=0", "size must be a whole number"),
        ("petrify size=12 ... blue passes=0", "sizes 6 to 10, not 12"),
        ("petrify colour=red ... blue passes=0", "takes the options size, not 'colour'"),
        ("petrify size=8,size=8 ... blue passes=0", "given twice"),
        ("partitions size=5 ... red -", "white or black, not 'red'"),
        ("linage size=5 ...../...../...../..... vertical passes=0", "5 rows"),
        ("linage size=5 ...../...../...../...../.... vertical passes=0", "must have 5 cells"),
        ("linage size=5 ...../...../...../...../....q vertical passes=0", "'q' is not a point"),
        ("linage size=5 ...../...../...../...../..... vertical -", "must give passes"),
        ("linage size=5 ...../...../...../...../..... vertical passes=0,turn=3", "unknown counter"),
        ("linage size=5,komi=abc ...../...../...../...../..... vertical passes=0", "komi must"),
    ],
)
def test_malformed_position_strings_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(PositionError, match=message):
        load_position(text)


def test_catalogue_lists_the_registry_games_in_order() -> None:
    # The selection screen lists the games from the catalogue; a game started from it
    # must be the registry's game of that name, with the same options.
    from abstracts_tui.rules import CATALOGUE

    assert list(CATALOGUE) == list(GAMES)
    assert all(GAMES[name].info == info for name, info in CATALOGUE.items())


def test_unknown_rules_name_is_an_attribute_error() -> None:
    import abstracts_tui.rules as rules

    with pytest.raises(AttributeError, match="no attribute 'Chess'"):
        _ = rules.Chess
