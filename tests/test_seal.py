"""Sealed game states: a client can carry them but neither read nor change them."""

from __future__ import annotations

import base64
import os
import zlib

import orjson
import pytest

from service import seal as seal_module
from service.core.errors import CribbageError, MalformedError
from service.core.game import GameAction, apply_action, new_game
from service.core.options import GameOptions
from service.core.state_json import from_json, to_json
from service.seal import MAX_TOKEN, PREFIX, SealError, Sealer, sealer_from_env

SECRET = "correct horse battery staple"


@pytest.fixture()
def sealer() -> Sealer:
    return Sealer(SECRET)


def _state() -> dict:
    g = new_game(GameOptions(deck="seeded", seed="seal"), dealer=0)
    g, _ = apply_action(g, GameAction("deal", 0))
    return to_json(g)


def _blob(token: str) -> bytes:
    raw = token[len(PREFIX):]
    return base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4))


def _token(blob: bytes) -> str:
    return PREFIX + base64.urlsafe_b64encode(blob).decode().rstrip("=")


def test_round_trip(sealer: Sealer) -> None:
    state = _state()
    token = sealer.seal(state)
    assert token.startswith("v1.")
    assert sealer.unseal(token) == state
    assert to_json(from_json(sealer.unseal(token))) == state


def test_round_trip_plain_data(sealer: Sealer) -> None:
    for data in ({}, {"a": [1, 2, None, "é"], "b": {"c": True}}, {"x": "y" * 10_000}):
        assert sealer.unseal(sealer.seal(data)) == data


def test_token_is_url_safe_and_opaque(sealer: Sealer) -> None:
    state = _state()
    state_marker = {**state, "log": state["log"] + [{"note": "hidden-marker-" * 20}]}
    token = sealer.seal(state_marker)
    body = token[len(PREFIX):]
    assert set(body) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    # nothing of the plain text shows, neither in the token nor in its decoded bytes
    blob = _blob(token)
    for plain in (b"hidden-marker", b'"hands"', b'"deck"', orjson.dumps(state["hands"][1])):
        assert plain not in blob
        assert base64.urlsafe_b64encode(plain).decode().rstrip("=")[:8] not in body


def test_sealing_twice_gives_different_tokens(sealer: Sealer) -> None:
    state = _state()
    a, b = sealer.seal(state), sealer.seal(state)
    assert a != b  # a fresh nonce each time
    assert sealer.unseal(a) == sealer.unseal(b) == state


def test_same_secret_as_str_or_bytes(sealer: Sealer) -> None:
    token = sealer.seal({"k": 1})
    assert Sealer(SECRET.encode()).unseal(token) == {"k": 1}
    assert Sealer(SECRET).unseal(token) == {"k": 1}


@pytest.mark.parametrize("where", ["nonce_first", "nonce_last", "cipher_first", "cipher_middle",
                                   "tag_first", "tag_last"])
@pytest.mark.parametrize("bit", [0x01, 0x80])
def test_tampering_is_detected(sealer: Sealer, where: str, bit: int) -> None:
    token = sealer.seal(_state())
    blob = bytearray(_blob(token))
    n = len(blob)
    pos = {"nonce_first": 0, "nonce_last": 11, "cipher_first": 12, "cipher_middle": (12 + n - 16) // 2,
           "tag_first": n - 16, "tag_last": n - 1}[where]
    blob[pos] ^= bit
    with pytest.raises(SealError) as exc:
        sealer.unseal(_token(bytes(blob)))
    assert exc.value.field == "state"


def test_every_byte_is_protected(sealer: Sealer) -> None:
    token = sealer.seal({"phase": "play"})
    blob = _blob(token)
    for pos in range(len(blob)):
        bad = bytearray(blob)
        bad[pos] ^= 0x04
        with pytest.raises(SealError):
            sealer.unseal(_token(bytes(bad)))


def test_truncated_and_extended_tokens(sealer: Sealer) -> None:
    token = sealer.seal(_state())
    blob = _blob(token)
    for bad in (blob[:-1], blob[:-16], blob[:12], blob[:5], b"", blob + b"\0"):
        with pytest.raises(SealError):
            sealer.unseal(_token(bad))
    for cut in (1, 2, 3, 10):
        with pytest.raises(SealError):
            sealer.unseal(token[:-cut])


def test_other_prefix_is_rejected(sealer: Sealer) -> None:
    token = sealer.seal({"a": 1})
    for bad in ("v2." + token[3:], token[3:], "V1." + token[3:], " " + token):
        with pytest.raises(SealError):
            sealer.unseal(bad)


def test_foreign_secret(sealer: Sealer) -> None:
    token = Sealer("another deployment's secret!").seal(_state())
    with pytest.raises(SealError) as exc:
        sealer.unseal(token)
    assert "another deployment" in exc.value.message or "altered" in exc.value.message


@pytest.mark.parametrize("token", [
    None, 1, 1.5, [], {}, b"v1.AAAA", "", "v1", "v1.", "v1.=", "v1.!!!!", "v1.A", "v1.AAAA",
    "v1." + "A" * 40, "v1." + "_" * 41, "v1.é", "v1.\x00\x00", "v1.AAAA\n", "v1.AA AA",
    "v1." + "A" * (MAX_TOKEN + 10), "eyJhbGciOiJub25lIn0.e30.",
])
def test_garbage_tokens(sealer: Sealer, token: object) -> None:
    with pytest.raises(SealError) as exc:
        sealer.unseal(token)
    assert exc.value.field == "state"


def test_seal_error_is_malformed() -> None:
    assert issubclass(SealError, MalformedError) and issubclass(SealError, ValueError)


@pytest.mark.parametrize("secret", ["", "short", "x" * 15, b"x" * 15])
def test_short_secret_rejected(secret: str | bytes) -> None:
    with pytest.raises(ValueError):
        Sealer(secret)


def test_sixteen_byte_secret_accepted() -> None:
    s = Sealer("x" * 16)
    assert s.unseal(s.seal({"ok": True})) == {"ok": True}
    assert Sealer(os.urandom(32)).seal({}).startswith(PREFIX)


def test_sealer_from_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(seal_module.SECRET_ENV, raising=False)
    assert sealer_from_env() is None
    monkeypatch.setenv(seal_module.SECRET_ENV, SECRET)
    s = sealer_from_env()
    assert s is not None and Sealer(SECRET).unseal(s.seal({"a": 1})) == {"a": 1}
    monkeypatch.setenv(seal_module.SECRET_ENV, "short")
    with pytest.raises(ValueError):
        sealer_from_env()


def _authentic(sealer: Sealer, plain: bytes) -> str:
    """A token that authenticates under ``sealer``'s key but carries ``plain``
    (only someone holding the secret can make one)."""
    nonce = os.urandom(12)
    return _token(nonce + sealer._aead.encrypt(nonce, plain, seal_module._AAD))


def test_inflation_is_bounded(sealer: Sealer) -> None:
    bomb = zlib.compress(b'{"a":"' + b"0" * (5 * 1024 * 1024) + b'"}', 9)
    token = _authentic(sealer, bomb)
    assert len(token) < MAX_TOKEN
    with pytest.raises(SealError):
        sealer.unseal(token)


@pytest.mark.parametrize("plain", [b"not zlib at all", zlib.compress(b"not json"), zlib.compress(b"[1, 2]")],
                         ids=["not-zlib", "not-json", "json-list"])
def test_authentic_but_corrupt_payload_is_a_seal_error(sealer: Sealer, plain: bytes) -> None:
    """Hardening: the secret's holder could only make these by a bug, but unseal
    should still answer SealError (a 4xx), not zlib.error or a JSON error, and
    never return a non-object."""
    token = _authentic(sealer, plain)
    with pytest.raises(CribbageError):
        out = sealer.unseal(token)
        assert isinstance(out, dict), out


def test_orjson_round_trip_of_state_then_seal(sealer: Sealer) -> None:
    state = orjson.loads(orjson.dumps(_state()))
    assert sealer.unseal(sealer.seal(state)) == state
