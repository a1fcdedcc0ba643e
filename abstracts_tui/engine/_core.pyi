"""Types of the compiled core (abstracts_tui/engine/core/core.c)."""

MAX_BITS: int

class Position:
    def __init__(
        self,
        game: int,
        size: int,
        pie: int,
        komi: float,
        boards: tuple[bytes, ...],
        levels: tuple[bytes, ...],
        turn: int,
        passes: int,
        last: int,
        swap: int,
        /,
    ) -> None: ...
    def legal_moves(self) -> list[int]: ...
    def play(self, move: int, /) -> None: ...
    def turn(self) -> int: ...
    def is_over(self) -> bool: ...
    def winner(self) -> int | None: ...
    def points(self) -> tuple[float, float]: ...
    def playout(self, seed: int, /) -> list[int]: ...
    def copy(self) -> Position: ...

class Searcher:
    playouts: int
    answered: int
    seconds: float
    nodes: int
    threads: int
    met: int
    bytes: int
    solved: int
    def __init__(
        self,
        position: Position,
        seed: int,
        threads: int,
        grave: int,
        ref: int,
        bias: float,
        exploration: float,
        amaf_from: int,
        max_bytes: int,
        solver: int = 1,
        exact: int = 1,
        /,
    ) -> None: ...
    def run(self, playouts: int, seconds: float, /) -> None: ...
    def stop(self) -> None: ...
    def advance(self, moves: list[int], /) -> int: ...
    def stats(self) -> list[tuple[int, int, float, int, list[int]]]: ...
    def scores(self) -> list[tuple[float, int]]: ...
    def dump(
        self,
    ) -> list[tuple[int, int, int, int, list[tuple[int, int, float, int, int]]]]: ...
    def root_amaf(self) -> list[tuple[int, int, float]]: ...
