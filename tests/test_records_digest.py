"""A record's digests are read without a round trip through bytes, with parse_digest's
answers: the same lower-case hex, or the same error (the message never echoes the value)."""
from hypothesis import given, strategies as st

from replay.errors import MalformedError
from replay.fairness import parse_digest
from replay.records import _digest_hex


def _answer(fn, text):
    try:
        return fn(text)
    except MalformedError as exc:
        return f"MalformedError: {exc}"


class _Str(str):
    pass


_TEXTS = st.one_of(st.text(alphabet="0123456789abcdefABCDEF\n\u0660g", max_size=70),
                   st.text(alphabet="0123456789abcdef", min_size=62, max_size=66),
                   st.sampled_from([None, 5, b"a" * 64, ["a" * 64], _Str("c" * 64), "d" * 64 + "\n"]))


@given(_TEXTS)
def test_a_digest_is_read_as_parse_digest_reads_it(text):
    got = _answer(lambda t: _digest_hex(t, "server_commitment"), text)
    assert got == _answer(lambda t: parse_digest(t, what="server_commitment").hex(), text)
    assert type(got) is str
