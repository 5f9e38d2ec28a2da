"""Karanor Online: a self-hostable multiplayer server for Merchants of Karanor."""

__version__ = "0.1.0"
