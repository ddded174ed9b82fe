"""A pinned C2SP ``tlog-policy`` (c2sp.org/tlog-policy): which logs, which witnesses, what quorum.

An auditor pins a policy file (``--policy FILE``); it says which log keys sign checkpoints
worth believing and which witnesses' cosignatures prove that a checkpoint was seen by
others -- the proof that the operator did not show this record a private tree.  The file
format is the spec's, parsed strictly (every error a :class:`PolicyError` naming the line)::

    # comments and blank lines are ignored
    log <vkey> [<url>]                         # an Ed25519 (0x01) note key; its name is the log's origin
    witness <name> <vkey> [<url>]              # a cosignature/v1 (0x04) key
    group <name> all|any|<k> <member>...       # members: witnesses or groups defined above
    quorum <name>|none                         # exactly one

Deviations and readings of the spec, all stricter than it:

* the file is read as UTF-8 (the spec allows any octets above 0x7F; a file that is not
  UTF-8 is refused, so the Python and the browser parser read the same names);
* a final line without its newline is accepted (a paste box drops it);
* ``<k>`` is a decimal without leading zeros;
* "each defined name can be listed as a group member at most once" is read across the
  whole file, not per group: a witness counts toward the quorum in one way only;
* at most :data:`MAX_ENTRIES` logs, witnesses and groups each (the spec asks for 32).

:meth:`Policy.evaluate` checks one checkpoint: which listed log signed it (its origin must
be the log key's name) and which witnesses have a cosignature line on it that verifies,
and whether the quorum holds.  ``web/static/verifier/policy.mjs`` is the same parser in the
browser; both are tested against ``fixtures/policy/``.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from replay.errors import MalformedError

from .cosignature import verify_cosignatures
from .note import TYPE_COSIGNATURE_ED25519, TYPE_ED25519, Vkey, parse_note, parse_vkey, verify_ed25519_note

POLICY_SPEC = "c2sp.org/tlog-policy"
MAX_ENTRIES = 256
MAX_BYTES = 64 * 1024
NONE = "none"
_BAD_OCTETS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_WS = re.compile(r"[ \t]+")
_K_RE = re.compile(r"[1-9][0-9]{0,5}")
ERROR_CODES = ("too_large", "not_utf8", "bad_character", "syntax", "unknown_keyword", "bad_key", "duplicate_key",
               "duplicate_name", "reserved_name", "undefined_name", "member_reused", "bad_threshold",
               "no_quorum", "two_quorums", "too_many", "unreadable")


class PolicyError(MalformedError):
    """A policy file that is not a valid C2SP ``tlog-policy``: ``code`` (one of
    :data:`ERROR_CODES`, the same in ``policy.mjs``) and ``line`` (where, or ``None``)."""

    def __init__(self, message: str, *, code: str = "syntax", line: int | None = None) -> None:
        self.code = code
        self.line = line
        super().__init__(f"policy line {line}: {message}" if line else f"policy: {message}")


@dataclass(frozen=True, slots=True)
class Group:
    """``group <name> <k> <members>``: witnessed when at least ``k`` members witnessed."""

    name: str
    threshold: int
    members: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PolicyLog:
    vkey: Vkey
    url: str | None = None

    @property
    def origin(self) -> str:
        return self.vkey.name


@dataclass(frozen=True, slots=True)
class PolicyWitness:
    name: str
    vkey: Vkey
    url: str | None = None


@dataclass(frozen=True, slots=True)
class Cosigned:
    """A witness whose cosignature on the checkpoint verified, and when it says it signed."""

    name: str
    timestamp: int

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "timestamp": self.timestamp}


@dataclass(frozen=True, slots=True)
class PolicyResult:
    """What a policy says of one checkpoint.

    ``log``: the policy log whose signature verified (``None``: none did, or the policy lists
    no logs -- see ``log_problem``); ``cosigned``: every listed witness whose line verified;
    ``counted``: those of them the quorum reaches; ``quorum_met``: the quorum holds
    (``quorum none`` always holds); ``missing``: why each other witness the quorum reaches
    did not count."""

    log: PolicyLog | None
    log_problem: str | None
    cosigned: tuple[Cosigned, ...]
    counted: tuple[Cosigned, ...]
    quorum_met: bool
    missing: tuple[str, ...]


@dataclass(frozen=True)
class Policy:
    """A parsed policy.  ``name``: how to call it to a person (the file name); ``sha256``:
    hex SHA-256 of the exact text parsed -- the policy's identity in a verdict."""

    logs: tuple[PolicyLog, ...]
    witnesses: tuple[PolicyWitness, ...]
    groups: tuple[Group, ...]
    quorum: str
    name: str = "policy"
    sha256: str = ""
    _by_name: dict[str, PolicyWitness | Group] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        index: dict[str, Any] = {w.name: w for w in self.witnesses}
        index.update({g.name: g for g in self.groups})
        object.__setattr__(self, "_by_name", index)

    # -- what it asks ------------------------------------------------------------------
    @property
    def requires_witnesses(self) -> bool:
        """Whether the quorum needs any cosignature (every quorum but ``none`` does)."""
        return self.quorum != NONE

    @property
    def label(self) -> str:
        """``name (sha256:0123456789abcdef)``: what a verdict calls this policy."""
        return f"{self.name} (sha256:{self.sha256[:16]})"

    def reached(self, name: str | None = None) -> list[str]:
        """The witness names the quorum (or ``name``) reaches, in definition order."""
        out: list[str] = []
        todo = [self.quorum if name is None else name]
        while todo:
            n = todo.pop()
            item = self._by_name.get(n)
            if isinstance(item, PolicyWitness):
                out.append(n)
            elif isinstance(item, Group):
                todo.extend(item.members)
        order = [w.name for w in self.witnesses]
        return sorted(set(out), key=order.index)

    def describe(self) -> str:
        """The quorum in words: ``witness w1``, ``2 of (w1, w2, w3)``, ``no witness``."""
        return "no witness (quorum none)" if self.quorum == NONE else self._words(self.quorum)

    def _words(self, name: str) -> str:
        item = self._by_name[name]
        if isinstance(item, PolicyWitness):
            return f"witness {name}"
        inner = ", ".join(m if isinstance(self._by_name[m], PolicyWitness) else f"[{self._words(m)}]"
                          for m in item.members)
        k = "all" if item.threshold == len(item.members) else ("any" if item.threshold == 1 else str(item.threshold))
        return f"{k} of ({inner})"

    def log_for(self, origin: str) -> PolicyLog | None:
        """The listed log whose key name is ``origin``."""
        return next((log for log in self.logs if log.origin == origin), None)

    def to_json(self) -> dict[str, Any]:
        return {"spec": POLICY_SPEC, "name": self.name, "sha256": self.sha256,
                "logs": [str(log.vkey) for log in self.logs],
                "witnesses": {w.name: str(w.vkey) for w in self.witnesses},
                "groups": {g.name: {"threshold": g.threshold, "members": list(g.members)} for g in self.groups},
                "quorum": self.quorum, "requires": self.describe()}

    # -- judging one checkpoint -------------------------------------------------------
    def evaluate(self, checkpoint_text: str) -> PolicyResult:
        """Which listed log signed ``checkpoint_text``, which witnesses cosigned it, and
        whether the quorum holds.  A note that does not parse raises :class:`MalformedError`."""
        from ..errors import SignatureError

        note = parse_note(checkpoint_text)
        origin = note.text.split("\n", 1)[0]
        log, problem = None, None
        if self.logs:
            for candidate in self.logs:
                if not note.lines_for(candidate.vkey):
                    continue
                try:
                    verify_ed25519_note(note, candidate.vkey)
                except SignatureError as exc:
                    problem = f"the signature of log {candidate.origin} does not verify: {exc}"
                    continue
                if candidate.origin != origin:
                    problem = f"the checkpoint's origin {origin} is not the name of log key {candidate.origin}"
                    continue
                log, problem = candidate, None
                break
            if log is None and problem is None:
                problem = f"the checkpoint (origin {origin}) is signed by no log of the policy"
        results = verify_cosignatures(note, [w.vkey for w in self.witnesses])
        ok = {w.name: Cosigned(w.name, r.timestamp) for w, r in zip(self.witnesses, results)
              if r.ok and r.timestamp is not None}  # a verified cosignature has its timestamp
        why = {w.name: r.reason for w, r in zip(self.witnesses, results) if not r.ok}
        met = self.quorum == NONE or self._holds(self.quorum, set(ok))
        reach = self.reached() if self.quorum != NONE else []
        return PolicyResult(log, problem, tuple(ok.values()), tuple(ok[n] for n in reach if n in ok), met,
                            tuple(f"{n}: {why[n]}" for n in reach if n in why))

    def _holds(self, name: str, cosigned: set[str]) -> bool:
        item = self._by_name[name]
        if isinstance(item, PolicyWitness):
            return name in cosigned
        return sum(self._holds(m, cosigned) for m in item.members) >= item.threshold


def _vkey(text: str, sig_type: int, what: str, line: int) -> Vkey:
    try:
        return parse_vkey(text, sig_type=sig_type)
    except MalformedError as exc:
        raise PolicyError(f"{what}: {exc}", code="bad_key", line=line) from None


def parse_policy(text: str | bytes, *, name: str = "policy") -> Policy:
    """Parse a C2SP ``tlog-policy`` strictly (see the module doc); raise :class:`PolicyError`."""
    raw = text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass")
    if len(raw) > MAX_BYTES:
        raise PolicyError(f"a policy is at most {MAX_BYTES} bytes", code="too_large")
    try:
        decoded = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise PolicyError(f"the policy is not UTF-8 text (byte {exc.start})", code="not_utf8") from None
    logs: list[PolicyLog] = []
    witnesses: list[PolicyWitness] = []
    groups: list[Group] = []
    defined: dict[str, str] = {}  # name -> "witness" | "group"
    keys: dict[bytes, str] = {}  # public key -> what listed it
    used: set[str] = set()  # names already listed as a group member
    quorum: str | None = None
    lines = decoded.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for n, line in enumerate(lines, 1):
        bad = _BAD_OCTETS.search(line)
        if bad:
            what = "a carriage return (save the file with \\n line ends)" if bad.group() == "\r" else \
                f"control character 0x{ord(bad.group()):02x}"
            raise PolicyError(f"{what} is not allowed", code="bad_character", line=n)
        words = [w for w in _WS.split(line.strip(" \t")) if w]
        if not words or words[0].startswith("#"):
            continue
        keyword, args = words[0], words[1:]
        if keyword == "log":
            if len(args) not in (1, 2):
                raise PolicyError("a log line is 'log <vkey> [<url>]'", line=n)
            vkey = _vkey(args[0], TYPE_ED25519, "a log key", n)
            if vkey.public_key in keys:
                raise PolicyError(f"the key of log {vkey.name} is already listed ({keys[vkey.public_key]})", code="duplicate_key", line=n)
            keys[vkey.public_key] = f"log {vkey.name}"
            logs.append(PolicyLog(vkey, args[1] if len(args) == 2 else None))
        elif keyword == "witness":
            if len(args) not in (2, 3):
                raise PolicyError("a witness line is 'witness <name> <vkey> [<url>]'", line=n)
            wname = args[0]
            _new_name(wname, defined, n)
            vkey = _vkey(args[1], TYPE_COSIGNATURE_ED25519, f"witness {wname}'s key", n)
            if vkey.public_key in keys and not keys[vkey.public_key].startswith("log "):
                raise PolicyError(f"witness {wname}'s key is already listed ({keys[vkey.public_key]})", code="duplicate_key", line=n)
            keys.setdefault(vkey.public_key, f"witness {wname}")
            defined[wname] = "witness"
            witnesses.append(PolicyWitness(wname, vkey, args[2] if len(args) == 3 else None))
        elif keyword == "group":
            if len(args) < 3:
                raise PolicyError("a group line is 'group <name> all|any|<k> <name>...' with at least one member",
                                  line=n)
            gname, k_text, members = args[0], args[1], args[2:]
            _new_name(gname, defined, n)
            for m in members:
                if m == NONE:
                    raise PolicyError("'none' cannot be a group member", code="reserved_name", line=n)
                if m not in defined:
                    raise PolicyError(f"group member {m!r} is not a witness or group defined above", code="undefined_name", line=n)
                if m in used:
                    raise PolicyError(f"{m!r} is already a member of a group (a name is listed as a member once)",
                                      code="member_reused", line=n)
                used.add(m)
            if len(set(members)) != len(members):  # pragma: no cover - caught by `used` above
                raise PolicyError("a group lists a member twice", line=n)
            if k_text == "all":
                k = len(members)
            elif k_text == "any":
                k = 1
            elif _K_RE.fullmatch(k_text):
                k = int(k_text)
                if k > len(members):
                    raise PolicyError(f"group {gname} needs {k} of only {len(members)} members", code="bad_threshold", line=n)
            else:
                raise PolicyError(f"a group's threshold is all, any or a decimal from 1, not {k_text!r}", code="bad_threshold", line=n)
            defined[gname] = "group"
            groups.append(Group(gname, k, tuple(members)))
        elif keyword == "quorum":
            if len(args) != 1:
                raise PolicyError("a quorum line is 'quorum <name>'", line=n)
            if quorum is not None:
                raise PolicyError("a policy has exactly one quorum line (this is the second)", code="two_quorums", line=n)
            if args[0] != NONE and args[0] not in defined:
                raise PolicyError(f"the quorum {args[0]!r} is not 'none' or a witness or group defined above",
                                  code="undefined_name", line=n)
            quorum = args[0]
        else:
            raise PolicyError(f"unknown keyword {keyword!r} (log, witness, group or quorum)", code="unknown_keyword", line=n)
        if max(len(logs), len(witnesses), len(groups)) > MAX_ENTRIES:
            raise PolicyError(f"more than {MAX_ENTRIES} logs, witnesses or groups", code="too_many", line=n)
    if quorum is None:
        raise PolicyError("a policy needs a quorum line ('quorum none' to require no witness)", code="no_quorum")
    return Policy(tuple(logs), tuple(witnesses), tuple(groups), quorum, name=name,
                  sha256=hashlib.sha256(raw).hexdigest())


def _new_name(name: str, defined: dict[str, str], line: int) -> None:
    if name == NONE:
        raise PolicyError("'none' is predefined: a witness or group cannot be named none", code="reserved_name", line=line)
    if name in defined:
        raise PolicyError(f"the name {name!r} is already defined (as a {defined[name]})", code="duplicate_name", line=line)


def load_policy(path: str | Path) -> Policy:
    """Read and parse a policy file; the name in verdicts is the file's name."""
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise PolicyError(f"cannot read {path}: {exc.strerror or exc}", code="unreadable") from None
    return parse_policy(raw, name=Path(path).name)


def policy_of_witnesses(vkeys: list[str] | tuple[str, ...], quorum: int | None = None) -> Policy:
    """The policy ``--witness VKEY ... --quorum K`` means: those witnesses (named by their key
    names), ``K`` of them (default: all)."""
    lines = []
    names = []
    for v in vkeys:
        name = parse_vkey(v, sig_type=TYPE_COSIGNATURE_ED25519).name
        while name in names or name == NONE:
            name += "'"
        names.append(name)
        lines.append(f"witness {name} {v}")
    k = len(names) if quorum is None else quorum
    if not names or k == 0:
        lines.append("quorum none")
    else:
        if k > len(names):
            raise PolicyError(f"a quorum of {k} needs at least {k} witness keys (got {len(names)})", code="bad_threshold")
        lines.append(f"group cli-witnesses {k} {' '.join(names)}")
        lines.append("quorum cli-witnesses")
    return parse_policy("\n".join(lines) + "\n", name="--witness")


def operator_policy_text(logs: list[tuple[str, str]], witnesses: Sequence[tuple[str, str, str | None]] = ()) -> str:
    """The policy an operator publishes about itself (``/api/v1/log/policy``): one ``log`` line
    per ``(origin, public key hex)``, one ``witness`` line per ``(name, vkey text, url)`` it
    submits its checkpoints to, and a quorum of ``any`` of them (``none`` without witnesses).

    It is what the operator *says*; an auditor reads it, decides whether those witnesses are
    independent, and pins its own copy (``--policy FILE``): an audit never reads a policy
    from the operator it audits."""
    lines = ["# The transparency-log policy this operator publishes about itself (c2sp.org/tlog-policy).",
             "# It is the operator's claim: pin your own copy, with witnesses you trust, to audit with it."]
    for origin, pub in logs:
        lines.append(f"log {Vkey.for_key(origin, TYPE_ED25519, bytes.fromhex(pub))}")
    names = []
    for name, vkey, url in witnesses:
        names.append(name)
        lines.append(f"witness {name} {vkey}" + (f" {url}" if url else ""))
    if names:
        lines.append(f"group operator-witnesses any {' '.join(names)}")
        lines.append("quorum operator-witnesses")
    else:
        lines.append("quorum none")
    text = "\n".join(lines) + "\n"
    parse_policy(text)  # what it publishes is a valid policy
    return text
