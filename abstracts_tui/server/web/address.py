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

The names a browser may use are bounded too (`ServedNames`): a page whose address is
another name is refused before it gets a cookie, a form or a websocket. A name in DNS
can be made to point at 127.0.0.1 ("DNS rebinding"): a page served from such a name
would be, for the browser, of the same origin as this server, and could sign in and play
as anyone where a name is enough. The names served are the address it listens on (with
its port, as a browser writes it), `localhost` when that is a loopback address, any IP
address when it listens on all of them (an address cannot be made to point elsewhere),
`--public-url`'s host, and with `--behind-proxy` the host the proxy says.
"""

from __future__ import annotations

import ipaddress
import logging
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol
from urllib.parse import urlsplit

from ...rates import network_of

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


def split_host(host: str) -> tuple[str, int | None] | None:
    """`host` as a browser writes it (`name`, `name:port`, `[IPv6]:port`) as its name
    (lower case; an address in its usual form, IPv6 without brackets) and port (None when
    not written); None when it is not a plain host."""
    if not plain_host(host):
        return None
    if host.startswith("["):
        name, _, rest = host[1:].partition("]")
        port = rest.removeprefix(":") or None
    else:
        name, _, port = host.partition(":")
    address = ip_of(name)
    return (
        str(address) if address is not None else name.lower(),
        int(port) if port else None,
    )


def ip_of(name: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(name)
    except ValueError:
        return None


WILDCARDS = ("", "0.0.0.0", "::")
"""Hosts that mean every address of the machine."""


@dataclass(frozen=True)
class ServedNames:
    """The hosts a browser may reach this server by (see the module's docstring): `exact`
    names at the port they listen on, any IP address at `port` (`any_address`, when
    listening on every address), and `named` hosts at any port (`--public-url`'s: a proxy
    may pass its host on with or without its port)."""

    port: int
    exact: frozenset[tuple[str, int]]
    any_address: bool = False
    named: frozenset[str] = frozenset()

    def serves(self, host: str) -> bool:
        """Whether `host` (a Host header, an Origin's host) names this server."""
        parts = split_host(host)
        if parts is None:
            return False
        name, port = parts
        if name in self.named:
            return True
        port = 80 if port is None else port  # the listeners speak plain HTTP
        if (name, port) in self.exact:
            return True
        return self.any_address and port == self.port and ip_of(name) is not None

    def shown(self) -> str:
        """The names, for the log."""
        exact = sorted(f"[{n}]:{p}" if ":" in n else f"{n}:{p}" for n, p in self.exact)
        if self.any_address:
            exact.append(f"any IP address:{self.port}")
        return ", ".join([*exact, *sorted(self.named)])


def served_names(
    host: str, port: int, bound: Iterable[str] = (), public: Address | None = None
) -> ServedNames:
    """The names served by a listener on `host` (as given) at `port` (the one bound),
    whose sockets have the addresses `bound`, with `public` (`--public-url`)."""
    given = ip_of(host)
    everywhere = host in WILDCARDS or (given is not None and given.is_unspecified)
    names: set[str] = set()
    if not everywhere:
        names.add(str(given) if given is not None else host.lower())
        names.update(str(a) for b in bound if (a := ip_of(b)) is not None and not a.is_unspecified)
    addresses = [a for name in names if (a := ip_of(name)) is not None]
    if everywhere or "localhost" in names or any(a.is_loopback for a in addresses):
        names.add("localhost")
    public_parts = split_host(public.host) if public is not None else None
    return ServedNames(
        port,
        frozenset((name, port) for name in names),
        any_address=everywhere,
        named=frozenset([public_parts[0]] if public_parts is not None else []),
    )


def forwarded_host(
    headers: Iterable[tuple[str, str]], forwarded: tuple[Mapping[str, str], ...]
) -> str | None:
    """The host a proxy says the browser asked for (the nearest `Forwarded` element's
    `host`, else the last `X-Forwarded-Host`), if it says one."""
    nearest = forwarded[-1] if forwarded else {}
    return nearest.get("host") or last_value(headers, "x-forwarded-host")


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
        self.served: ServedNames | None = None
        """The names browsers may use (`listening`); None: any (not listening yet)."""

    def listening(self, host: str, port: int, bound: Iterable[str] = ()) -> ServedNames:
        """Note where the listener listens (`served_names`); the names it serves."""
        self.served = served_names(host, port, bound, self.public)
        return self.served

    def names_shown(self) -> str:
        """The names served, for the log."""
        shown = self.served.shown() if self.served is not None else "?"
        if self.behind_proxy and self.public is None:
            shown += ", and the host the proxy says"
        return shown

    def misdirected(self, request: Request) -> str | None:
        """The host a request names if it is not one this server answers for, else None
        (ValueError when its Host is not a host at all: it would go into the page):
        the request's Host, or with `--behind-proxy` the host the proxy says (which is
        taken as said, unless `--public-url` names the one host browsers use)."""
        served = self.served
        if served is None:
            return None
        if self.behind_proxy:
            said = forwarded_host(request.headers.items(), request.forwarded)
            if said is not None and plain_host(said):
                return None if self.public is None or served.serves(said) else said
        if not plain_host(request.host):
            raise ValueError("The request's Host is not a host name or address.")
        return None if served.serves(request.host) else request.host

    def foreign_origin(self, request: Request) -> str | None:
        """The request's Origin if it is another site's page (a browser sends the cookies
        of this one with it), else None. The page's own origin is the address the
        browser used (`of`), whose host `misdirected` has checked: the Origin's host must
        be that one, a name this server answers for."""
        origin = request.headers.get("Origin")
        if origin is None:
            return None  # not a browser's request from a page
        try:
            host = urlsplit(origin).netloc
        except ValueError:
            return origin
        try:
            own = self.of(request).host
        except ValueError:
            return origin
        if host.lower() != own.lower():
            return origin
        served = self.served
        if served is not None and not served.serves(host):
            # Only a proxy's word, taken as said (`misdirected`), may name another.
            said = forwarded_host(request.headers.items(), request.forwarded)
            if not (
                self.behind_proxy and self.public is None and said is not None and plain_host(said)
            ):
                return origin
        return None

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
