"""Where browsers reach `abstracts-tui web`: the scheme, host and path that its page builds
its links and its websocket's address from.

By default that is the address the request came to (its Host header, over plain HTTP).
Behind a reverse proxy the browser used another one (https://, the proxy's host, maybe a
path the proxy mounts the app under): `--public-url` names it once for all, or
`--behind-proxy` trusts the proxy's headers (`Forwarded`, or `X-Forwarded-Proto`,
`X-Forwarded-Host` and `X-Forwarded-Prefix`) to say it with each request. The headers are
never trusted unasked: anyone who reaches the port directly could send them.

The same holds for the browser's own address, which the limit of pages per address
counts: the proxy's `Forwarded: for=` or `X-Forwarded-For` with `--behind-proxy`, else the
address the connection comes from (behind a proxy that is not trusted, the proxy's).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol
from urllib.parse import urlsplit

from .rates import network_of

# A host as a browser writes it: a name or IPv4 address, or an IPv6 one in brackets, and
# maybe a port. Anything else in a header is ignored (it would end up in the page).
HOST = re.compile(r"(?:[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?")
# A path prefix of plain segments: it goes into the page's links, its style and script.
PREFIX = re.compile(r"/(?:[A-Za-z0-9._~%-]+/)*")
SCHEMES = ("http", "https")

log = logging.getLogger("abstracts_tui.web")


@dataclass(frozen=True)
class Address:
    """The app's address as the browser sees it: `prefix` starts and ends with "/"."""

    scheme: str
    host: str
    prefix: str = "/"

    @property
    def origin(self) -> str:
        return f"{self.scheme}://{self.host}"

    def url(self, path: str = "") -> str:
        return f"{self.origin}{self.prefix}{path}"

    def websocket(self, path: str) -> str:
        scheme = "wss" if self.scheme == "https" else "ws"
        return f"{scheme}://{self.host}{self.prefix}{path}"

    @property
    def secure(self) -> bool:
        return self.scheme == "https"


def plain_host(host: str) -> bool:
    """Whether `host` is a host name or address, maybe with a port, and nothing more."""
    return HOST.fullmatch(host) is not None


def prefix_of(path: str) -> str | None:
    """`path` as a prefix ("/games" and "/games/" give "/games/"), or None when it is not
    a plain path (no "..", no empty or odd segments)."""
    path = "/" + path.strip("/") + "/" if path.strip("/") else "/"
    if PREFIX.fullmatch(path) is None or any(part in (".", "..") for part in path.split("/")):
        return None
    return path


def parse_public_url(text: str) -> Address:
    """The address given with --public-url; ValueError with the reason when it is not one."""

    def refuse(reason: str) -> ValueError:
        return ValueError(
            f"--public-url {text!r} is not an address like https://games.example.org/ "
            f"or https://example.org/games/: {reason}"
        )

    try:
        parts = urlsplit(text.strip())
        parts.port  # noqa: B018 (raises ValueError on a port that is not a number)
    except ValueError:
        raise refuse("its port is not a number") from None
    if parts.scheme.lower() not in SCHEMES:
        raise refuse("it does not start with https:// or http://")
    if not plain_host(parts.netloc):
        raise refuse("its host is not a plain name or address, with no user or password")
    if parts.query or parts.fragment:
        raise refuse("it has a ?query or #fragment")
    prefix = prefix_of(parts.path)
    if prefix is None:
        raise refuse("its path is not a plain folder of letters, digits and . _ ~ % -")
    return Address(parts.scheme.lower(), parts.netloc, prefix)


def last_value(headers: Iterable[tuple[str, str]], name: str) -> str | None:
    """The last value of the comma-separated header `name`: the one the proxy nearest to
    the app added (a client may have sent its own before it)."""
    values = [
        item.strip()
        for key, value in headers
        if key.lower() == name
        for item in value.split(",")
        if item.strip()
    ]
    return values[-1] if values else None


def proxied(
    own: Address,
    headers: Iterable[tuple[str, str]],
    forwarded: tuple[Mapping[str, str], ...],
) -> Address:
    """The address the proxy says the browser used, from the `Forwarded` header (parsed,
    one mapping per element) or else the X-Forwarded ones; what it does not say, or says
    in a form that is not an address, is taken from `own`."""
    pairs = list(headers)
    nearest = forwarded[-1] if forwarded else {}
    scheme = (nearest.get("proto") or last_value(pairs, "x-forwarded-proto") or "").lower()
    host = nearest.get("host") or last_value(pairs, "x-forwarded-host") or ""
    prefix = prefix_of(last_value(pairs, "x-forwarded-prefix") or "/")
    return Address(
        scheme if scheme in SCHEMES else own.scheme,
        host if plain_host(host) else own.host,
        prefix if prefix is not None else own.prefix,
    )


def has_proxy_headers(headers: Iterable[tuple[str, str]]) -> bool:
    names = {"forwarded", "x-forwarded-proto", "x-forwarded-host", "x-forwarded-prefix"}
    return any(key.lower() in names for key, _ in headers)


def address_key(host: str) -> str | None:
    """What the limit of pages per address counts for `host` (an IP address, maybe with a
    port, as a peer or a proxy's header gives it): the address, or for IPv6 its /64
    network (one machine is commonly given a whole /64, so it could pick a new address for
    each page); None when `host` is not an address."""
    host = host.strip().strip('"')
    if host.startswith("["):  # [IPv6] or [IPv6]:port
        host = host[1:].partition("]")[0]
    elif host.count(":") == 1:  # IPv4:port
        host = host.partition(":")[0]
    return network_of(host)


def client_key(
    peer: str | None,
    headers: Iterable[tuple[str, str]],
    forwarded: tuple[Mapping[str, str], ...],
    *,
    trusted: bool,
) -> str:
    """Whom a request comes from, for the limit of pages per address: with a `trusted`
    proxy, the address its `Forwarded: for=` (the nearest element) or else the last
    `X-Forwarded-For` value says (the one that proxy added: a browser may have sent its
    own before it); else, or when the proxy says no address, the connection's peer."""
    if trusted:
        said = (forwarded[-1] if forwarded else {}).get("for") or last_value(
            headers, "x-forwarded-for"
        )
        key = address_key(said) if said else None
        if key is not None:
            return key
    return (address_key(peer) if peer else None) or peer or "unknown"


class Request(Protocol):
    """What is read of a request (aiohttp's `web.Request`)."""

    @property
    def host(self) -> str: ...

    @property
    def scheme(self) -> str: ...

    @property
    def remote(self) -> str | None: ...

    @property
    def headers(self) -> Mapping[str, str]: ...

    @property
    def forwarded(self) -> tuple[Mapping[str, str], ...]: ...


class BrowserAddresses:
    """The address a browser used, and whom it is, for each request: `--public-url`'s
    address, or with `--behind-proxy` what the proxy's headers say, else the request's
    own (and, once, a warning in the log when proxy headers come unasked)."""

    def __init__(self, public: Address | None = None, behind_proxy: bool = False) -> None:
        self.public = public
        self.behind_proxy = behind_proxy
        self.warned = False

    def of(self, request: Request) -> Address:
        """ValueError when the request's Host is not a host name or address (it would
        go into the page)."""
        if self.public is not None:
            return self.public
        if not plain_host(request.host):
            raise ValueError("The request's Host is not a host name or address.")
        own = Address(request.scheme, request.host)
        if self.behind_proxy:
            return proxied(own, request.headers.items(), request.forwarded)
        if not self.warned and has_proxy_headers(request.headers.items()):
            self.warned = True
            log.warning(
                "a request came through a proxy (it has Forwarded or X-Forwarded-* "
                "headers): give --behind-proxy to trust them, or --public-url, or the "
                "page's links will be to %s",
                own.url(),
            )
        return own

    def client(self, request: Request) -> str:
        """Whom the request comes from, for the limits per address (`client_key`)."""
        return client_key(
            request.remote, request.headers.items(), request.forwarded, trusted=self.behind_proxy
        )

    def prefixes(self) -> list[str]:
        """The paths the app answers under: a proxy that mounts it under a path may pass
        that path on or strip it."""
        return sorted({"/", self.public.prefix if self.public else "/"})
