"""The application: command line, intents, game runner."""
