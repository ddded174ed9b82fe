"""Deal statistics: over many audited hands, do the cards fall the way chance says?"""
