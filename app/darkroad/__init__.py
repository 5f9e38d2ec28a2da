"""Merchants of the Dark Road: the pure rules engine and content of the second game."""
