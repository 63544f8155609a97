"""The Rules page, open to anyone: the rules reference, the rulings, the cards and the zones."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from junta.games import rulebook


def rules(request: HttpRequest) -> HttpResponse:
    book = rulebook.rulebook()
    return render(request, "games/rules.html", {
        "book": book, "cards": rulebook.card_list(), "zones": rulebook.zone_list(),
        "card_count": sum(c["copies"] for c in rulebook.card_list()),
    })
