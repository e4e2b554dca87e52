"""airspace.model"""
