"""`abstracts-tui serve --web [HOST:]PORT`: the SSH server's rooms in a web browser.

The web listener runs in the server's own process, on its loop, beside asyncssh: the
rooms (SQLite's live in this process; PostgreSQL's shared with the other processes), the
password checks and the count of sessions per name are the ones SSH uses. A visitor signs
in first (`signin`: the names and passwords of SSH); then their page's websocket gets
an app exactly as an SSH session does: `tui.rooms.app.ServerApp` on a thread of its own
(`server.session_thread`), drawn by `tui.rooms.driver.ChannelDriver`, reaching the rooms
through its `rooms.client.RoomClient`. Only the channel differs: the frames go to the
page's websocket as binary messages, which textual.js writes to its terminal, and what the
page sends is checked (`page_session`, `server.web.limits`) before the driver gets it as
input.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter
from functools import partial
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from aiohttp import WSCloseCode, web

from ...printable import NAME_LIMIT, printable
from ..bites import bite_reads
from ..limits import ConfigError, clamp_size
from ..moderation import suspension_sentence
from ..quiet_log import Hush
from ..room_files import valid_code
from .address import Address, BrowserAddresses
from .guard import CONNECTIONS_PER_ADDRESS, HttpGuard, handler_args, read_form
from .internals import Page
from .limits import MAX_MESSAGE, MAX_VISITORS, PAGES_PER_ADDRESS, size_from_query
from .links import Links
from .page_session import PageSession
from .room_page import RoomPage
from .signin import (
    COOKIE,
    MAX_FORM,
    SIGNED_IN_SECONDS,
    SignInRefused,
    SignIns,
    form_page,
    form_response,
    own_page,
    sign_in_needs_password,
)
from .visitors import (
    CLOSE_SECONDS,
    HEARTBEAT,
    TITLE,
    font_size,
    full,
    mark_page,
    pages,
    refused_origin,
    stop_serving,
    too_many,
)

if TYPE_CHECKING:
    from ...rooms.holder import Holder
    from ..ssh.server import Server

log = logging.getLogger("abstracts_tui.web")

STOP_SECONDS = 5.0
"""The longest a stopping server waits for a page's app to end."""
SIGNED_OUT = "You signed out: open the page to sign in again."
STOPPING = "The server is stopping; your games are kept: open the page again when it is back."


def ssh_address(host: str, port: int) -> str:
    """How the page's player reaches the SSH server, for the lobby's and the waiting
    screen's hints: `-p 2222 example.org`."""
    host = f"[{host}]" if ":" in host else host
    return host if port == 22 else f"-p {port} {host}"


def short(sentence: str) -> str:
    """A sentence of the SSH server's, as a page's closed dialog says it (a websocket's
    close reason: at most 123 bytes)."""
    text = sentence.strip().removeprefix("abstracts-tui: ")
    return (text[:1].upper() + text[1:]).encode()[:123].decode("utf-8", "ignore")


class WebRooms:
    """The web listener of `serve --web`: the sign-in form, the page, and each page's app."""

    def __init__(
        self,
        server: Server,
        host: str,
        port: int,
        *,
        max_visitors: int = MAX_VISITORS,
        per_address: int = PAGES_PER_ADDRESS,
        public: Address | None = None,
        behind_proxy: bool = False,
    ) -> None:
        self.server = server
        self.addresses = BrowserAddresses(public, behind_proxy)
        """The address browsers use (--public-url or the proxy's headers), and who they are."""
        # Behind a trusted proxy every connection is the proxy's: it bounds its clients.
        self.http = HttpGuard(
            self.addresses, per_address=None if behind_proxy else CONNECTIONS_PER_ADDRESS
        )
        self.host = host
        self.port = port
        self.max_visitors = max_visitors
        self.per_address = per_address
        # Behind a proxy the page is reached where the proxy listens, not where this
        # listens: the rule for signing in is that address's.
        reached = host
        if public is not None:
            reached = urlsplit(public.origin).hostname or public.host
        elif behind_proxy:
            reached = "the proxy's address"
        self.passwords = sign_in_needs_password(server, reached)
        barred = partial(suspension_sentence, server.store)
        self.signins = SignIns(server.guesses, passwords=self.passwords, barred=barred)
        self.many_signins = Hush(log)
        self.page = Page(TITLE)
        self.by_token: dict[str, set[RoomPage]] = {}
        """The pages open now, by the sign-in they were opened with (a sign-out ends them)."""
        self.pages: Counter[str] = Counter()
        """The pages open now, by the address they come from (`client_key`)."""
        self.handlers: set[asyncio.Task[object]] = set()
        self.runner: web.AppRunner | None = None
        self.links = Links(self)
        """The addresses people share: a room, a profile, a leaderboard."""

    def application(self) -> web.Application:
        app = web.Application(client_max_size=MAX_FORM, middlewares=[self.http.middleware])
        for prefix in self.addresses.prefixes():
            app.add_routes(
                [
                    web.get(prefix, self.handle_index),
                    web.post(f"{prefix}signin", self.handle_signin),
                    web.post(f"{prefix}signout", self.handle_signout),
                    web.get(f"{prefix}ws", self.handle_websocket),
                    web.static(f"{prefix}static", self.page.static),
                    *self.links.routes(prefix),
                ]
            )
        return app

    async def start(self) -> int:
        """Listen; returns the port."""
        self.runner = web.AppRunner(self.application(), handle_signals=False, **handler_args())
        await self.runner.setup()
        try:
            return await self.http.listen(self.runner, self.host, self.port)
        except OSError as error:
            await self.runner.cleanup()
            raise ConfigError(f"--web cannot listen on {self.host}:{self.port}: {error}") from None

    async def stop(self) -> None:
        """End every page's app (each page is told why), then stop listening."""
        await stop_serving(self.handlers, self.runner, self.http)

    # -- requests ---------------------------------------------------------------------------

    def client(self, request: web.Request) -> str:
        """Whom a request comes from: the address SSH's limits count (`address_key`)."""
        return self.addresses.client(request)

    def check_origin(self, request: web.Request) -> None:
        """A form posted, or a websocket opened, from another site's page is refused: the
        browser would send the player's cookie with it."""
        refused_origin(self.addresses, request)

    def address(self, request: web.Request) -> Address:
        """The address the browser used to reach the page."""
        try:
            return self.addresses.of(request)
        except ValueError as error:
            raise web.HTTPBadRequest(text=str(error)) from None

    def form(
        self,
        address: Address,
        *,
        name: str = "",
        refusal: str = "",
        status: int = 200,
        next_page: str = "",
    ) -> web.Response:
        """The sign-in form, which goes on to `next_page` (`signin.own_page`)."""
        text = form_page(
            passwords=self.passwords,
            name=name,
            refusal=refusal,
            action=address.url("signin"),
            next_page=next_page,
        )
        return form_response(text, status)

    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        """The sign-in form, or for a browser signed in the page with the terminal."""
        address = self.address(request)
        if self.signins.who(request.cookies.get(COOKIE, "")) is None:
            return self.form(address)
        return self.page_response(request, address)

    def page_response(
        self, request: web.Request, address: Address, room: str | None = None
    ) -> web.Response:
        """The page with the terminal; its app opens in room `room` if one is given."""
        size = font_size(request.query.get("fontsize", ""))
        socket = "ws" if room is None else f"ws/room/{room}"
        text, headers = self.page.render(address, size, sign_out=True, websocket=socket)
        return web.Response(text=text, content_type="text/html", headers=headers)

    async def handle_signin(self, request: web.Request) -> web.StreamResponse:
        self.check_origin(request)
        address = self.address(request)
        form = await read_form(request)
        name = str(form.get("name", "")).strip()
        password = str(form.get("password", ""))
        next_page = own_page(str(form.get("next", "")))
        who = self.client(request)
        try:
            token = await self.signins.sign_in(who, name, password)
        except SignInRefused as refusal:
            line = "%s: a sign-in as '%s' refused: %s"
            said = (who, printable(name, NAME_LIMIT), refusal)
            if refusal.status == 429:  # a flood of sign-ins: a line now and then
                self.many_signins.say(logging.INFO, line, *said)
            else:
                log.info(line, *said)
            return self.form(
                address,
                name=name[:24],
                refusal=str(refusal),
                status=refusal.status,
                next_page=next_page,
            )
        log.info("%s signed in from %s (web)", name, who)
        response = web.Response(status=303, headers={"Location": address.url(next_page)})
        response.set_cookie(
            COOKIE,
            token,
            max_age=int(SIGNED_IN_SECONDS),
            path=address.prefix,
            secure=address.secure,
            httponly=True,
            samesite="Strict",
        )
        return response

    async def handle_signout(self, request: web.Request) -> web.StreamResponse:
        """Forget the browser's sign-in, end the pages it has open, clear its cookie and
        show the sign-in form."""
        self.check_origin(request)
        address = self.address(request)
        token = request.cookies.get(COOKIE, "")
        name = self.signins.sign_out(token)
        if name is not None:
            log.info("%s signed out from %s (web)", name, self.client(request))
            for page in self.by_token.pop(token, set()):
                page.end(SIGNED_OUT)
        response = web.Response(status=303, headers={"Location": address.url()})
        response.del_cookie(COOKIE, path=address.prefix)
        return response

    def refusal(self, user: str, who: str) -> tuple[int, str] | None:
        """Why a page may not open now (a close code and the sentence), if it may not:
        the pages of the server and of an address (server.web.limits), and SSH's sessions
        of a name and of the server."""
        limits = self.server.config.limits
        if self.pages.total() >= self.max_visitors:
            log.info("%s: refused, the server is full (%s open)", who, pages(self.max_visitors))
            return WSCloseCode.TRY_AGAIN_LATER, full(self.max_visitors)
        if self.pages[who] >= self.per_address:
            log.info("%s: refused, %s open from there already", who, pages(self.per_address))
            return WSCloseCode.POLICY_VIOLATION, too_many(self.per_address)
        if self.server.sessions[user] >= limits.sessions_per_user:
            log.info("%s: a page refused, %d sessions open", user, limits.sessions_per_user)
            return WSCloseCode.POLICY_VIOLATION, (
                f"{user} has {limits.sessions_per_user} sessions open already; close one first."
            )
        if self.server.full():
            log.info("%s: a page refused, the server is full", user)
            return WSCloseCode.TRY_AGAIN_LATER, "The server is full; try again later."
        return None

    async def handle_websocket(self, request: web.Request) -> web.StreamResponse:
        """The player's app, for as long as the page is open (opened in the room of the
        address's code: `ws/room/CODE`)."""
        room = request.match_info.get("code")
        if room is not None and not valid_code(room):
            raise web.HTTPNotFound(text=f"There is no room {printable(room, NAME_LIMIT)}.")
        token = request.cookies.get(COOKIE, "")
        user = self.signins.who(token)
        if user is None:
            raise web.HTTPForbidden(text="Sign in first: open the page.")
        self.check_origin(request)
        prefix = self.address(request).prefix
        who = self.client(request)
        mark_page(self.http, request, who)
        websocket = web.WebSocketResponse(
            heartbeat=HEARTBEAT, max_msg_size=MAX_MESSAGE, timeout=CLOSE_SECONDS
        )
        refused = self.refusal(user, who)
        if refused is not None:
            await websocket.prepare(request)
            await close(websocket, *refused)
            return websocket
        from ...rooms.holder import new_holder

        server = self.server
        holder: Holder | None = new_holder(user)
        # Counted before the first await, so that pages opened at once cannot all pass.
        self.pages[who] += 1
        server.sessions[user] += 1
        handler = asyncio.current_task()
        if handler is not None:
            self.handlers.add(handler)
        try:
            bite_reads(request.transport)  # a bite a turn, as the visitors' pages
            await websocket.prepare(request)
            assert holder is not None
            refusal = await server.rooms.live.open_session(
                holder, server.config.limits.sessions_per_user
            )
            if refusal is not None:
                holder = None
                await close(websocket, WSCloseCode.POLICY_VIOLATION, short(refusal))
                return websocket
            size = clamp_size(*size_from_query(request.query))
            hint = ssh_address(request.url.host or server.config.host, server.port)
            page = RoomPage(server, user, websocket, size, hint, room=room, prefix=prefix)
            self.by_token.setdefault(token, set()).add(page)
            try:
                await self.play(request, page, holder, who)
            finally:
                opened = self.by_token.get(token)
                if opened is not None:
                    opened.discard(page)
                    if not opened:
                        del self.by_token[token]
        finally:
            self.pages[who] -= 1
            if not self.pages[who]:
                del self.pages[who]
            server.sessions[user] -= 1
            if holder is not None:
                server.rooms.spawn(server.rooms.live.close_session(holder))
            if handler is not None:
                self.handlers.discard(handler)
        return websocket

    async def play(self, request: web.Request, page: RoomPage, holder: Holder, who: str) -> None:
        """Run the page's app and read its messages until either ends (or the server
        stops); then the other ends too."""
        user, websocket = page.user, page.websocket
        log.info("%s: web session started from %s (%dx%d)", user, who, *page.input.size)
        app = asyncio.ensure_future(page.run(holder))
        reading = asyncio.ensure_future(PageSession(request, websocket, page, who).run())
        idle = asyncio.ensure_future(self.idle(page))
        code, reason = WSCloseCode.OK, ""
        try:
            await asyncio.wait([app, reading, idle], return_when=asyncio.FIRST_COMPLETED)
            if idle.done():
                reason = idle.result()
            reason = page.farewell or reason
        except asyncio.CancelledError:  # the server stops
            code, reason = WSCloseCode.GOING_AWAY, STOPPING
            raise
        finally:
            idle.cancel()
            page.end()
            status = 0
            try:
                status = await asyncio.wait_for(asyncio.shield(app), STOP_SECONDS)
            except TimeoutError:
                log.warning("%s: the page's app did not end within %g s", user, STOP_SECONDS)
            except Exception:
                log.exception("%s: the page's app failed", user)
                status = 1
            await page.drained()
            if status:
                code, reason = WSCloseCode.INTERNAL_ERROR, "The app failed: open the page again."
            await close(websocket, code, reason)
            if not reading.done():
                with contextlib.suppress(TimeoutError, asyncio.CancelledError):
                    await asyncio.wait_for(reading, CLOSE_SECONDS)
            log.info("%s: web session ended", user)

    async def idle(self, page: RoomPage) -> str:
        """Return once the page has sent no input for SSH's idle time since its app was
        first drawn: what it is told."""
        seconds = self.server.config.limits.idle_seconds
        while not page.drawn or (left := page.last_input + seconds - time.monotonic()) > 0:
            await asyncio.sleep(0.5 if not page.drawn else max(0.5, left))
        return (
            f"Closed after {seconds / 60:g} minutes without input; "
            "your games are kept: press Restart to go on."
        )


async def close(websocket: web.WebSocketResponse, code: int, reason: str) -> None:
    """Close a page's websocket with the sentence its closed dialog shows."""
    with contextlib.suppress(ConnectionError):
        await websocket.close(code=code, message=reason.encode()[:123])


async def start_web(
    server: Server,
    host: str,
    port: int,
    *,
    public: Address | None = None,
    behind_proxy: bool = False,
) -> WebRooms:
    """Listen for browsers beside the SSH server; ConfigError if it cannot."""
    rooms = WebRooms(server, host, port, public=public, behind_proxy=behind_proxy)
    if public is not None:  # the rooms' links, in every lobby (SSH's too)
        server.rooms.web_url = public.url()
    bound = await rooms.start()
    shown = f"[{host}]" if ":" in host else host
    sign_in = "name and password" if rooms.passwords else "a name (no password)"
    log.info("web: listening on http://%s:%d/ ; sign-in: %s", shown, bound, sign_in)
    log.info("web: answering for %s", rooms.addresses.names_shown())
    if public is not None:
        log.info("web: browsers open %s", public.url())
    return rooms
