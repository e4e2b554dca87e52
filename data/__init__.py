"""airspace.data"""
