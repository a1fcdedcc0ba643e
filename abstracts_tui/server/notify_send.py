"""Sending one notice: an HTTP POST (as ntfy takes it, or as Gotify does) or an e-mail
through the server's SMTP server. Each call blocks (run it on the notices' own threads,
`notifier`), has a timeout, and raises SendError with what went wrong.

- ntfy (and any URL not Gotify's): the text as the body (UTF-8), the title in the
  `Title` header;
- Gotify (a URL whose path ends in `/message`, or one given as `gotify:URL`): JSON
  `{"title", "message", "priority"}`;
- e-mail (`mailto:ADDRESS`): through `serve --smtp HOST:PORT`, STARTTLS when the server
  offers it, a login (`--smtp-user`, the password from `ABSTRACTS_TUI_SMTP_PASSWORD`)
  only over TLS.

Redirects are not followed, and unless the server allows it (`serve --notify-private`)
a URL whose host is a loopback, private or link-local address is refused: a player
cannot have the server post into its own network.
"""

from __future__ import annotations

import ipaddress
import json
import smtplib
import socket
import ssl
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from email.message import EmailMessage

from .notify_setting import GOTIFY, MAILTO, is_gotify

SEND_SECONDS = 10.0
"""The longest one try at sending waits for the other end."""
PASSWORD_VARIABLE = "ABSTRACTS_TUI_SMTP_PASSWORD"
"""The environment variable the SMTP login's password is read from."""


class SendError(Exception):
    """A notice was not sent; the message says why. `again`: whether trying again later
    may work (the other end down or busy), not (a refusal for good)."""

    def __init__(self, message: str, *, again: bool = True) -> None:
        super().__init__(message)
        self.again = again


@dataclass(frozen=True)
class Smtp:
    """The server's way to send e-mail (`serve --smtp`)."""

    host: str
    port: int
    sender: str
    user: str | None = None
    password: str | None = None


@dataclass(frozen=True)
class Outgoing:
    """What the server sends: to whom (`target`), a short title and the text."""

    target: str
    title: str
    text: str


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None  # the 3xx answer is then an HTTPError


_OPENER = urllib.request.build_opener(_NoRedirect)


def public_host(host: str) -> None:
    """Raise SendError (for good) if `host` resolves to an address inside the server's
    own network (loopback, private, link-local, reserved)."""
    try:
        found = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    except OSError as error:
        raise SendError(f"{host} cannot be resolved: {error}") from None
    for *_, address in found:
        ip = ipaddress.ip_address(str(address[0]).split("%")[0])
        if not ip.is_global:
            raise SendError(
                f"{host} is an address inside the server's network ({ip}): not sent",
                again=False,
            )


def post(notice: Outgoing, *, private: bool = False) -> None:
    """POST `notice` to its URL (ntfy's form, or Gotify's)."""
    url = notice.target.removeprefix(GOTIFY)
    host = urllib.parse.urlsplit(url).hostname or ""
    if not private:
        public_host(host)
    if is_gotify(notice.target):
        body = json.dumps({"title": notice.title, "message": notice.text, "priority": 5})
        headers = {"Content-Type": "application/json"}
    else:
        body = notice.text
        title = notice.title.encode("ascii", "replace").decode("ascii")
        headers = {"Content-Type": "text/plain; charset=utf-8", "Title": title}
    request = urllib.request.Request(url, body.encode(), headers, method="POST")
    request.add_header("User-Agent", "abstracts-tui")
    try:
        with _OPENER.open(request, timeout=SEND_SECONDS) as answer:
            answer.read(4096)
    except urllib.error.HTTPError as error:
        again = error.code >= 500 or error.code in (408, 429)
        raise SendError(f"{host} answered {error.code} {error.reason}", again=again) from None
    except (urllib.error.URLError, OSError, ValueError) as error:
        why = getattr(error, "reason", error)
        raise SendError(f"{host} cannot be reached: {why}") from None


def mail(notice: Outgoing, smtp: Smtp | None) -> None:
    """Send `notice` by e-mail through `smtp`."""
    if smtp is None:
        raise SendError("this server sends no e-mail (it was started without --smtp)")
    message = EmailMessage()
    message["From"] = smtp.sender
    message["To"] = notice.target.removeprefix(MAILTO)
    message["Subject"] = notice.title
    message.set_content(notice.text)
    try:
        with smtplib.SMTP(smtp.host, smtp.port, timeout=SEND_SECONDS) as client:
            client.ehlo()
            secure = client.has_extn("starttls")
            if secure:
                client.starttls(context=ssl.create_default_context())
                client.ehlo()
            if smtp.user is not None:
                if not secure:
                    raise SendError(
                        f"{smtp.host} offers no STARTTLS: the login is not sent in the clear",
                        again=False,
                    )
                client.login(smtp.user, smtp.password or "")
            client.send_message(message)
    except smtplib.SMTPRecipientsRefused as error:
        raise SendError(f"the mail server refused the address: {error}", again=False) from None
    except smtplib.SMTPResponseException as error:
        again = error.smtp_code >= 400 and error.smtp_code < 500
        raise SendError(f"the mail server answered {error.smtp_code}", again=again) from None
    except (smtplib.SMTPException, OSError) as error:
        raise SendError(f"the mail server cannot be reached: {error}") from None


def send(notice: Outgoing, smtp: Smtp | None, *, private: bool = False) -> None:
    """Send `notice` the way its target says; raises SendError."""
    if notice.target.startswith(MAILTO):
        mail(notice, smtp)
    else:
        post(notice, private=private)
