"""Which clients' keys and signatures the server takes, as OpenSSH 8.8 and later does
by default, with RSA held to NIST's 2048 bits rather than OpenSSH's 1024.

- RSA keys of fewer than `MIN_RSA_BITS` bits are refused, and DSA keys (`ssh-dss`, 1024
  bits and SHA-1 by their definition) always.
- Signatures are taken in `SIGNATURE_ALGORITHMS` only: not `ssh-rsa`, whose hash is
  SHA-1 (an RSA key signs with `rsa-sha2-256` or `rsa-sha2-512`, as OpenSSH's client
  has since 7.2). The server names them to clients (asyncssh's `signature_algs`, sent as
  the `server-sig-algs` extension), so that a client picks one of them.

asyncssh verifies a client's signature with whatever algorithm the client names, and
tells the server's owner only the key, not the signature: `check_signatures` has the
connection's own check, which gets the signature, refuse the others first
(`server.asyncssh_internals`). Where a connection has none (another version), the log says
so once and RSA keys are refused, since their signatures cannot be checked (`rsa_refused`).
"""

from __future__ import annotations

import base64
import logging
import struct
from collections.abc import Callable
from typing import Any

import asyncssh

from ..asyncssh_internals import check_before_validating

log = logging.getLogger(__name__)

MIN_RSA_BITS = 2048
"""The fewest bits of an RSA key the server takes: NIST's floor for new signatures since
2014 (SP 800-131A); OpenSSH's own (`RequiredRSASize`) is 1024."""
SIGNATURE_ALGORITHMS = (
    "ssh-ed25519",
    "ecdsa-sha2-nistp256",
    "ecdsa-sha2-nistp384",
    "ecdsa-sha2-nistp521",
    "sk-ssh-ed25519@openssh.com",
    "sk-ecdsa-sha2-nistp256@openssh.com",
    "rsa-sha2-512",
    "rsa-sha2-256",
)
"""The signatures the server takes from a client's key: OpenSSH's default list
(`PubkeyAcceptedAlgorithms`, without the certificates the server does not use)."""

said = False
"""Whether the log has said once that signatures cannot be checked."""


def key_refusal(key: asyncssh.SSHKey) -> str | None:
    """Why the server does not take `key`, as one sentence to its owner; None if it does."""
    algorithm = key.get_algorithm()
    if algorithm == "ssh-dss":
        return "DSA keys (ssh-dss) are not accepted: make an ed25519 key (ssh-keygen -t ed25519)"
    if algorithm == "ssh-rsa":
        bits = rsa_bits(key)
        if bits < MIN_RSA_BITS:
            return (
                f"RSA keys of fewer than {MIN_RSA_BITS} bits are not accepted (this one has "
                f"{bits}): make an ed25519 key (ssh-keygen -t ed25519)"
            )
    return None


def rsa_bits(key: asyncssh.SSHKey) -> int:
    """The size of an RSA key's modulus, read from its public form (OpenSSH's wire
    format: the algorithm's name, then the exponent and the modulus as mpints)."""
    blob = base64.b64decode(key.export_public_key("openssh").split()[1])
    fields: list[bytes] = []
    at = 0
    while at < len(blob) and len(fields) < 3:
        (size,) = struct.unpack(">I", blob[at : at + 4])
        fields.append(blob[at + 4 : at + 4 + size])
        at += 4 + size
    return int.from_bytes(fields[2], "big").bit_length() if len(fields) == 3 else 0


def signature_algorithm(signature: bytes) -> str:
    """The algorithm a signature names (its first field, in SSH's wire format)."""
    if len(signature) < 4:
        return ""
    (size,) = struct.unpack(">I", signature[:4])
    return signature[4 : 4 + size].decode("ascii", errors="replace")


def check_signatures(conn: Any, refused: Callable[[str, str], None]) -> bool:
    """Make asyncssh's connection `conn` refuse a client's signature that is not in
    `SIGNATURE_ALGORITHMS`, calling `refused(name, algorithm)` for each; whether it could
    (if not, the log says so once)."""
    global said

    def allowed(username: str, signature: bytes) -> bool:
        algorithm = signature_algorithm(signature)
        if algorithm in SIGNATURE_ALGORITHMS:
            return True
        refused(username, algorithm)
        return False

    if check_before_validating(conn, allowed):
        return True
    if not said:
        said = True
        log.warning(
            "clients' signatures cannot be checked (this asyncssh's connections have "
            "no validate_public_key to wrap): RSA keys are refused"
        )
    return False


def signature_refusal(algorithm: str) -> str:
    """What a client that signed with `algorithm` (not one the server takes) is told."""
    if algorithm in ("ssh-rsa", "ssh-dss"):
        return (
            f"SHA-1 signatures ({algorithm}) are not accepted: sign with rsa-sha2-256 or "
            "rsa-sha2-512 (OpenSSH 7.2 and later does), or use an ed25519 key"
        )
    return f"{algorithm or 'unnamed'} signatures are not accepted: use an ed25519 key"


def rsa_refused() -> str:
    """What the owner of an RSA key is told where signatures cannot be checked."""
    return (
        "RSA keys are not accepted by this server (it cannot check that they sign with "
        "SHA-2): make an ed25519 key (ssh-keygen -t ed25519)"
    )
