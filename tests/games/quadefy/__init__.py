"""Quadefy tests."""
