"""Summarizers: the protocol, the embedded structured summarizer and model clients."""
