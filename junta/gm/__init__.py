"""The GameMaster's panel: /games/<id>/gm/.

- `permissions`: the one rule, only the campaign's GM; 404 for everyone else.
- `services`: every GM action (players, settings, time, review, rulings, rollback, replay check),
  each one transaction with the game row locked and an `AuditEntry`; engine state through
  `junta.games.repository` only.
- `checks`: the replay and the chain of phase start states.
- `selectors`, `forms`, `views`, `urls`, templates: the pages. Players see only the public
  announcements: those of his actions and his free ones (the Announce page), among the
  speeches on the Events page (`junta.games.selectors.events_items`).
"""
