"""Room codes and seat tokens (API.md, Identity)."""

from app.rooms import tokens


def test_room_codes_are_unguessable_and_safe_on_a_command_line() -> None:
    """A room code carries at least 64 random bits, is URL-safe, and never starts with
    '-' (argparse would read `karanor export -x...` as an option) or '_'."""
    codes = {tokens.new_room_code() for _ in range(3000)}
    assert len(codes) == 3000
    for code in codes:
        assert len(code) * 6 >= 64 + 6 and tokens.plausible_code(code)
        assert code[0].isalnum()


def test_seat_tokens_carry_128_bits_and_are_stored_hashed() -> None:
    token = tokens.new_seat_token()
    assert len(token) * 6 >= 128 and tokens.plausible_token(token)
    digest = tokens.hash_token(token)
    assert len(digest) == 64 and token not in digest
