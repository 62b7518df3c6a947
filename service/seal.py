"""Sealing a game state so an untrusted client can carry it but not read or change it.

AES-256-GCM (authenticated encryption, from ``cryptography``) with a key
derived from the configured secret by HKDF-SHA256.  The JSON is compressed
before encryption, which also keeps the token short.  A token is
``v1.`` + base64url(nonce || ciphertext); the ``v1.`` prefix and the format
version are bound into the authentication tag, so a state sealed by another
deployment (another secret) or altered in transit fails to open.
"""

from __future__ import annotations

import base64
import binascii
import os
import zlib
from typing import Any

import orjson
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from .core.errors import MalformedError

PREFIX = "v1."
_AAD = b"cribbage-state/v1"
_NONCE = 12
MAX_TOKEN = 60_000  # openapi.yaml SealedState.maxLength; under the body limit
SECRET_ENV = "CRIBBAGE_STATE_SECRET"


class SealError(MalformedError):
    """A sealed state that cannot be opened: tampered, truncated or sealed elsewhere."""


class Sealer:
    def __init__(self, secret: str | bytes) -> None:
        if isinstance(secret, str):
            secret = secret.encode()
        if len(secret) < 16:
            raise ValueError(f"{SECRET_ENV} must be at least 16 bytes")
        key = HKDF(algorithm=hashes.SHA256(), length=32, salt=b"cribbage-service",
                   info=b"game-state-seal").derive(secret)
        self._aead = AESGCM(key)

    def seal(self, state: dict[str, Any]) -> str:
        nonce = os.urandom(_NONCE)
        body = self._aead.encrypt(nonce, zlib.compress(orjson.dumps(state), 6), _AAD)
        return PREFIX + base64.urlsafe_b64encode(nonce + body).decode().rstrip("=")

    def unseal(self, token: Any) -> dict[str, Any]:
        if not isinstance(token, str) or not token.startswith(PREFIX) or len(token) > MAX_TOKEN:
            raise SealError("the state is not a sealed state of this service", field="state")
        raw = token[len(PREFIX):]
        try:
            blob = base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4))
            plain = self._aead.decrypt(blob[:_NONCE], blob[_NONCE:], _AAD)
        except (binascii.Error, ValueError, InvalidTag):
            raise SealError("the sealed state was altered or sealed by another deployment",
                            field="state") from None
        # Bounded: a state never inflates past this, so a crafted token cannot either.
        inflater = zlib.decompressobj()
        try:
            data = inflater.decompress(plain, 4 * 1024 * 1024)
        except zlib.error:
            raise SealError("the sealed state does not hold a game state", field="state") from None
        if inflater.unconsumed_tail:
            raise SealError("the sealed state is too large", field="state")
        try:
            state = orjson.loads(data)
        except orjson.JSONDecodeError:
            state = None
        if not isinstance(state, dict):
            raise SealError("the sealed state does not hold a game state", field="state")
        return state


def sealer_from_env() -> Sealer | None:
    secret = os.environ.get(SECRET_ENV)
    return Sealer(secret) if secret else None
