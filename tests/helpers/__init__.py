"""What several tests share: the engine test table, the test machine's sound set-up, the repository's paths, run's arguments and the host's keyboard double."""
