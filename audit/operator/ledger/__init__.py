"""The append-only hand ledger (SQLite through sqlite-utils).

Use the facade :class:`Ledger`; ``docs/ledger.md`` describes the state machine, the
statement kinds and their fields, key storage and backups.

Modules: :mod:`.store` (connections, the ledger-file checks, :func:`atomic`, the migration
machinery), :mod:`.migrations` (the schema), :mod:`.opening` (:func:`open_db`: check, connect,
migrate), :mod:`.lifecycle` (the state machine), :mod:`.statements` (signed statements),
:mod:`.views` (public reads), :mod:`.secret_store` (server seeds and stored keys),
:mod:`.inputs` (checks of ids, names, seats, seeds), :mod:`.hands` (a hand's lifecycle verbs),
:mod:`.queries` (the site's reads), :mod:`.publishing` (the operator's verbs that publish and
prove), :mod:`.version` (:class:`LedgerVersion`, a file's version for a server's caches),
:mod:`.ledger` (the facade, :class:`Ledger`, whose bases :class:`.hands.HandLifecycle`,
:class:`.moves.MovePlay`, :class:`.queries.LedgerReads` and :class:`.publishing.Publishing`
are).  The site (``web/``) reaches a ledger only through the facade's methods and these
public classes.
"""
from .inputs import check_id, check_player_name
from .ledger import Cosigner, Ledger
from .lifecycle import ALLOWED, HandState
from .statements import KINDS, StoredStatement, format_time
from .opening import open_db
from .secret_store import SecretStoreError
from .store import atomic
from .version import LedgerVersion
from .views import HandView, OperatorView, RecordEntry, SeatView, TableView

__all__ = ["Ledger", "Cosigner", "SecretStoreError", "check_id", "check_player_name", "ALLOWED", "HandState", "KINDS", "StoredStatement", "format_time",
           "atomic", "open_db", "LedgerVersion", "HandView", "OperatorView", "RecordEntry", "SeatView", "TableView"]
