"""The games this server hosts: the interface every game implements (`base`) and the
registry that maps a game id to its implementation (`registry`)."""
