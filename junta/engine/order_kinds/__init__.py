"""The order kinds, one object each, grouped by the phase they are given in: `anytime`
(payments, gifts, trades, card plays...), `nominations`, `votes`, `turn` (the Cabinet and the
budget), `locations`, `coup` and `aftermath`. `base.OrderKindSpec` says what a kind is;
`kinds.py` gathers them into the registry that validation, the options, the bots and the pages
read. The kinds sit below the phase modules that carry their orders out: a phase imports its
kinds, never the other way round. The rules a kind's check and offers share with those phases
sit below the kinds: the card plays (card_plays.py), the ballots (voting.py), the Cabinet
(cabinet.py), the budget's plan (budget_plan.py) and the assassins (assassins.py).
"""
