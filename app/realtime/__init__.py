"""Real-time fan-out: the WebSocket hub of this process."""
