"""Rooms: shared games and what their players and watchers may do in them."""
