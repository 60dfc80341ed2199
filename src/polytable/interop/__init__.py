"""Bridges to other frameworks (optional extras): OpenSpiel (``polytable[openspiel]``)."""
