"""The benchmark's URLs: the site's (junta.urls) plus one page of its own, the baseline, that
bench/pages.py compares every page with.

The baseline does what the least of the site's pages does: a logged-in player's request (the
session and the user read by the middleware), one query of its own (the campaign's players,
counted) and a small template rendered by Django's template engine inside the site's layout
(templates/base.html, with its context processors). It exists only under
bench/bench_settings.py: imported under any other ROOT_URLCONF (included into the site's own
URLs, say), this module refuses to load.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest, HttpResponse
from django.template import engines
from django.urls import include, path

from junta.games.models import Player

BASELINE_URL_NAME = "bench_baseline"

if __name__ != settings.ROOT_URLCONF:
    raise ImproperlyConfigured(
        f"{__name__} is the benchmark's URL configuration (bench/bench_settings.py): its "
        f"baseline page must not be served by the site, whose ROOT_URLCONF is "
        f"{settings.ROOT_URLCONF!r}.")

# Compiled once, as the cached template loader keeps the site's templates when DEBUG is off.
TEMPLATE = engines["django"].from_string(
    """{% extends "base.html" %}
{% block title %}Baseline{% endblock title %}
{% block content %}
  <h1>Baseline</h1>
  <p>A page of the benchmark only: {{ players }} player{{ players|pluralize }} in this
  campaign.</p>
  <p><a href="{% url 'lobby' %}">Your campaigns</a></p>
{% endblock content %}
""")


@login_required
def baseline(request: HttpRequest, game_id: int) -> HttpResponse:
    players = Player.objects.filter(game_id=game_id).count()
    return HttpResponse(TEMPLATE.render({"players": players}, request))


urlpatterns = [
    path("bench/baseline/<int:game_id>/", baseline, name=BASELINE_URL_NAME),
    path("", include("junta.urls")),
]
