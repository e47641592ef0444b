"""Who may read and write what: API keys, the trust of a caller, and what each trust is shown."""
