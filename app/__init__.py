"""airspace.app"""
