"""Outside sources: Slack exports and messages, Jira CSVs, web pages."""
