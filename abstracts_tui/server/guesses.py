"""Password checks under a budget per address, hashed on a small pool of threads.

A check costs a good part of a second of one core on purpose (PBKDF2), so the server
decides whether to spend it before it does. Each address (IPv6: its /64 network) has one
check at a time; after a wrong password its next check waits, twice as long after each
(1, 2, 4 ... seconds, at most a minute): a check that would have to wait longer than 2
seconds is refused at once, unhashed, and the client told when to try again. So an
address gets about three guesses at once (a connection's worth), then one per wait.
The checks waiting for a thread go in the order of their address's wrong passwords,
fewest first: a flood of guesses from some addresses cannot stand between another
address and the pool, and a right password from there waits for one check at most.
"""

from __future__ import annotations

import asyncio
import functools
import heapq
import itertools
import math
import os
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from .auth import check_login

FIRST_DELAY = 1.0
"""Seconds an address waits before its next check after one wrong password; each more
doubles it."""
LONGEST_DELAY = 60.0
"""The most an address waits between checks, however many wrong passwords it sent."""
WAITED = 2.0
"""A check that must wait up to this long waits (the client sees a slow answer); one
that must wait longer is refused without being checked."""
FORGET_SECONDS = 600.0
"""An address's wrong passwords are forgotten this long after its last one."""
KEPT_ADDRESSES = 4096
"""Addresses remembered at most (beyond it, those whose wrong passwords are forgotten go,
then the oldest)."""
HASH_THREADS = max(1, min(4, (os.cpu_count() or 1) // 2))
"""Threads that hash passwords: half the cores, so that the games keep the rest."""


class TooManyGuesses(Exception):
    """An address has sent too many wrong passwords to be checked now."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"try again in {math.ceil(seconds)} seconds")
        self.seconds = seconds


@dataclass
class Budget:
    """One address's wrong passwords, and its check in progress."""

    failures: int = 0
    last_failure: float = 0.0
    not_before: float = 0.0
    """No check from the address starts before this time."""
    checking: asyncio.Future[bool] | None = None
    """Its check, queued or hashing (one at a time)."""


@dataclass(order=True)
class Job:
    failures: int
    number: int
    work: Callable[[], bool] = field(compare=False)
    done: asyncio.Future[bool] = field(compare=False)
    started: bool = field(default=False, compare=False)


def delay(failures: int) -> float:
    """The wait before an address's next check after `failures` wrong passwords."""
    if failures <= 0:
        return 0.0
    return min(FIRST_DELAY * 2.0 ** min(failures - 1, 30), LONGEST_DELAY)


class Guesses:
    """Checks logins against `passwords` (name: hash) for the server's connections."""

    def __init__(self, passwords: Mapping[str, str], threads: int = HASH_THREADS) -> None:
        self.passwords = passwords
        self.pool = ThreadPoolExecutor(threads, thread_name_prefix="passwords")
        self.free = threads
        self.queue: list[Job] = []
        self.numbers = itertools.count()
        self.budgets: dict[str, Budget] = {}
        self.closed = False

    async def check(self, address: str, name: str, password: str) -> bool:
        """Whether `name` may log in with `password`; raises TooManyGuesses, unchecked,
        when the address must wait longer than `WAITED` first."""
        budget = self.budget(address)
        while True:
            if budget.checking is not None:  # the address's check before this one
                await asyncio.wait([budget.checking])
                continue
            wait = budget.not_before - time.monotonic()
            if wait > WAITED:
                raise TooManyGuesses(wait)
            if wait <= 0:
                break
            await asyncio.sleep(wait)
        job = Job(
            budget.failures,
            next(self.numbers),
            lambda: check_login(self.passwords, name, password),
            asyncio.get_running_loop().create_future(),
        )
        budget.checking = job.done
        job.done.add_done_callback(lambda done: self.settle(budget, done))
        heapq.heappush(self.queue, job)
        self.start_next()
        try:
            return await asyncio.shield(job.done)
        except asyncio.CancelledError:
            # The client sent another request or left: its check is not started if it
            # has not been; one that has goes on and counts (the thread is spent anyway).
            if not job.started:
                job.done.cancel()
            raise

    def budget(self, address: str) -> Budget:
        now = time.monotonic()
        budget = self.budgets.get(address)
        if budget is None:
            if len(self.budgets) >= KEPT_ADDRESSES:
                self.forget(now)
            budget = self.budgets[address] = Budget()
        elif budget.failures and now - budget.last_failure > FORGET_SECONDS:
            budget.failures = 0
        return budget

    def forget(self, now: float) -> None:
        """Make room in the table: the forgotten addresses go, else the oldest half."""
        idle = [a for a, b in self.budgets.items() if b.checking is None]
        stale = [a for a in idle if now - self.budgets[a].last_failure > FORGET_SECONDS]
        if not stale:
            idle.sort(key=lambda a: self.budgets[a].last_failure)
            stale = idle[: len(idle) // 2 + 1]
        for address in stale:
            del self.budgets[address]

    def settle(self, budget: Budget, done: asyncio.Future[bool]) -> None:
        """Count the check's answer against its address (even if its client has gone)."""
        budget.checking = None
        if done.cancelled() or done.exception() is not None or done.result():
            return
        now = time.monotonic()
        budget.failures += 1
        budget.last_failure = now
        budget.not_before = now + delay(budget.failures)

    def start_next(self) -> None:
        loop = asyncio.get_running_loop()
        while self.free and self.queue and not self.closed:
            job = heapq.heappop(self.queue)
            if job.done.done():  # its client has gone
                continue
            job.started = True
            self.free -= 1
            running = loop.run_in_executor(self.pool, job.work)
            running.add_done_callback(functools.partial(self.finished, job))

    def finished(self, job: Job, running: asyncio.Future[bool]) -> None:
        self.free += 1
        if not job.done.done():
            if running.cancelled():
                job.done.cancel()
            elif (error := running.exception()) is not None:
                job.done.set_exception(error)
            else:
                job.done.set_result(running.result())
        self.start_next()

    def close(self) -> None:
        self.closed = True
        for job in self.queue:
            job.done.cancel()
        self.queue.clear()
        self.pool.shutdown(wait=False, cancel_futures=True)
