"""The application, a folder per concern; docs/architecture.md has the floors they import in."""
