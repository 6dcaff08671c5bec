"""How the address of a club's PostgreSQL database is written: the config's
check, the club database's own check and the club pages' choice of source
read it here. Imports nothing (the sender's and the pages' processes load
it without the config's hardware)."""

CLUB_DB_SCHEMES = ("postgresql://", "postgres://")  # how the address of a club's database begins
CLUB_DB_EXAMPLE = "postgresql://club:ПАРОЛЬ@server/club"
