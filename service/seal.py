"""Sealing a game state so an untrusted client can carry it but not read or change it.

AES-256-GCM (authenticated encryption, from ``cryptography``) with keys derived
from the configured secret by HKDF-SHA256.  The JSON is compressed before
encryption, which keeps the token short; the cards and the deck seed are kept
out of the compressed part (:mod:`.seal_plaintext`), so a token's length tells
nothing of the cards it hides.

Version 2 (what :meth:`Sealer.seal` writes)::

    v2.<key_id>.<game_id>.<seq>.<base64url(nonce || ciphertext)>

``key_id`` (8 hex) names the secret the state was sealed under, so a deployment
rotating its secret (``CRIBBAGE_STATE_SECRET_PREVIOUS``) knows which key to try;
``game_id`` (32 hex) and ``seq`` (the state's sequence number) are readable by
anyone but bound into the GCM tag as associated data, so altering any header
field fails to open.  Every token has exactly one accepted spelling: the header
is matched by one regular expression and the base64url body must re-encode to
the same text (no padding, no ``+``/``/``, no whitespace, canonical last char).

Version 1 tokens (``v1.`` ...; the first release's) are no longer opened: such
a token is refused with a sentence that says so.  A token of a version newer
than :data:`READS` (``v3.`` ...: a later release sealed it) is a
:class:`~service.core.errors.NewerVersionError`, not a :class:`SealError`, so
that the edge can tell a client to try a replica of that release.

Seat tokens (``st.<seat>.<base64url(HMAC-SHA256(seat key, "<game_id>/<seat>")[:16])>``)
prove which seat of which game a client plays; :meth:`Sealer.deck_seed` turns a
client's seed into a deck seed only the operator can reproduce.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import os
import re
from dataclasses import dataclass
from typing import Any

import orjson
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from .core.errors import MalformedError, NewerVersionError
from .seal_plaintext import PlaintextError, StateTooLarge, pack, unpack

SECRET_ENV = "CRIBBAGE_STATE_SECRET"
PREVIOUS_SECRET_ENV = "CRIBBAGE_STATE_SECRET_PREVIOUS"

PREFIX = "v2."
V1_PREFIX = "v1."
READS = (2,)
"""The token versions this release opens (it seals :data:`PREFIX`'s); the rollout rule of
service.boundary.state's ``READS`` holds for them too."""
MAX_TOKEN = 32768       # a v2 token, header included (format 3 keeps a sealed game's deal records: docs/deals.md)
MAX_SEQ = 10**9 - 1     # seq has at most 9 digits
MIN_SECRET = 16

_NONCE = 12
_TAG = 16
_V2_AAD = b"cribbage-state/v2|"
_SALT = b"cribbage-service"
# HKDF info labels: one per purpose (format 1 used b"game-state-seal").
_INFO_SEAL = b"cribbage/v2/state-seal"
_INFO_SEAT = b"cribbage/v2/seat-token"
_INFO_DECK = b"cribbage/v2/deck-seed"
_INFO_KEY_ID = b"cribbage/v2/key-id"
_INFO_RECORD = b"cribbage/v2/record-seal"
_INFO_SERVER_SEED = b"cribbage/v2/server-seed"

_V2_RE = re.compile(r"v2\.([0-9a-f]{8})\.([0-9a-f]{32})\.(0|[1-9][0-9]{0,8})\.([A-Za-z0-9_-]+)")
_GAME_ID_RE = re.compile(r"[0-9a-f]{32}")
_VERSION_RE = re.compile(r"v([1-9][0-9]{0,8})\.")
_SEAT_RE = re.compile(r"st\.(0|[1-9][0-9]{0,8})\.[A-Za-z0-9_-]{22}")
_RECORD_SEAL_RE = re.compile(r"rs\.([0-9a-f]{8})\.([A-Za-z0-9_-]{43})")


class SealError(MalformedError):
    """A sealed state that cannot be opened: tampered, truncated, misspelt or sealed elsewhere."""


class SeatTokenError(ValueError):
    """A seat token that is not valid for this game (malformed, another game, another seat,
    another deployment).  Deliberately not a :class:`MalformedError`: upstream answers 403."""


@dataclass(frozen=True)
class Opened:
    state: dict[str, Any]  # the JSON object that was sealed
    game_id: str           # from the header (authenticated)
    seq: int               # from the header (authenticated)


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def _unb64(text: str) -> bytes | None:
    """Decode canonical unpadded base64url, or None if ``text`` is not exactly
    what encoding its bytes would give (``text`` is already alphabet-checked)."""
    try:
        data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        return None
    return data if _b64(data) == text else None


def _secret_bytes(secret: Any, name: str) -> bytes:
    if isinstance(secret, str):
        secret = secret.encode("utf-8")
    if not isinstance(secret, bytes):
        raise TypeError(f"{name} must be str or bytes")
    if len(secret) < MIN_SECRET:
        raise ValueError(f"{name} must be at least {MIN_SECRET} bytes")
    return secret


def _derive(secret: bytes, info: bytes) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=_SALT, info=info).derive(secret)


class _Keys:
    """Everything derived from one secret (the secret itself is not kept)."""

    def __init__(self, secret: bytes) -> None:
        self.v2 = AESGCM(_derive(secret, _INFO_SEAL))
        self.seat = _derive(secret, _INFO_SEAT)
        self.deck = _derive(secret, _INFO_DECK)
        self.key_id = hmac.new(_derive(secret, _INFO_KEY_ID), b"key-id", hashlib.sha256).hexdigest()[:8]
        self.record = _derive(secret, _INFO_RECORD)
        self.server_seed = _derive(secret, _INFO_SERVER_SEED)

    def record_seal(self, record: dict[str, Any]) -> str:
        mac = hmac.new(self.record, _canonical(record), hashlib.sha256).digest()
        return f"rs.{self.key_id}.{_b64(mac)}"

    def seat_token(self, game_id: str, seat: int) -> str:
        mac = hmac.new(self.seat, f"{game_id}/{seat}".encode("ascii"), hashlib.sha256).digest()
        return f"st.{seat}.{_b64(mac[:16])}"


def _canonical(record: dict[str, Any]) -> bytes:
    """The bytes a record seal covers: the record's JSON, keys sorted, no spaces."""
    return orjson.dumps(record, option=orjson.OPT_SORT_KEYS)


def _v2_aad(key_id: str, game_id: str, seq: str) -> bytes:
    return _V2_AAD + f"{key_id}|{game_id}|{seq}".encode("ascii")


def _check_game_id(game_id: Any) -> str:
    if not isinstance(game_id, str) or not _GAME_ID_RE.fullmatch(game_id):
        raise ValueError("game_id must be 32 lowercase hex characters")
    return game_id


def _fail(message: str) -> SealError:
    return SealError(message, field="state")


_NOT_SEALED = "the state is not a sealed state of this service"
_ALTERED = "the sealed state was altered or sealed by another deployment"
_NOT_STATE = "the sealed state does not hold a game state"
_V1_RETIRED = ("format 1 is no longer read: this sealed state was issued by the first release; "
               "start a new game (see the changelog)")


class Sealer:
    """Seals under the current secret; opens under the current or the previous one."""

    def __init__(self, secret: str | bytes, previous: str | bytes | None = None) -> None:
        self._current = _Keys(_secret_bytes(secret, SECRET_ENV))
        self._all = [self._current]
        if previous is not None:
            self._all.append(_Keys(_secret_bytes(previous, PREVIOUS_SECRET_ENV)))
        self.key_id: str = self._current.key_id

    def __repr__(self) -> str:
        return f"<Sealer key_id={self.key_id} keys={len(self._all)}>"

    # -- state tokens -------------------------------------------------------

    def seal(self, state: dict[str, Any], game_id: str, seq: int) -> str:
        if not isinstance(state, dict):
            raise TypeError("only a JSON object can be sealed")
        _check_game_id(game_id)
        if isinstance(seq, bool) or not isinstance(seq, int) or not 0 <= seq <= MAX_SEQ:
            raise ValueError(f"seq must be an int from 0 to {MAX_SEQ}")
        header = f"v2.{self.key_id}.{game_id}.{seq}."
        nonce = os.urandom(_NONCE)
        body = self._current.v2.encrypt(nonce, pack(orjson.dumps(state)),
                                        _v2_aad(self.key_id, game_id, str(seq)))
        token = header + _b64(nonce + body)
        if len(token) > MAX_TOKEN:
            # Never hand out a token that unseal would refuse.
            raise ValueError(f"the sealed state would be {len(token)} characters, over {MAX_TOKEN}")
        return token

    def unseal(self, token: object) -> Opened:
        if not isinstance(token, str):
            raise _fail(_NOT_SEALED)
        if token.startswith(PREFIX):
            return self._unseal_v2(token)
        if token.startswith(V1_PREFIX):
            raise _fail(_V1_RETIRED)
        m = _VERSION_RE.match(token)
        if m is not None and int(m.group(1)) > max(READS):
            version = int(m.group(1))
            raise NewerVersionError(
                f"this sealed state is of version {version}, sealed by a newer release; this replica "
                f"opens versions {', '.join(map(str, READS))}: send it to a replica of that release",
                version=version, reads=READS, field="state")
        raise _fail(_NOT_SEALED)

    def _unseal_v2(self, token: str) -> Opened:
        if len(token) > MAX_TOKEN:
            raise _fail("the sealed state is too long")
        m = _V2_RE.fullmatch(token)
        if m is None:
            raise _fail(_NOT_SEALED)
        key_id, game_id, seq, body = m.groups()
        blob = _unb64(body)
        if blob is None or len(blob) < _NONCE + _TAG:
            raise _fail(_NOT_SEALED)
        keys = [k for k in self._all if hmac.compare_digest(k.key_id, key_id)]
        if not keys:
            raise _fail("the state was sealed under a key this deployment does not have")
        aad = _v2_aad(key_id, game_id, seq)
        for k in keys:
            try:
                plain = k.v2.decrypt(blob[:_NONCE], blob[_NONCE:], aad)
            except InvalidTag:
                continue
            return Opened(_inflate(plain), game_id, int(seq))
        raise _fail(_ALTERED)

    # -- seat tokens and deck seeds -----------------------------------------

    def seat_token(self, game_id: str, seat: int) -> str:
        _check_game_id(game_id)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= MAX_SEQ:
            raise ValueError("seat must be a non-negative int")
        return self._current.seat_token(game_id, seat)

    def seat_of(self, game_id: str, token: object, players: int) -> int:
        """The seat ``token`` was issued for in game ``game_id``, under the current
        or the previous secret; :class:`SeatTokenError` otherwise (including when
        ``game_id`` is not a game id)."""
        if isinstance(players, bool) or not isinstance(players, int) or players < 1:
            raise ValueError("players must be a positive int")
        if not isinstance(token, str) or not _SEAT_RE.fullmatch(token):
            raise SeatTokenError("not a seat token")
        if not isinstance(game_id, str) or not _GAME_ID_RE.fullmatch(game_id):
            raise SeatTokenError("this game has no seat tokens")
        seat = int(token[3:token.index(".", 3)])
        if not 0 <= seat < players:
            raise SeatTokenError("the seat token names no seat of this game")
        ok = False
        for k in self._all:  # compare against every key, so timing shows nothing either
            ok |= hmac.compare_digest(token, k.seat_token(game_id, seat))
        if not ok:
            raise SeatTokenError("the seat token is not valid for this game")
        return seat

    def deck_seed(self, seed: str) -> str:
        if not isinstance(seed, str):
            raise TypeError("seed must be a str")
        return hmac.new(self._current.deck, seed.encode("utf-8"), hashlib.sha256).hexdigest()[:32]


    # -- whole-game records and server seeds -------------------------------

    def record_seal(self, record: dict[str, Any]) -> str:
        """``rs.<key_id>.<base64url(HMAC-SHA256(record key, canonical JSON of record))>``: a seal
        that only this deployment can make, over every member of ``record`` (a seal is not
        encryption: the record is public once the game is over)."""
        if not isinstance(record, dict) or "seal" in record:
            raise ValueError("a record seal covers a record without its seal")
        return self._current.record_seal(record)

    def record_sealed(self, record: dict[str, Any], seal: object) -> bool:
        """Whether ``seal`` is this deployment's seal (current or previous secret) of ``record``."""
        if not isinstance(seal, str) or not _RECORD_SEAL_RE.fullmatch(seal):
            return False
        try:
            _canonical(record)
        except TypeError:
            return False
        ok = False
        for k in self._all:
            ok |= hmac.compare_digest(seal, k.record_seal(record))
        return ok

    def server_seeds(self, game_id: str) -> list[str]:
        """A game's server seed, ``HMAC-SHA256(server-seed key, game_id)`` as its first 32 hex
        digits, under the current secret first and then the previous one: the seed a random
        sealed game's packs start from, committed to at the start and revealed at the end
        (docs/deals.md)."""
        _check_game_id(game_id)
        return [hmac.new(k.server_seed, game_id.encode("ascii"), hashlib.sha256).hexdigest()[:32]
                for k in self._all]


def _inflate(plain: bytes) -> dict[str, Any]:
    try:
        data = unpack(plain)
    except StateTooLarge:
        raise _fail("the sealed state is too large") from None
    except PlaintextError:
        raise _fail(_NOT_STATE) from None
    try:
        state = orjson.loads(data)
    except orjson.JSONDecodeError:
        raise _fail(_NOT_STATE) from None
    if not isinstance(state, dict):
        raise _fail(_NOT_STATE)
    return state


def sealer_from_env() -> Sealer | None:
    """A :class:`Sealer` from ``CRIBBAGE_STATE_SECRET`` (and, while rotating,
    ``CRIBBAGE_STATE_SECRET_PREVIOUS``); None when no secret is set (plain states)."""
    secret = os.environ.get(SECRET_ENV)
    previous = os.environ.get(PREVIOUS_SECRET_ENV) or None
    if not secret:
        if previous:
            raise ValueError(f"{PREVIOUS_SECRET_ENV} is set but {SECRET_ENV} is not")
        return None
    return Sealer(secret, previous)
