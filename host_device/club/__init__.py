"""The club's record: a stored game read as a record (seats, players, roles,
nominations, ballots, the night, fouls, departures, the best move, extra
points), the points a scoring table gives it, the rating replayed across
games, a player's figures and the plots of them. Pure functions of the
store's data; never written back."""
