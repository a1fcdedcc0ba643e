"""What the servers (SSH and the browser's) share to bound a client: a rate with a burst,
and the unit a per-address limit counts."""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Callable


class TokenBucket:
    """At most `rate` units a second on average, `burst` at once."""

    def __init__(
        self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.tokens = burst
        self.stamp = clock()

    def refill(self) -> None:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    def take(self, amount: float) -> bool:
        """Take `amount` if there is that much now (else take nothing)."""
        self.refill()
        if amount > self.tokens:
            return False
        self.tokens -= amount
        return True

    def due(self, amount: float) -> float:
        """Take `amount`, on credit if need be: the seconds to wait before using it."""
        self.refill()
        self.tokens -= amount
        return max(0.0, -self.tokens / self.rate)


def network_of(host: str) -> str | None:
    """What a per-address limit counts for the IP address `host`: the address, or for IPv6
    its /64 network (one machine is commonly given a whole /64, so it could pick a new
    address for each connection); an IPv4 address mapped into IPv6 counts as itself. None
    when `host` is not an address."""
    try:
        address = ipaddress.ip_address(host.split("%")[0])
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)
