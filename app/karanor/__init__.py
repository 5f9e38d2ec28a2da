"""Merchants of Karanor: the rules, content and bots of the first game (pure: no I/O)."""
