"""A reverse proxy for the tests, as an admin puts one in front of `abstracts-tui web`:
HTTPS (a certificate of its own, made here), the app mounted under a path, its page, its
static files, its downloads and its websocket passed on, with the headers the proxy is
told to add. It runs on a loop of its own in a thread, as a real proxy runs beside the
app."""

from __future__ import annotations

import asyncio
import datetime
import ipaddress
import ssl
import threading
from collections.abc import Callable
from pathlib import Path

import aiohttp
from aiohttp import web
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

# Not passed on: they describe one connection, not the request.
HOP = {
    "connection",
    "keep-alive",
    "upgrade",
    "transfer-encoding",
    "content-length",
    "content-encoding",
    "host",
    "sec-websocket-key",
    "sec-websocket-version",
    "sec-websocket-extensions",
    "sec-websocket-accept",
}


def certificate(folder: Path) -> ssl.SSLContext:
    """A TLS context with a self-signed certificate for 127.0.0.1."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .sign(key, hashes.SHA256())
    )
    (folder / "cert.pem").write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    (folder / "key.pem").write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(folder / "cert.pem", folder / "key.pem")
    return context


class Proxy:
    """Serves https://127.0.0.1:PORT`mount` from `upstream` (set once the app listens):
    with `strip`, `mount` is taken off the path passed on (nginx's `proxy_pass
    http://app/;`), else the path goes on as it came; `headers` gives the headers added
    to each request passed on."""

    def __init__(
        self,
        folder: Path,
        mount: str,
        *,
        strip: bool,
        headers: Callable[[web.Request], dict[str, str]],
    ) -> None:
        self.mount = mount
        self.strip = strip
        self.headers = headers
        self.upstream = ""
        self.tls = certificate(folder)
        self.loop = asyncio.new_event_loop()
        self.port = 0
        started = threading.Event()
        threading.Thread(target=self._run, args=(started,), daemon=True).start()
        if not started.wait(30):
            raise AssertionError("the proxy did not start")

    @property
    def url(self) -> str:
        return f"https://127.0.0.1:{self.port}{self.mount}"

    def _run(self, started: threading.Event) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self._start())
        started.set()
        self.loop.run_forever()

    async def _start(self) -> None:
        self.session = aiohttp.ClientSession(auto_decompress=False)
        app = web.Application()
        app.router.add_route("GET", "/{path:.*}", self.handle)
        app.router.add_route("POST", "/{path:.*}", self.handle)  # forms, with their body
        self.runner = web.AppRunner(app)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0, ssl_context=self.tls)
        await site.start()
        self.port = int(self.runner.addresses[0][1])

    def stop(self) -> None:
        async def stop() -> None:
            await self.runner.cleanup()
            await self.session.close()

        asyncio.run_coroutine_threadsafe(stop(), self.loop).result(30)
        self.loop.call_soon_threadsafe(self.loop.stop)

    def passed_on(self, request: web.Request) -> tuple[str, dict[str, str]]:
        """The upstream address and headers for `request`."""
        path = request.path_qs
        if not path.startswith(self.mount):
            raise web.HTTPNotFound(text="not under the proxy's mount")
        if self.strip:
            path = "/" + path[len(self.mount) :]
        headers = {key: value for key, value in request.headers.items() if key.lower() not in HOP}
        headers.update(self.headers(request))
        return self.upstream.rstrip("/") + path, headers

    async def handle(self, request: web.Request) -> web.StreamResponse:
        url, headers = self.passed_on(request)
        if request.headers.get("Upgrade", "").lower() == "websocket":
            return await self.websocket(request, url, headers)
        body = await request.read() if request.method == "POST" else None
        async with self.session.request(
            request.method, url, headers=headers, data=body, allow_redirects=False
        ) as upstream:
            body = await upstream.read()
            response = web.Response(status=upstream.status, body=body)
            for key, value in upstream.headers.items():
                if key.lower() not in HOP:
                    response.headers.add(key, value)
            return response

    async def websocket(
        self, request: web.Request, url: str, headers: dict[str, str]
    ) -> web.StreamResponse:
        browser = web.WebSocketResponse()
        await browser.prepare(request)
        url = "ws" + url.removeprefix("http")
        async with self.session.ws_connect(url, headers=headers) as app:

            async def to_app() -> None:
                async for message in browser:
                    if message.type == aiohttp.WSMsgType.TEXT:
                        await app.send_str(message.data)
                    elif message.type == aiohttp.WSMsgType.BINARY:
                        await app.send_bytes(message.data)
                await app.close()

            async def to_browser() -> None:
                async for message in app:
                    if message.type == aiohttp.WSMsgType.TEXT:
                        await browser.send_str(message.data)
                    elif message.type == aiohttp.WSMsgType.BINARY:
                        await browser.send_bytes(message.data)
                await browser.close()

            await asyncio.gather(to_app(), to_browser())
        return browser
