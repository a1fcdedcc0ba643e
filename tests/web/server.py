"""`abstracts-tui web` in a subprocess, as the tests start it: its address once it
listens, and its log."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

TIMEOUT = 60.0


class WebServer:
    def __init__(self, data: Path, *args: str) -> None:
        self.data = data
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "abstracts_tui",
                "web",
                "--port",
                "0",
                "--data",
                str(data),
                *args,
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.lines: list[str] = []
        self.url = ""
        self.ready = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line)
            found = re.search(r"listening on (http://\S+/)", line)
            if found:
                self.url = found.group(1)
                self.ready.set()

    def wait_for_line(self, text: str) -> str:
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            found = [line for line in self.lines if text in line]
            if found:
                return found[0]
            time.sleep(0.1)
        raise AssertionError(f"{text!r} not in the server's output:\n" + "".join(self.lines))

    def wait(self) -> WebServer:
        if not self.ready.wait(TIMEOUT):
            raise AssertionError("the web server did not start:\n" + "".join(self.lines))
        return self

    def stop(self) -> None:
        # Captured by pytest, shown with a failed test's report.
        print("the web server's log:", "".join(self.lines[-40:]), sep="\n")
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
