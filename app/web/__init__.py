"""HTTP and WebSocket routes: parse, authenticate, call the platform, reply."""
