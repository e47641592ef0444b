"""The work that follows a write: durable jobs, their handlers, workers and maintenance."""
