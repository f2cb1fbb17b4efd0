"""Dialogs: new table, generate table."""
