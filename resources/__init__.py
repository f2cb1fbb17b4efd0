"""Bundled resources: icons, themes and sample scenarios (import name crdesk_resources)."""
