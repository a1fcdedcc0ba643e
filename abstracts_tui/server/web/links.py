"""The addresses of `serve --web` that people share: `/room/CODE` (the page, its app
opened in that room), `/@/NAME` (a player's profile) and `/leaderboard/GAME` (a game's
top players), the last two pages of plain HTML (`standings_page`).

Each is for a browser signed in; one that is not gets the sign-in form, which goes on to
the address asked for (`signin.own_page`). A room code is checked by `valid_code` and the
room looked for before the page opens; a name by `valid_name`; a game by the games' list.
What is not there is a 404 page of one sentence.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Protocol

from aiohttp import web

from ...printable import NAME_LIMIT, printable
from ...rules import GAMES
from ...standings import read_leaderboard, read_profile
from ...store import StoreError
from ..auth import valid_name
from ..room_files import valid_code
from .signin import COOKIE
from .standings_page import PAGE_HEADERS, leaderboard_page, missing_page, profile_page

if TYPE_CHECKING:
    from ..ssh.server import Server
    from .address import Address
    from .signin import SignIns


class Listener(Protocol):
    """What the shared addresses need of the web listener that serves them
    (`rooms.WebRooms`)."""

    server: Server
    signins: SignIns

    def address(self, request: web.Request) -> Address: ...

    def form(self, address: Address, *, next_page: str = "") -> web.Response: ...

    def page_response(
        self, request: web.Request, address: Address, room: str | None = None
    ) -> web.Response: ...

    async def handle_websocket(self, request: web.Request) -> web.StreamResponse: ...


class Links:
    """The handlers of the shared addresses, for the web listener `rooms`."""

    def __init__(self, rooms: Listener) -> None:
        self.rooms = rooms

    def routes(self, prefix: str) -> list[web.RouteDef]:
        return [
            web.get(f"{prefix}room/{{code}}", self.room),
            web.get(f"{prefix}ws/room/{{code}}", self.rooms.handle_websocket),
            web.get(f"{prefix}@/{{name}}", self.profile),
            web.get(f"{prefix}leaderboard/{{game}}", self.leaderboard),
        ]

    def signed_in(self, request: web.Request) -> bool:
        return self.rooms.signins.who(request.cookies.get(COOKIE, "")) is not None

    def html(self, text: str, status: int = 200) -> web.Response:
        return web.Response(
            text=text, status=status, content_type="text/html", headers=PAGE_HEADERS
        )

    def missing(self, address: Address, sentence: str) -> web.Response:
        return self.html(missing_page(sentence, address.url), status=404)

    def unread(self, address: Address) -> web.Response:
        sentence = "The server cannot read its games just now: try again in a minute."
        return self.html(missing_page(sentence, address.url), status=503)

    async def room(self, request: web.Request) -> web.StreamResponse:
        """The page with its app opened in room CODE (join its open seat, take one's own,
        or watch), once the room is found."""
        code = request.match_info["code"].lower()
        address = self.rooms.address(request)
        if not self.signed_in(request):
            return self.rooms.form(address, next_page=f"room/{code}")
        if not valid_code(code) or await self.rooms.server.rooms.get(code) is None:
            return self.missing(address, f"There is no room {printable(code, NAME_LIMIT)}.")
        return self.rooms.page_response(request, address, room=code)

    async def profile(self, request: web.Request) -> web.StreamResponse:
        """Player NAME's profile: their ratings with each one's chart, their games
        counted, their last games."""
        name = request.match_info["name"]
        address = self.rooms.address(request)
        if not valid_name(name):
            shown = printable(name, NAME_LIMIT)
            return self.missing(address, f"'{shown}' cannot be a player's name.")
        if not self.signed_in(request):
            return self.rooms.form(address, next_page=f"@/{name}")
        try:
            found = await asyncio.to_thread(read_profile, self.rooms.server.store, name)
        except StoreError:
            return self.unread(address)
        if not found.known:
            return self.missing(address, f"{name} has played no game here.")
        return self.html(profile_page(found, address.url))

    async def leaderboard(self, request: web.Request) -> web.StreamResponse:
        """Game GAME's top ratings, each player a link to their profile."""
        game = request.match_info["game"].lower()
        address = self.rooms.address(request)
        if game not in GAMES:
            shown = printable(game, NAME_LIMIT)
            return self.missing(address, f"There is no game {shown} ({', '.join(GAMES)}).")
        if not self.signed_in(request):
            return self.rooms.form(address, next_page=f"leaderboard/{game}")
        try:
            ratings = await asyncio.to_thread(read_leaderboard, self.rooms.server.store, game)
        except StoreError:
            return self.unread(address)
        return self.html(leaderboard_page(game, ratings, address.url))
