"""Rule tests of the pure engine (app/karanor), on the small `mini` content pack."""
