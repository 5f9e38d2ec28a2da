"""Helpers shared by the test suite (server processes, service availability)."""
