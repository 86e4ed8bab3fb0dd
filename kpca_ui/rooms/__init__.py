"""Class mode's rooms: where a lecture's students put their points and digits.

:mod:`kpca_ui.rooms.store` is the model, its rules (Lua scripts) and the in-process store,
:mod:`kpca_ui.rooms.redis_store` the same rules in a Redis server (for replicas behind a
balancer); :func:`kpca_ui.rooms.store.open_store` picks one from the environment.
Neither imports Streamlit: the Class page (``kpca_ui/views/class_room.py``)
shares one store between sessions.
"""
