"""The club's PostgreSQL database: every box's finished games in one place.

The contract between its two halves (each module says more):

- ``errors.py``: ``ClubDbError`` (a HostDeviceError: one Russian line that
  names the database without its password and, where it can, the fix), and
  its kinds: ``Unreachable`` (no server, no network, a timeout: the box
  retries later), ``Refused`` (this game cannot be taken: another box sent
  a different record of its UUID; never retried until the game changes),
  ``WrongSchema`` (the database is of another schema version, or not the
  club's), ``BadUrl``, ``AccessDenied`` (the password or the user).
- ``db.py``: ``ClubDB.open(url)`` (a connection with a short connect
  timeout), ``ClubDB.init()`` (``host-device club init``: the schema made and
  migrated, versioned), ``receive(package) -> "stored" | "same" | "updated"``
  (idempotent by the game's UUID; ``Refused`` for another box's different
  record; a package is stored whole in one transaction or not at all, the
  roster merged by player UUID), ``records()`` (every finished game's
  record, oldest first, the club's roster applied: names and merges),
  ``record(club_id)``, ``state()`` (changes whenever what records() reads
  changes), ``counts()``, ``close()``.
- ``sender.py``: the box's side: ``send_waiting(store, url) -> SendReport``
  (what ``host-device club send`` and the background do: each waiting game
  packed (host_device/club/package.py) and received, the store's outbox
  marked), ``Sender`` (the background: its own process, woken when a game
  finishes, retrying with back-off while the server is away; it never
  blocks or slows the table).
"""
