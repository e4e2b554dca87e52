"""airspace.geo"""
