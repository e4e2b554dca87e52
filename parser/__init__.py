"""airspace.parser"""
