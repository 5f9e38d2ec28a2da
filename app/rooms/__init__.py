"""The platform: rooms, seats, tokens, and the one command path for HTTP and WebSocket."""
